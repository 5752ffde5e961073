//! The three layouts of the metalayer, and the serde machinery they share.
//!
//! Every layout starts with the same five elements; only the tail differs:
//!
//! | layout | header | elements |
//! |---|---|---|
//! | [`Layout::CatervaV0`] | `0x95` | version, ndim, shape, chunkshape, blockshape |
//! | [`Layout::B2nd`] | `0x96` | ... then dtype |
//! | [`Layout::B2ndV1`] | `0x97` | ... then dtype_format, dtype |
//!
//! In a binary serde format a metalayer is a tuple of these elements; in a
//! human-readable one (JSON, TOML, ...) it is a struct whose first field names the layout.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::ser::{self, SerializeStruct, SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

use crate::wire;

/// The metalayer version this crate reads and writes: the only one defined.
pub const VERSION: u8 = 0;

/// The most dimensions an array may have: C-Blosc2's `B2ND_MAX_DIM` (16 since 2.21.3).
pub const MAX_DIM: usize = wire::MAX_ARRAY_LEN;

/// The largest `dtype_format` (a positive fixint).
pub const MAX_DTYPE_FORMAT: u8 = wire::PFIX_MAX;

/// Which of the three metalayer layouts a value has.
///
/// ```
/// use b2nd_meta::Layout;
///
/// assert_eq!(Layout::B2ndV1.header(), 0x97);
/// assert_eq!(Layout::from_element_count(5), Some(Layout::CatervaV0));
/// assert_eq!(Layout::B2ndV1.encoded_len(3, "<f8".len()), 12 + 19 * 3 + 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The `caterva` metalayer: version, ndim, shape, chunkshape, blockshape.
    CatervaV0,
    /// The draft `b2nd` layout: the caterva five, then dtype.
    B2nd,
    /// The `b2nd` layout C-Blosc2 and python-blosc2 write today: the caterva five, then
    /// dtype_format and dtype.
    B2ndV1,
}

impl Layout {
    /// Number of elements in the top-level array: 5, 6 or 7.
    pub const fn element_count(self) -> usize {
        match self {
            Layout::CatervaV0 => 5,
            Layout::B2nd => 6,
            Layout::B2ndV1 => 7,
        }
    }

    /// The first byte of the metalayer: `0x90 +` [`element_count`](Self::element_count).
    pub const fn header(self) -> u8 {
        wire::FIXARRAY + self.element_count() as u8
    }

    /// The layout with this many top-level elements.
    pub const fn from_element_count(count: usize) -> Option<Layout> {
        match count {
            5 => Some(Layout::CatervaV0),
            6 => Some(Layout::B2nd),
            7 => Some(Layout::B2ndV1),
            _ => None,
        }
    }

    /// The name used in JSON and by the command-line tool: `"caterva-v0"`, `"b2nd"` or
    /// `"b2nd-v1"`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::CatervaV0 => "caterva-v0",
            Layout::B2nd => "b2nd",
            Layout::B2ndV1 => "b2nd-v1",
        }
    }

    /// The layout with this [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Layout> {
        [Layout::CatervaV0, Layout::B2nd, Layout::B2ndV1]
            .into_iter()
            .find(|layout| layout.name() == name)
    }

    /// Exact encoded size in bytes of a metalayer with `ndim` axes and a dtype of
    /// `dtype_len` bytes (ignored for [`Layout::CatervaV0`]). Saturates at `usize::MAX`
    /// for sizes that could never be encoded (more than 16 axes cannot be anyway).
    ///
    /// Three header bytes, then per axis 9 bytes of shape and 5 + 5 of chunk and block
    /// shape, plus one header byte per shape array; b2nd adds a str32 (5 + `dtype_len`),
    /// b2nd v1 one more byte of dtype_format.
    pub const fn encoded_len(self, ndim: usize, dtype_len: usize) -> usize {
        let common = ndim
            .saturating_mul(wire::INT64_LEN + 2 * wire::INT32_LEN)
            .saturating_add(3 + 3);
        let tail = match self {
            Layout::CatervaV0 => return common,
            Layout::B2nd => wire::LEN32_HEADER_LEN,
            Layout::B2ndV1 => 1 + wire::LEN32_HEADER_LEN,
        };
        common.saturating_add(tail).saturating_add(dtype_len)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A borrowed view of any layout's elements, for serializing.
pub(crate) struct PartsRef<'a> {
    pub layout: Layout,
    pub shape: &'a [i64],
    pub chunkshape: &'a [i32],
    pub blockshape: &'a [i32],
    /// Written only by [`Layout::B2ndV1`].
    pub dtype_format: u8,
    /// Written only by the b2nd layouts.
    pub dtype: &'a str,
}

