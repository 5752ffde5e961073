//! The metalayer types: one per layout ([`MetaV0Caterva`], [`MetaB2nd`],
//! [`MetaB2ndV1`], in `layouts.rs`), and [`Meta`], any of the three, recognised from
//! the data alone.

use alloc::vec::Vec;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::dtype::{Dtype, DtypeError};
use crate::meta::dims::Dims;
use crate::meta::dtype_format;
use crate::meta::encode;
use crate::meta::error::Result;
use crate::meta::layout::{Layout, Parts, PartsRef};
use crate::meta::serde_impls::{deserialize_parts, serialize_parts};
use crate::meta::validate::{self, Invalid};
use crate::meta::view::{check_fast, Checked, MetaRef, Owned};

use crate::meta::structs::{MetaB2nd, MetaB2ndV1, MetaV0Caterva};

/// A metalayer of any layout, told apart without a tag.
///
/// In the metalayer format the top-level array's length (its header byte, `0x95`,
/// `0x96` or `0x97`) is known before any element is read, and it alone decides the
/// layout; every element is then read as strictly as by the typed structs. Bytes that
/// match no layout get an error naming the offset and what was expected.
///
/// In human-readable formats (JSON) a `Meta` is an object whose `"layout"` field names
/// the layout (`"caterva-v0"`, `"b2nd"`, `"b2nd-v1"`); without it, an object with a
/// dtype is read as b2nd v1 and one without as caterva v0.
///
/// ```
/// use b2nd_meta::{Layout, Meta};
///
/// // shape (), dtype "<i4": a 0-dimensional array, as C-Blosc2 writes it.
/// let bytes = [0x97, 0x00, 0x00, 0x90, 0x90, 0x90, 0x00, 0xdb, 0, 0, 0, 3, b'<', b'i', b'4'];
/// let meta: Meta = b2nd_meta::from_slice(&bytes).unwrap();
/// assert_eq!(meta.layout(), Layout::B2ndV1);
/// assert_eq!(meta.ndim(), 0);
/// assert_eq!(meta.dtype(), Some("<i4"));
/// assert_eq!(b2nd_meta::to_vec(&meta).unwrap(), bytes);
///
/// let json = serde_json::to_string(&meta).unwrap();
/// assert_eq!(
///     json,
///     r#"{"layout":"b2nd-v1","version":0,"ndim":0,"shape":[],"chunkshape":[],"blockshape":[],"dtype_format":0,"dtype":"<i4"}"#
/// );
/// assert_eq!(serde_json::from_str::<Meta>(&json).unwrap(), meta);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Meta {
    /// The `caterva` layout (5 elements).
    V0Caterva(MetaV0Caterva),
    /// The draft `b2nd` layout (6 elements).
    B2nd(MetaB2nd),
    /// The `b2nd` layout C-Blosc2 writes (7 elements).
    B2ndV1(MetaB2ndV1),
}

impl Meta {
    /// Which layout this is.
    pub fn layout(&self) -> Layout {
        match self {
            Meta::V0Caterva(_) => Layout::V0Caterva,
            Meta::B2nd(_) => Layout::B2nd,
            Meta::B2ndV1(_) => Layout::B2ndV1,
        }
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape().len()
    }

    /// Length of each axis, as stored (int64; [`Meta::shapes`] gives the three shapes as
    /// `u64`, checked, for index arithmetic).
    pub fn shape(&self) -> &[i64] {
        match self {
            Meta::V0Caterva(m) => &m.shape,
            Meta::B2nd(m) => &m.shape,
            Meta::B2ndV1(m) => &m.shape,
        }
    }

    /// Chunk length along each axis, as stored (int32; see [`Meta::shapes`]).
    pub fn chunkshape(&self) -> &[i32] {
        match self {
            Meta::V0Caterva(m) => &m.chunkshape,
            Meta::B2nd(m) => &m.chunkshape,
            Meta::B2ndV1(m) => &m.chunkshape,
        }
    }

    /// Block length along each axis, as stored (int32; see [`Meta::shapes`]).
    pub fn blockshape(&self) -> &[i32] {
        match self {
            Meta::V0Caterva(m) => &m.blockshape,
            Meta::B2nd(m) => &m.blockshape,
            Meta::B2ndV1(m) => &m.blockshape,
        }
    }

    /// The dtype string; `None` for caterva, which has none.
    pub fn dtype(&self) -> Option<&str> {
        match self {
            Meta::V0Caterva(_) => None,
            Meta::B2nd(m) => Some(&m.dtype),
            Meta::B2ndV1(m) => Some(&m.dtype),
        }
    }

    /// The dtype_format; `None` for the layouts without one.
    pub fn dtype_format(&self) -> Option<u8> {
        match self {
            Meta::B2ndV1(m) => Some(m.dtype_format),
            _ => None,
        }
    }

    /// Exact length in bytes of the encoded metalayer.
    pub fn encoded_len(&self) -> usize {
        match self {
            Meta::V0Caterva(m) => m.encoded_len(),
            Meta::B2nd(m) => m.encoded_len(),
            Meta::B2ndV1(m) => m.encoded_len(),
        }
    }

