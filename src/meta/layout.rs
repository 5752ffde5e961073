//! The metalayer's layouts and geometry: where each element sits and how long the whole
//! is. The direct writer ([`encode`](super::encode)), the zero-copy reader
//! ([`view`](super::view)) and the serde layer all place bytes by this one [`Geometry`].
//!
//! Every layout starts with the same five elements; only the tail differs:
//!
//! | layout | header | elements |
//! |---|---|---|
//! | [`Layout::V0Caterva`] | `0x95` | version, ndim, shape, chunkshape, blockshape |
//! | [`Layout::B2nd`] | `0x96` | ... then dtype |
//! | [`Layout::B2ndV1`] | `0x97` | ... then dtype_format, dtype |

use alloc::string::String;
use core::fmt;

use serde::de::{self, Unexpected};

use crate::meta::dims::Dims;
use crate::meta::dtype_format::DTYPE_FORMAT_NUMPY;
use crate::meta::small_string::SmallString;

use crate::wire::marker::{FIXARRAY, PFIX_MAX};
use crate::wire::write::{INT32_LEN, INT64_LEN, LEN32_HEADER_LEN, MAX_ARRAY_LEN};

/// The metalayer version this crate reads and writes: the only one defined.
pub const VERSION: u8 = 0;

/// The most dimensions an array may have: C-Blosc2's `B2ND_MAX_DIM` (16 since 2.21.3).
pub const MAX_DIM: usize = MAX_ARRAY_LEN;

/// The largest `dtype_format` (a positive fixint).
pub const MAX_DTYPE_FORMAT: u8 = PFIX_MAX;

/// Which of the three metalayer layouts a value has.
///
/// ```
/// use b2nd_meta::Layout;
///
/// assert_eq!(Layout::B2ndV1.header(), 0x97);
/// assert_eq!(Layout::from_element_count(5), Some(Layout::V0Caterva));
/// assert_eq!(Layout::B2ndV1.encoded_len(3, "<f8".len()), 12 + 19 * 3 + 3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The `caterva` metalayer: version, ndim, shape, chunkshape, blockshape.
    V0Caterva,
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
            Layout::V0Caterva => 5,
            Layout::B2nd => 6,
            Layout::B2ndV1 => 7,
        }
    }

    /// The first byte of the metalayer: `0x90 +` [`element_count`](Self::element_count).
    pub const fn header(self) -> u8 {
        FIXARRAY + self.element_count() as u8
    }

    /// The layout with this many top-level elements.
    pub const fn from_element_count(count: usize) -> Option<Layout> {
        match count {
            5 => Some(Layout::V0Caterva),
            6 => Some(Layout::B2nd),
            7 => Some(Layout::B2ndV1),
            _ => None,
        }
    }

    /// The layout whose metalayers start with `header` (`0x95`, `0x96` or `0x97`).
    ///
    /// ```
    /// use b2nd_meta::Layout;
    ///
    /// assert_eq!(Layout::from_header(0x97), Some(Layout::B2ndV1));
    /// assert_eq!(Layout::from_header(0x98), None);
    /// ```
    #[inline]
    pub const fn from_header(header: u8) -> Option<Layout> {
        match header.checked_sub(FIXARRAY) {
            Some(count) => Layout::from_element_count(count as usize),
            None => None,
        }
    }

    /// The name used in JSON and by the command-line tool: `"caterva-v0"`, `"b2nd"` or
    /// `"b2nd-v1"`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::V0Caterva => "caterva-v0",
            Layout::B2nd => "b2nd",
            Layout::B2ndV1 => "b2nd-v1",
        }
    }

    /// The layout with this [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Layout> {
        [Layout::V0Caterva, Layout::B2nd, Layout::B2ndV1]
            .into_iter()
            .find(|layout| layout.name() == name)
    }

    /// Whether the layout has a dtype (the b2nd layouts).
    pub const fn has_dtype(self) -> bool {
        !matches!(self, Layout::V0Caterva)
    }

    /// Whether the layout has a dtype_format ([`Layout::B2ndV1`]).
    pub const fn has_dtype_format(self) -> bool {
        matches!(self, Layout::B2ndV1)
    }

    /// Exact encoded size in bytes of a metalayer with `ndim` axes and a dtype of
    /// `dtype_len` bytes (ignored for [`Layout::V0Caterva`]). Saturates at `usize::MAX`
    /// for sizes that could never be encoded (more than 16 axes cannot be anyway).
    ///
    /// Three header bytes, then per axis 9 bytes of shape and 5 + 5 of chunk and block
    /// shape, plus one header byte per shape array; b2nd adds a str32 (5 + `dtype_len`),
    /// b2nd v1 one more byte of dtype_format.
    pub const fn encoded_len(self, ndim: usize, dtype_len: usize) -> usize {
        if ndim > u8::MAX as usize {
            return usize::MAX;
        }
        Geometry::new(self, ndim as u8, dtype_len).len()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where each element of a metalayer sits, from its layout, ndim and dtype length: the
/// one description of the format's geometry.
///
/// ```text
/// 0: header  1: version  2: ndim  3: shape  (0x90+n, n x int64)
/// chunkshape (0x90+n, n x int32)  blockshape (0x90+n, n x int32)
/// [dtype_format (b2nd v1)]  [dtype (b2nd, b2nd v1): str32]
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub layout: Layout,
    /// A `u8`, so that no offset computed from it can overflow (the format's arrays hold
    /// at most 16 entries; the header byte could say 255 at most).
    pub ndim: u8,
    pub dtype_len: usize,
}