/// Any layout's elements, decoded.
pub(crate) struct Parts {
    pub layout: Layout,
    pub shape: Vec<i64>,
    pub chunkshape: Vec<i32>,
    pub blockshape: Vec<i32>,
    pub dtype_format: u8,
    pub dtype: String,
}

const FIELDS: &[&str] = &[
    "layout",
    "version",
    "ndim",
    "shape",
    "chunkshape",
    "blockshape",
    "dtype_format",
    "dtype",
];

impl PartsRef<'_> {
    /// The dtype to judge, with its format; the draft layout uses NumPy's names.
    pub fn dtype(&self) -> Option<(u8, &str)> {
        match self.layout {
            Layout::CatervaV0 => None,
            Layout::B2nd => Some((0, self.dtype)),
            Layout::B2ndV1 => Some((self.dtype_format, self.dtype)),
        }
    }

    /// C-Blosc2's rules, and the dtype against `typesize` when given.
    pub fn validate(&self, typesize: Option<u64>) -> Result<(), crate::validate::Invalid> {
        crate::validate::check_with_dtype(
            self.shape,
            self.chunkshape,
            self.blockshape,
            self.dtype(),
            typesize,
        )
    }

    /// Writes the metalayer into the start of `buf` without serde: one length check up
    /// front, then the bytes. Writes exactly what the `Serialize` impl writes (the
    /// tests hold the two to it).
    pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize, crate::Error> {
        use crate::error::{Error, ErrorKind};
        if let Some(problem) = self.encode_problem() {
            return Err(Error::new(ErrorKind::Message(problem)));
        }
        let ndim = self.shape.len();
        let len = self.layout.encoded_len(ndim, self.dtype.len());
        let available = buf.len();
        let Some(out) = buf.get_mut(..len) else {
            return Err(Error::new(ErrorKind::BufferTooSmall {
                needed: len,
                available,
            }));
        };
        // Checked by encode_problem: ndim <= 16 and the dtype's length fits an i32.
        let header = wire::FIXARRAY + ndim as u8;
        let (head, rest) = out.split_at_mut(4);
        head.copy_from_slice(&[self.layout.header(), VERSION, ndim as u8, header]);
        let (shape, rest) = rest.split_at_mut(ndim * wire::INT64_LEN);
        for (dst, &v) in shape.chunks_exact_mut(wire::INT64_LEN).zip(self.shape) {
            dst.copy_from_slice(&wire::int64(v));
        }
        let mut rest = rest;
        for entries in [self.chunkshape, self.blockshape] {
            let (h, tail) = rest.split_at_mut(1);
            h[0] = header;
            let (region, tail) = tail.split_at_mut(ndim * wire::INT32_LEN);
            for (dst, &v) in region.chunks_exact_mut(wire::INT32_LEN).zip(entries) {
                dst.copy_from_slice(&wire::int32(v));
            }
            rest = tail;
        }
        if self.layout == Layout::B2ndV1 {
            let (f, tail) = rest.split_at_mut(1);
            f[0] = self.dtype_format;
            rest = tail;
        }
        if self.layout != Layout::CatervaV0 {
            let (h, tail) = rest.split_at_mut(wire::LEN32_HEADER_LEN);
            let len32 = (self.dtype.len() as u32).to_be_bytes();
            h.copy_from_slice(&[wire::STR32, len32[0], len32[1], len32[2], len32[3]]);
            tail.copy_from_slice(self.dtype.as_bytes());
        }
        Ok(len)
    }

    /// Why these parts cannot be encoded, if they cannot.
    fn encode_problem(&self) -> Option<String> {
        let (s, c, b) = (
            self.shape.len(),
            self.chunkshape.len(),
            self.blockshape.len(),
        );
        if s != c || s != b {
            return Some(alloc::format!(
                "shape, chunkshape and blockshape need one entry per axis; \
                 found {s}, {c} and {b} entries"
            ));
        }
        if s > MAX_DIM {
            return Some(alloc::format!(
                "at most {MAX_DIM} dimensions fit the metalayer (C-Blosc2's B2ND_MAX_DIM); found {s}"
            ));
        }
        if self.layout == Layout::B2ndV1 && self.dtype_format > MAX_DTYPE_FORMAT {
            return Some(alloc::format!(
                "dtype_format is a positive fixint (0..=127); found {}",
                self.dtype_format
            ));
        }
        if self.layout != Layout::CatervaV0 && i32::try_from(self.dtype.len()).is_err() {
            return Some(alloc::format!(
                "the dtype is {} bytes long; C-Blosc2 stores at most i32::MAX",
                self.dtype.len()
            ));
        }
        None
    }

    /// Serializes as a tuple (binary formats; `as_seq` makes it a length-prefixed
    /// sequence, which [`crate::Meta`] needs to recognise the layout) or as a struct
    /// (human-readable formats).
    pub fn serialize<S: Serializer>(&self, serializer: S, as_seq: bool) -> Result<S::Ok, S::Error> {
        if let Some(problem) = self.encode_problem() {
            return Err(ser::Error::custom(problem));
        }
        // Checked above: ndim <= 16.
        let ndim = self.shape.len() as u8;
        if serializer.is_human_readable() {
            let fields = 6 + match self.layout {
                Layout::CatervaV0 => 0,
                Layout::B2nd => 1,
                Layout::B2ndV1 => 2,
            };
            let mut st = serializer.serialize_struct("Meta", fields)?;
            st.serialize_field("layout", self.layout.name())?;
            st.serialize_field("version", &VERSION)?;
            st.serialize_field("ndim", &ndim)?;
            st.serialize_field("shape", self.shape)?;
            st.serialize_field("chunkshape", self.chunkshape)?;
            st.serialize_field("blockshape", self.blockshape)?;
            if self.layout == Layout::B2ndV1 {
                st.serialize_field("dtype_format", &self.dtype_format)?;
            }
            if self.layout != Layout::CatervaV0 {
                st.serialize_field("dtype", self.dtype)?;
            }
            return st.end();
        }
        // The elements in order, each as the Rust type that fixes its width: `u8` a
        // positive fixint, `Axes<i64>` int64s, `Axes<i32>` int32s, `str` a str32.
        macro_rules! elements {
            ($out:ident) => {{
                $out.serialize_element(&VERSION)?;
                $out.serialize_element(&ndim)?;
                $out.serialize_element(&Axes(self.shape))?;
                $out.serialize_element(&Axes(self.chunkshape))?;
                $out.serialize_element(&Axes(self.blockshape))?;
                if self.layout == Layout::B2ndV1 {
                    $out.serialize_element(&self.dtype_format)?;
                }
                if self.layout != Layout::CatervaV0 {
                    $out.serialize_element(self.dtype)?;
                }
                $out.end()
            }};
        }
        let len = self.layout.element_count();
        if as_seq {
            use ser::SerializeSeq;
            let mut seq = serializer.serialize_seq(Some(len))?;
            elements!(seq)
        } else {
            let mut tuple = serializer.serialize_tuple(len)?;
            elements!(tuple)
        }
    }
}