    /// Encodes into the start of `buf` without allocating; see
    /// [`MetaB2ndV1::encode_into`].
    ///
    /// ```
    /// use b2nd_meta::{Meta, MetaB2ndV1};
    ///
    /// let meta = Meta::from(MetaB2ndV1::new([3, 4], [2, 4], [1, 2], "<i4"));
    /// let mut buf = [0u8; 64];
    /// let n = meta.encode_into(&mut buf)?;
    /// assert_eq!(&buf[..n], b2nd_meta::to_vec(&meta)?);
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
        encode::encode_into(&self.parts(), buf)
    }

    /// Decodes `bytes` (exactly one metalayer, as [`crate::from_slice`]) into `self`,
    /// reusing its storage: when the layout is the same, only the entries and the dtype
    /// are written, with no copy of the whole value. For decoding many metalayers in a
    /// loop. On an error `self` is left as it was.
    ///
    /// ```
    /// use b2nd_meta::{Meta, MetaB2ndV1};
    ///
    /// let a = b2nd_meta::to_vec(&MetaB2ndV1::new([3, 4], [2, 4], [1, 2], "<i4"))?;
    /// let b = b2nd_meta::to_vec(&MetaB2ndV1::new([5], [5], [1], "<f8"))?;
    /// let mut meta: Meta = b2nd_meta::from_slice(&a)?;
    /// meta.decode_from(&b)?;
    /// assert_eq!(meta, b2nd_meta::from_slice::<Meta>(&b)?);
    /// assert!(meta.decode_from(&b[1..]).is_err());
    /// assert_eq!(meta, b2nd_meta::from_slice::<Meta>(&b)?); // unchanged
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn decode_from(&mut self, bytes: &[u8]) -> Result<()> {
        let Some((checked, [])) = check_fast(bytes, None) else {
            // Not exactly one metalayer: the ordinary way names the error (or, for a
            // metalayer with bytes after it, decodes it to refuse them).
            *self = crate::meta::de::from_slice(bytes)?;
            return Ok(());
        };
        if self.layout() != checked.layout() {
            *self = Meta::from_checked(&checked);
            return Ok(());
        }
        match self {
            Meta::V0Caterva(_) => {}
            Meta::B2nd(m) => m.dtype = checked.owned_dtype(),
            Meta::B2ndV1(m) => {
                m.dtype_format = checked.raw_dtype_format();
                m.dtype = checked.owned_dtype();
            }
        }
        checked.fill_shapes(self.shapes_mut());
        Ok(())
    }

    /// The encoded metalayer in a vector of exactly its length, written directly; see
    /// [`MetaB2ndV1::encode_to_vec`].
    ///
    /// ```
    /// use b2nd_meta::{Meta, MetaB2ndV1};
    ///
    /// let meta = Meta::from(MetaB2ndV1::new([3, 4], [2, 4], [1, 2], "<i4"));
    /// assert_eq!(meta.encode_to_vec()?, b2nd_meta::to_vec(&meta)?);
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn encode_to_vec(&self) -> Result<Vec<u8>> {
        encode::encode_to_vec(&self.parts())
    }

    /// Checks C-Blosc2's rules; see [`MetaB2ndV1::validate`].
    ///
    /// ```
    /// use b2nd_meta::{validate::Problem, Meta, MetaB2ndV1};
    ///
    /// // c-blosc2 #740: a zero block in a non-empty chunk.
    /// let meta = Meta::from(MetaB2ndV1::new([10], [5], [0], "<i4"));
    /// let err = meta.validate().unwrap_err();
    /// assert_eq!(err.problems(), [Problem::ZeroBlock { axis: 0 }]);
    /// ```
    pub fn validate(&self) -> Result<(), Invalid> {
        match self {
            Meta::V0Caterva(m) => m.validate(),
            Meta::B2nd(m) => m.validate(),
            Meta::B2ndV1(m) => m.validate(),
        }
    }

    /// Checks C-Blosc2's rules with a frame's typesize; see
    /// [`MetaB2ndV1::validate_with_typesize`].
    pub fn validate_with_typesize(&self, typesize: u64) -> Result<(), Invalid> {
        match self {
            Meta::V0Caterva(m) => m.validate_with_typesize(typesize),
            Meta::B2nd(m) => m.validate_with_typesize(typesize),
            Meta::B2ndV1(m) => m.validate_with_typesize(typesize),
        }
    }

    /// [`validate_with_typesize`](Self::validate_with_typesize) with the dtype already
    /// parsed (`itemsize`: its itemsize, when it parses as NumPy's), so that a caller
    /// that needs the dtype too parses it once (the report).
    #[cfg(feature = "std")]
    pub(crate) fn validate_with_itemsize(
        &self,
        typesize: u64,
        itemsize: Option<u64>,
    ) -> Result<(), Invalid> {
        validate::check_with_itemsize(
            self.shape(),
            self.chunkshape(),
            self.blockshape(),
            itemsize,
            Some(typesize),
        )
    }

    /// python-blosc2's stricter rule; see [`crate::meta::validate::check_blocks_within_chunks`].
    pub fn check_blocks_within_chunks(&self) -> Result<(), Invalid> {
        validate::check_blocks_within_chunks(self.chunkshape(), self.blockshape())
    }

    /// The dtype parsed as NumPy's (dtype_format 0, or the draft layout's NumPy names);
    /// `None` for caterva (which has no dtype) and for other dtype formats.
    ///
    /// ```
    /// use b2nd_meta::{Meta, MetaB2ndV1};
    ///
    /// let meta = Meta::from(MetaB2ndV1::new([4], [2], [1], "<M8[ns]"));
    /// let dtype = meta.parsed_dtype().unwrap().unwrap();
    /// assert_eq!(dtype.itemsize(), 8);
    /// ```
    pub fn parsed_dtype(&self) -> Option<Result<Dtype, DtypeError>> {
        let parts = self.parts();
        let (format, dtype) = parts.dtype()?;
        dtype_format::parse(format, dtype)
    }

    /// The dtype to read the array with: the parsed dtype, or for a caterva metalayer
    /// (which has none) what python-blosc2 assumes, `|S<typesize>`. `None` when the
    /// dtype does not parse or has another format.
    ///
    /// ```
    /// use b2nd_meta::{Meta, MetaV0Caterva};
    ///
    /// let meta = Meta::from(MetaV0Caterva::default());
    /// assert_eq!(meta.effective_dtype(4).unwrap().to_string(), "|S4");
    /// ```
    pub fn effective_dtype(&self, typesize: u32) -> Option<Dtype> {
        match self {
            Meta::V0Caterva(_) => Some(Dtype::for_typesize(typesize)),
            _ => self.parsed_dtype()?.ok(),
        }
    }

    #[inline]
    pub(crate) fn parts(&self) -> PartsRef<'_> {
        match self {
            Meta::V0Caterva(m) => m.parts(),
            Meta::B2nd(m) => m.parts(),
            Meta::B2ndV1(m) => m.parts(),
        }
    }

    #[inline]
    pub(crate) fn from_parts(parts: Parts) -> Self {
        match parts.layout {
            Layout::V0Caterva => Meta::V0Caterva(MetaV0Caterva::from_parts(parts)),
            Layout::B2nd => Meta::B2nd(MetaB2nd::from_parts(parts)),
            Layout::B2ndV1 => Meta::B2ndV1(MetaB2ndV1::from_parts(parts)),
        }
    }
}