/// Offset of the shape array's header.
pub(crate) const SHAPE_AT: usize = 3;

impl Geometry {
    /// The geometry of a metalayer with these parameters.
    pub const fn new(layout: Layout, ndim: u8, dtype_len: usize) -> Self {
        Geometry {
            layout,
            ndim,
            dtype_len,
        }
    }

    /// Encoded length of an array header and `ndim` entries of `width` bytes each.
    const fn axes_len(&self, width: usize) -> usize {
        self.ndim as usize * width + 1
    }

    /// Offset of the shape array's header (its entries follow).
    #[inline]
    pub const fn shape_at(&self) -> usize {
        SHAPE_AT
    }

    /// Offset of the chunkshape array's header.
    #[inline]
    pub const fn chunkshape_at(&self) -> usize {
        SHAPE_AT + self.axes_len(INT64_LEN)
    }

    /// Offset of the blockshape array's header.
    #[inline]
    pub const fn blockshape_at(&self) -> usize {
        self.chunkshape_at() + self.axes_len(INT32_LEN)
    }

    /// Offset just after the three shape arrays: the dtype_format (b2nd v1), the dtype
    /// (b2nd) or the end (caterva).
    pub const fn shapes_end(&self) -> usize {
        self.blockshape_at() + self.axes_len(INT32_LEN)
    }

    /// Offset of the dtype's str32 marker (meaningful for the b2nd layouts).
    pub const fn dtype_at(&self) -> usize {
        let end = self.shapes_end();
        if self.layout.has_dtype_format() {
            end + 1
        } else {
            end
        }
    }

    /// Offset of the dtype's first byte (after the str32 header).
    pub const fn dtype_bytes_at(&self) -> usize {
        self.dtype_at() + LEN32_HEADER_LEN
    }

    /// The whole encoded length; saturates at `usize::MAX`.
    pub const fn len(&self) -> usize {
        if self.layout.has_dtype() {
            self.dtype_bytes_at().saturating_add(self.dtype_len)
        } else {
            self.shapes_end()
        }
    }
}

/// A borrowed view of any layout's elements: what the writers write.
#[derive(Clone, Copy)]
pub(crate) struct PartsRef<'a> {
    pub layout: Layout,
    pub shape: &'a [i64],
    pub chunkshape: &'a [i32],
    pub blockshape: &'a [i32],
    /// Written only by [`Layout::B2ndV1`].
    pub dtype_format: u8,
    /// Written only by the b2nd layouts; UTF-8 (the bytes of a `str`, kept as bytes
    /// so that the direct writer never checks them again).
    pub dtype: &'a [u8],
}

/// Any layout's elements, decoded.
pub(crate) struct Parts {
    pub layout: Layout,
    pub shape: Dims<i64>,
    pub chunkshape: Dims<i32>,
    pub blockshape: Dims<i32>,
    pub dtype_format: u8,
    pub dtype: SmallString,
}