/// One entry per axis, as a tuple whose length is ndim (the element before).
struct Axes<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Axes<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(self.0.len())?;
        for v in self.0 {
            tuple.serialize_element(v)?;
        }
        tuple.end()
    }
}

/// Deserializes any layout, or exactly `expect` when given.
pub(crate) fn deserialize_parts<'de, D: Deserializer<'de>>(
    deserializer: D,
    expect: Option<Layout>,
) -> Result<Parts, D::Error> {
    let visitor = PartsVisitor { expect };
    if deserializer.is_human_readable() {
        deserializer.deserialize_struct("Meta", FIELDS, visitor)
    } else {
        match expect {
            Some(layout) => deserializer.deserialize_tuple(layout.element_count(), visitor),
            // A sequence's exact length is known before its first element: that is the
            // whole of layout detection.
            None => deserializer.deserialize_seq(visitor),
        }
    }
}

struct PartsVisitor {
    expect: Option<Layout>,
}

impl<'de> Visitor<'de> for PartsVisitor {
    type Value = Parts;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.expect {
            Some(layout) => write!(
                f,
                "a {layout} metalayer of {} elements",
                layout.element_count()
            ),
            None => f.write_str("a metalayer of 5 (caterva-v0), 6 (b2nd) or 7 (b2nd-v1) elements"),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Parts, A::Error> {
        let layout = match self.expect {
            Some(layout) => layout,
            None => match seq.size_hint() {
                Some(n) => layout_of_count(n)?,
                None => {
                    return Err(de::Error::custom(
                        "a Meta needs a format that records sequence lengths; \
                         decode one of the typed metalayers instead",
                    ))
                }
            },
        };
        let missing = |index| de::Error::invalid_length(index, &self);
        seq.next_element_seed(Fixint::Version)?
            .ok_or_else(|| missing(0))?;
        let ndim = seq
            .next_element_seed(Fixint::Ndim)?
            .ok_or_else(|| missing(1))?;
        let ndim = usize::from(ndim);
        let shape = seq
            .next_element_seed(AxesSeed::new(ndim))?
            .ok_or_else(|| missing(2))?;
        let chunkshape = seq
            .next_element_seed(AxesSeed::new(ndim))?
            .ok_or_else(|| missing(3))?;
        let blockshape = seq
            .next_element_seed(AxesSeed::new(ndim))?
            .ok_or_else(|| missing(4))?;
        let dtype_format = match layout {
            Layout::B2ndV1 => seq
                .next_element_seed(Fixint::DtypeFormat)?
                .ok_or_else(|| missing(5))?,
            _ => 0,
        };
        let dtype = match layout {
            Layout::CatervaV0 => String::new(),
            _ => seq
                .next_element()?
                .ok_or_else(|| missing(layout.element_count() - 1))?,
        };
        let parts = Parts {
            layout,
            shape,
            chunkshape,
            blockshape,
            dtype_format,
            dtype,
        };
        Ok(parts)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parts, A::Error> {
        let mut layout: Option<Layout> = None;
        let mut ndim: Option<u8> = None;
        let mut shape: Option<Vec<i64>> = None;
        let mut chunkshape: Option<Vec<i32>> = None;
        let mut blockshape: Option<Vec<i32>> = None;
        let mut dtype_format: Option<u8> = None;
        let mut dtype: Option<String> = None;
        let mut seen_version = false;
        while let Some(key) = map.next_key::<Field>()? {
            fn set<T, E: de::Error>(
                slot: &mut Option<T>,
                name: &'static str,
                v: T,
            ) -> Result<(), E> {
                match slot.replace(v) {
                    Some(_) => Err(E::duplicate_field(name)),
                    None => Ok(()),
                }
            }
            match key {
                Field::Layout => {
                    let name: String = map.next_value()?;
                    let value = Layout::from_name(&name).ok_or_else(|| {
                        de::Error::unknown_variant(&name, &["caterva-v0", "b2nd", "b2nd-v1"])
                    })?;
                    set(&mut layout, "layout", value)?
                }
                Field::Version => {
                    if core::mem::replace(&mut seen_version, true) {
                        return Err(de::Error::duplicate_field("version"));
                    }
                    map.next_value_seed(Fixint::Version)?;
                }
                Field::Ndim => set(&mut ndim, "ndim", map.next_value_seed(Fixint::Ndim)?)?,
                Field::Shape => set(&mut shape, "shape", map.next_value()?)?,
                Field::Chunkshape => set(&mut chunkshape, "chunkshape", map.next_value()?)?,
                Field::Blockshape => set(&mut blockshape, "blockshape", map.next_value()?)?,
                Field::DtypeFormat => set(
                    &mut dtype_format,
                    "dtype_format",
                    map.next_value_seed(Fixint::DtypeFormat)?,
                )?,
                Field::Dtype => set(&mut dtype, "dtype", map.next_value()?)?,
            }
        }
        let shape = shape.ok_or_else(|| de::Error::missing_field("shape"))?;
        let chunkshape = chunkshape.ok_or_else(|| de::Error::missing_field("chunkshape"))?;
        let blockshape = blockshape.ok_or_else(|| de::Error::missing_field("blockshape"))?;
        // Without a "layout", the fields say which: what C writes today when there is a dtype.
        let inferred = match (&dtype, dtype_format) {
            (None, None) => Layout::CatervaV0,
            _ => Layout::B2ndV1,
        };
        let layout = match (layout, self.expect) {
            (Some(named), Some(expected)) if named != expected => {
                return Err(de::Error::invalid_value(
                    Unexpected::Str(named.name()),
                    &expected.name(),
                ))
            }
            (Some(named), _) => named,
            (None, Some(expected)) => expected,
            (None, None) => inferred,
        };
        if layout != Layout::B2ndV1 && dtype_format.is_some() {
            return Err(de::Error::custom(format_args!(
                "the {layout} layout has no dtype_format"
            )));
        }
        if layout == Layout::CatervaV0 && dtype.is_some() {
            return Err(de::Error::custom("the caterva-v0 layout has no dtype"));
        }
        let dtype = match (layout, dtype) {
            (Layout::CatervaV0, _) => String::new(),
            (_, Some(dtype)) => dtype,
            (_, None) => return Err(de::Error::missing_field("dtype")),
        };
        let parts = Parts {
            layout,
            shape,
            chunkshape,
            blockshape,
            dtype_format: dtype_format.unwrap_or(0),
            dtype,
        };
        if let Some(problem) = parts.as_ref().encode_problem() {
            return Err(de::Error::custom(problem));
        }
        if let Some(ndim) = ndim {
            if usize::from(ndim) != parts.shape.len() {
                return Err(de::Error::custom(format_args!(
                    "ndim is {ndim} but shape has {} entries",
                    parts.shape.len()
                )));
            }
        }
        Ok(parts)
    }
}

impl Parts {
    pub fn as_ref(&self) -> PartsRef<'_> {
        PartsRef {
            layout: self.layout,
            shape: &self.shape,
            chunkshape: &self.chunkshape,
            blockshape: &self.blockshape,
            dtype_format: self.dtype_format,
            dtype: &self.dtype,
        }
    }
}

/// A key of the human-readable form.
enum Field {
    Layout,
    Version,
    Ndim,
    Shape,
    Chunkshape,
    Blockshape,
    DtypeFormat,
    Dtype,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;