impl MetaRef<'_> {
    /// The owned metadata (allocating nothing for a dtype of up to 22 bytes).
    ///
    /// ```
    /// use b2nd_meta::{Meta, MetaRef};
    ///
    /// let bytes = [0x95, 0x00, 0x00, 0x90, 0x90, 0x90];
    /// let meta = MetaRef::parse(&bytes)?.to_meta();
    /// assert_eq!(meta, b2nd_meta::from_slice::<Meta>(&bytes)?);
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn to_meta(&self) -> Meta {
        Meta::from_checked(&self.checked())
    }
}

impl From<MetaV0Caterva> for Meta {
    fn from(m: MetaV0Caterva) -> Self {
        Meta::V0Caterva(m)
    }
}

impl From<MetaB2nd> for Meta {
    fn from(m: MetaB2nd) -> Self {
        Meta::B2nd(m)
    }
}

impl From<MetaB2ndV1> for Meta {
    fn from(m: MetaB2ndV1) -> Self {
        Meta::B2ndV1(m)
    }
}

impl Serialize for Meta {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A length-prefixed sequence, so that binary formats without tags can tell the
        // layouts apart on the way back.
        serialize_parts(&self.parts(), serializer, true)
    }
}

impl<'de> Deserialize<'de> for Meta {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_parts(deserializer)
    }
}

impl Owned for Meta {
    const LAYOUT: Option<Layout> = None;

    #[inline(always)]
    fn empty_from_checked(checked: &Checked<'_>) -> Self {
        match checked.layout() {
            Layout::V0Caterva => Meta::V0Caterva(MetaV0Caterva::empty_from_checked(checked)),
            Layout::B2nd => Meta::B2nd(MetaB2nd::empty_from_checked(checked)),
            Layout::B2ndV1 => Meta::B2ndV1(MetaB2ndV1::empty_from_checked(checked)),
        }
    }

    #[inline(always)]
    fn shapes_mut(&mut self) -> (&mut Dims<i64>, &mut Dims<i32>, &mut Dims<i32>) {
        match self {
            Meta::V0Caterva(m) => (&mut m.shape, &mut m.chunkshape, &mut m.blockshape),
            Meta::B2nd(m) => (&mut m.shape, &mut m.chunkshape, &mut m.blockshape),
            Meta::B2ndV1(m) => (&mut m.shape, &mut m.chunkshape, &mut m.blockshape),
        }
    }

    #[inline(always)]
    fn from_parts(parts: Parts) -> Self {
        Meta::from_parts(parts)
    }
}