impl<'a> PartsRef<'a> {
    /// The dtype as a `str` (its bytes always are UTF-8).
    #[inline]
    pub fn dtype_str(&self) -> &'a str {
        core::str::from_utf8(self.dtype).unwrap_or_default()
    }

    /// Where each element goes (the dtype's length counts only for the b2nd layouts).
    #[inline]
    pub fn geometry(&self) -> Geometry {
        let dtype_len = if self.layout.has_dtype() {
            self.dtype.len()
        } else {
            0
        };
        // Called on encodable parts: at most 16 axes (more would saturate the length).
        match u8::try_from(self.shape.len()) {
            Ok(ndim) => Geometry::new(self.layout, ndim, dtype_len),
            Err(_) => Geometry::new(self.layout, u8::MAX, usize::MAX),
        }
    }

    /// The dtype to judge, with its format; the draft layout uses NumPy's names.
    pub fn dtype(&self) -> Option<(u8, &str)> {
        match self.layout {
            Layout::V0Caterva => None,
            // The draft layout has no dtype_format: its dtypes are NumPy's.
            Layout::B2nd => Some((DTYPE_FORMAT_NUMPY, self.dtype_str())),
            Layout::B2ndV1 => Some((self.dtype_format, self.dtype_str())),
        }
    }

    /// Why these parts cannot be encoded, if they cannot (the same message from every
    /// writer: the direct one, serde's, and the human-readable reader).
    #[inline(always)]
    pub fn encode_problem(&self) -> Option<String> {
        let n = self.shape.len();
        let fits = n == self.chunkshape.len()
            && n == self.blockshape.len()
            && n <= MAX_DIM
            && (!self.layout.has_dtype_format() || self.dtype_format <= MAX_DTYPE_FORMAT)
            && (!self.layout.has_dtype() || i32::try_from(self.dtype.len()).is_ok());
        match fits {
            true => None,
            false => self.describe_encode_problem(),
        }
    }

    /// The message of [`encode_problem`](Self::encode_problem), out of the way.
    #[cold]
    #[inline(never)]
    fn describe_encode_problem(&self) -> Option<String> {
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
        if self.layout.has_dtype_format() && self.dtype_format > MAX_DTYPE_FORMAT {
            return Some(alloc::format!(
                "dtype_format is a positive fixint (0..=127); found {}",
                self.dtype_format
            ));
        }
        if self.layout.has_dtype() && i32::try_from(self.dtype.len()).is_err() {
            return Some(alloc::format!(
                "the dtype is {} bytes long; C-Blosc2 stores at most i32::MAX",
                self.dtype.len()
            ));
        }
        None
    }
}

impl Parts {
    /// Empty elements of `layout`, to be filled in place.
    #[inline]
    pub fn new(layout: Layout) -> Self {
        Parts {
            layout,
            shape: Dims::new(),
            chunkshape: Dims::new(),
            blockshape: Dims::new(),
            dtype_format: DTYPE_FORMAT_NUMPY,
            dtype: SmallString::new(),
        }
    }

    /// The elements, borrowed.
    pub fn as_ref(&self) -> PartsRef<'_> {
        PartsRef {
            layout: self.layout,
            shape: &self.shape,
            chunkshape: &self.chunkshape,
            blockshape: &self.blockshape,
            dtype_format: self.dtype_format,
            dtype: self.dtype.as_bytes(),
        }
    }
}

// The checks of single elements, shared by the serde impls and `MetaRef`, so that both
// refuse the same bytes with the same error.

const ANY_LAYOUT: &str = "a metalayer of 5 (caterva-v0), 6 (b2nd) or 7 (b2nd-v1) elements";

/// The layout with `count` top-level elements.
#[inline]
pub(crate) fn layout_of_count<E: de::Error>(count: usize) -> Result<Layout, E> {
    Layout::from_element_count(count).ok_or_else(|| E::invalid_length(count, &ANY_LAYOUT))
}

/// `v` when `ok`, else serde's `invalid_value` saying what is allowed.
#[inline]
fn allowed<E: de::Error>(v: u8, ok: bool, expected: &'static str) -> Result<u8, E> {
    match ok {
        true => Ok(v),
        false => Err(E::invalid_value(Unexpected::Unsigned(v.into()), &expected)),
    }
}

/// The version must be [`VERSION`].
#[inline]
pub(crate) fn check_version<E: de::Error>(v: u8) -> Result<u8, E> {
    allowed(v, v == VERSION, "metalayer version 0, the only one defined")
}

/// ndim is at most [`MAX_DIM`].
#[inline]
pub(crate) fn check_ndim<E: de::Error>(v: u8) -> Result<u8, E> {
    let expected = "at most 16 dimensions (C-Blosc2's B2ND_MAX_DIM)";
    allowed(v, usize::from(v) <= MAX_DIM, expected)
}

/// dtype_format is at most [`MAX_DTYPE_FORMAT`] (a positive fixint always is; other
/// serde formats can hold more).
#[inline]
pub(crate) fn check_dtype_format<E: de::Error>(v: u8) -> Result<u8, E> {
    allowed(v, v <= MAX_DTYPE_FORMAT, "a dtype_format of at most 127")
}