        impl Visitor<'_> for FieldVisitor {
            type Value = Field;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a metalayer field name")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Field, E> {
                Ok(match key {
                    "layout" => Field::Layout,
                    "version" => Field::Version,
                    "ndim" => Field::Ndim,
                    "shape" => Field::Shape,
                    "chunkshape" => Field::Chunkshape,
                    "blockshape" => Field::Blockshape,
                    "dtype_format" => Field::DtypeFormat,
                    "dtype" => Field::Dtype,
                    other => return Err(E::unknown_field(other, FIELDS)),
                })
            }
        }

        deserializer.deserialize_identifier(FieldVisitor)
    }
}

/// A `u8` element, read with the check of its place.
#[derive(Clone, Copy)]
enum Fixint {
    Version,
    Ndim,
    DtypeFormat,
}

impl<'de> DeserializeSeed<'de> for Fixint {
    type Value = u8;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u8, D::Error> {
        let v = u8::deserialize(deserializer)?;
        match self {
            Fixint::Version => check_version(v),
            Fixint::Ndim => check_ndim(v),
            Fixint::DtypeFormat => check_dtype_format(v),
        }
    }
}

// The checks of single elements, shared by the serde impls and `MetaRef`, so that
// both paths refuse the same bytes with the same error.

const ANY_LAYOUT: &str = "a metalayer of 5 (caterva-v0), 6 (b2nd) or 7 (b2nd-v1) elements";

/// The layout with `count` top-level elements.
pub(crate) fn layout_of_count<E: de::Error>(count: usize) -> Result<Layout, E> {
    Layout::from_element_count(count).ok_or_else(|| E::invalid_length(count, &ANY_LAYOUT))
}

/// The version must be [`VERSION`].
pub(crate) fn check_version<E: de::Error>(v: u8) -> Result<u8, E> {
    if v != VERSION {
        return Err(E::invalid_value(
            Unexpected::Unsigned(v.into()),
            &"metalayer version 0, the only one defined",
        ));
    }
    Ok(v)
}

/// ndim is at most [`MAX_DIM`].
pub(crate) fn check_ndim<E: de::Error>(v: u8) -> Result<u8, E> {
    if usize::from(v) > MAX_DIM {
        return Err(E::invalid_value(
            Unexpected::Unsigned(v.into()),
            &"at most 16 dimensions (C-Blosc2's B2ND_MAX_DIM)",
        ));
    }
    Ok(v)
}

/// dtype_format is at most [`MAX_DTYPE_FORMAT`] (a positive fixint always is; other
/// serde formats can hold more).
pub(crate) fn check_dtype_format<E: de::Error>(v: u8) -> Result<u8, E> {
    if v > MAX_DTYPE_FORMAT {
        return Err(E::invalid_value(
            Unexpected::Unsigned(v.into()),
            &"a dtype_format of at most 127",
        ));
    }
    Ok(v)
}

/// Exactly `ndim` entries of `T`, one per axis.
struct AxesSeed<T> {
    ndim: usize,
    entry: PhantomData<T>,
}

impl<T> AxesSeed<T> {
    fn new(ndim: usize) -> Self {
        AxesSeed {
            ndim,
            entry: PhantomData,
        }
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for AxesSeed<T> {
    type Value = Vec<T>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_tuple(self.ndim, self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for AxesSeed<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} entries, one per axis", self.ndim)
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // ndim <= 16 was checked when it was read: a bounded allocation.
        let mut out = Vec::with_capacity(self.ndim);
        for i in 0..self.ndim {
            match seq.next_element()? {
                Some(v) => out.push(v),
                None => return Err(de::Error::invalid_length(i, &self)),
            }
        }
        Ok(out)
    }
}
