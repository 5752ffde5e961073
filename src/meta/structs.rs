//! The three metalayer types, one per layout.
//!
//! Each keeps the values of its layout; `ndim` is the length of `shape`, and the version
//! is always [`crate::VERSION`] (the only one defined), so neither is stored.
//! Serialization checks what the format requires (one entry per axis in all three
//! shapes, at most 16 axes, a dtype_format of at most 127) and refuses anything else.

use alloc::vec::Vec;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::meta::dims::Dims;
use crate::meta::dtype_format::DTYPE_FORMAT_NUMPY;
use crate::meta::encode;
use crate::meta::error::Result;
use crate::meta::layout::{Layout, Parts, PartsRef};
use crate::meta::serde_impls::{deserialize_parts, serialize_parts};
use crate::meta::small_string::SmallString;
use crate::meta::validate::{self, Invalid};
use crate::meta::view::{Checked, Owned};

macro_rules! common_methods {
    ($layout:expr_2021) => {
        /// Number of dimensions: the length of `shape`.
        pub fn ndim(&self) -> usize {
            self.shape.len()
        }

        /// The layout of this type.
        pub const fn layout(&self) -> Layout {
            $layout
        }

        /// Exact length in bytes of the encoded metalayer.
        pub fn encoded_len(&self) -> usize {
            $layout.encoded_len(self.ndim(), self.dtype_len())
        }

        /// Encodes into the start of `buf` without allocating and returns the number of
        /// bytes written: the same bytes as [`crate::to_slice`], with a single length
        /// check up front (`buf` needs [`encoded_len`](Self::encoded_len) bytes).
        pub fn encode_into(&self, buf: &mut [u8]) -> Result<usize> {
            encode::encode_into(&self.parts(), buf)
        }

        /// The encoded metalayer in a vector of exactly its length: the same bytes as
        /// [`crate::to_vec`], written directly rather than through serde (the fastest
        /// way to encode this type; `to_vec` is generic over every `Serialize` type).
        pub fn encode_to_vec(&self) -> Result<Vec<u8>> {
            encode::encode_to_vec(&self.parts())
        }

        /// Checks C-Blosc2's rules (see [`crate::meta::validate::check`]); a block's bytes
        /// are judged with the dtype's itemsize when the dtype parses.
        pub fn validate(&self) -> Result<(), Invalid> {
            validate_parts(&self.parts(), None)
        }

        /// As [`validate`](Self::validate), with the typesize of the frame holding the
        /// array: a block's bytes are judged with it, and the dtype's itemsize (when
        /// the dtype parses) must equal it.
        pub fn validate_with_typesize(&self, typesize: u64) -> Result<(), Invalid> {
            validate_parts(&self.parts(), Some(typesize))
        }

        /// python-blosc2's stricter rule: no block longer than its chunk along any axis.
        pub fn check_blocks_within_chunks(&self) -> Result<(), Invalid> {
            validate::check_blocks_within_chunks(&self.chunkshape, &self.blockshape)
        }
    };
}

/// The `caterva` metalayer (layout [`Layout::V0Caterva`], header `0x95`):
/// version, ndim, shape, chunkshape, blockshape.
///
/// Written by the caterva library before its merge into C-Blosc2; C-Blosc2 still reads it.
///
/// ```
/// use b2nd_meta::MetaV0Caterva;
///
/// let meta = MetaV0Caterva { shape: [10].into(), chunkshape: [5].into(), blockshape: [2].into() };
/// let bytes = b2nd_meta::to_vec(&meta).unwrap();
/// assert_eq!(bytes[..3], [0x95, 0x00, 0x01]);
/// assert_eq!(bytes.len(), meta.encoded_len());
/// assert_eq!(b2nd_meta::from_slice::<MetaV0Caterva>(&bytes).unwrap(), meta);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MetaV0Caterva {
    /// Length of each axis (int64 each).
    pub shape: Dims<i64>,
    /// Chunk length along each axis (int32 each).
    pub chunkshape: Dims<i32>,
    /// Block length along each axis (int32 each).
    pub blockshape: Dims<i32>,
}

impl MetaV0Caterva {
    common_methods!(Layout::V0Caterva);

    fn dtype_len(&self) -> usize {
        0
    }

    #[inline]
    pub(crate) fn parts(&self) -> PartsRef<'_> {
        PartsRef {
            layout: Layout::V0Caterva,
            shape: &self.shape,
            chunkshape: &self.chunkshape,
            blockshape: &self.blockshape,
            dtype_format: DTYPE_FORMAT_NUMPY,
            dtype: b"",
        }
    }

    /// The values of `v` but its shapes, which are left empty.
    #[inline(always)]
    pub(crate) fn empty_from_checked(_: &Checked<'_>) -> Self {
        MetaV0Caterva {
            shape: Dims::new(),
            chunkshape: Dims::new(),
            blockshape: Dims::new(),
        }
    }

    #[inline]
    pub(crate) fn from_parts(p: Parts) -> Self {
        MetaV0Caterva {
            shape: p.shape,
            chunkshape: p.chunkshape,
            blockshape: p.blockshape,
        }
    }
}

/// The draft `b2nd` metalayer (layout [`Layout::B2nd`], header `0x96`):
/// version, ndim, shape, chunkshape, blockshape, dtype.
///
/// Described by one revision of the specification, with NumPy names such as `"int32"`
/// for the dtype. C-Blosc2 never wrote it, and its reader would take the dtype's `0xdb`
/// for a dtype_format: write [`MetaB2ndV1`] for anything C must read.
///
/// ```
/// use b2nd_meta::MetaB2nd;
///
/// let meta = MetaB2nd {
///     shape: [4].into(),
///     chunkshape: [2].into(),
///     blockshape: [1].into(),
///     dtype: "int32".into(),
/// };
/// let bytes = b2nd_meta::to_vec(&meta).unwrap();
/// assert_eq!(bytes[0], 0x96);
/// assert_eq!(bytes[bytes.len() - 10..], [0xdb, 0, 0, 0, 5, b'i', b'n', b't', b'3', b'2']);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MetaB2nd {
    /// Length of each axis (int64 each).
    pub shape: Dims<i64>,
    /// Chunk length along each axis (int32 each).
    pub chunkshape: Dims<i32>,
    /// Block length along each axis (int32 each).
    pub blockshape: Dims<i32>,
    /// The data type, as a string (str32).
    pub dtype: SmallString,
}

impl MetaB2nd {
    common_methods!(Layout::B2nd);

    fn dtype_len(&self) -> usize {
        self.dtype.len()
    }

    #[inline]
    pub(crate) fn parts(&self) -> PartsRef<'_> {
        PartsRef {
            layout: Layout::B2nd,
            shape: &self.shape,
            chunkshape: &self.chunkshape,
            blockshape: &self.blockshape,
            dtype_format: DTYPE_FORMAT_NUMPY,
            dtype: self.dtype.as_bytes(),
        }
    }

    /// The values of `v` but its shapes, which are left empty.
    #[inline(always)]
    pub(crate) fn empty_from_checked(v: &Checked<'_>) -> Self {
        MetaB2nd {
            shape: Dims::new(),
            chunkshape: Dims::new(),
            blockshape: Dims::new(),
            dtype: v.owned_dtype(),
        }
    }

    #[inline]
    pub(crate) fn from_parts(p: Parts) -> Self {
        MetaB2nd {
            shape: p.shape,
            chunkshape: p.chunkshape,
            blockshape: p.blockshape,
            dtype: p.dtype,
        }
    }
}

/// The `b2nd` metalayer as C-Blosc2 and python-blosc2 write it (layout
/// [`Layout::B2ndV1`], header `0x97`): version, ndim, shape, chunkshape, blockshape,
/// dtype_format, dtype.
///
/// ```
/// use b2nd_meta::MetaB2ndV1;
///
/// let meta = MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4");
/// let bytes = b2nd_meta::to_vec(&meta).unwrap();
/// assert_eq!(bytes.len(), 53); // 12 + 19 * ndim + dtype length
/// assert_eq!(bytes[..4], [0x97, 0x00, 0x02, 0x92]);
/// assert_eq!(b2nd_meta::from_slice::<MetaB2ndV1>(&bytes).unwrap(), meta);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MetaB2ndV1 {
    /// Length of each axis (int64 each).
    pub shape: Dims<i64>,
    /// Chunk length along each axis (int32 each).
    pub chunkshape: Dims<i32>,
    /// Block length along each axis (int32 each).
    pub blockshape: Dims<i32>,
    /// How to read `dtype`: 0 is the NumPy convention (`"<i4"`), the only one defined.
    /// A positive fixint: at most 127.
    pub dtype_format: u8,
    /// The data type, as a string (str32).
    pub dtype: SmallString,
}

impl MetaB2ndV1 {
    common_methods!(Layout::B2ndV1);

    /// A metalayer with `dtype_format` 0 (NumPy), the form C-Blosc2 writes; the shapes
    /// from anything a [`Dims`] converts from (arrays, slices, vectors).
    pub fn new(
        shape: impl Into<Dims<i64>>,
        chunkshape: impl Into<Dims<i32>>,
        blockshape: impl Into<Dims<i32>>,
        dtype: impl Into<SmallString>,
    ) -> Self {
        MetaB2ndV1 {
            shape: shape.into(),
            chunkshape: chunkshape.into(),
            blockshape: blockshape.into(),
            dtype_format: DTYPE_FORMAT_NUMPY,
            dtype: dtype.into(),
        }
    }

    fn dtype_len(&self) -> usize {
        self.dtype.len()
    }

    #[inline]
    pub(crate) fn parts(&self) -> PartsRef<'_> {
        PartsRef {
            layout: Layout::B2ndV1,
            shape: &self.shape,
            chunkshape: &self.chunkshape,
            blockshape: &self.blockshape,
            dtype_format: self.dtype_format,
            dtype: self.dtype.as_bytes(),
        }
    }

    /// The values of `v` but its shapes, which are left empty.
    #[inline(always)]
    pub(crate) fn empty_from_checked(v: &Checked<'_>) -> Self {
        MetaB2ndV1 {
            shape: Dims::new(),
            chunkshape: Dims::new(),
            blockshape: Dims::new(),
            dtype_format: v.raw_dtype_format(),
            dtype: v.owned_dtype(),
        }
    }

    #[inline]
    pub(crate) fn from_parts(p: Parts) -> Self {
        MetaB2ndV1 {
            shape: p.shape,
            chunkshape: p.chunkshape,
            blockshape: p.blockshape,
            dtype_format: p.dtype_format,
            dtype: p.dtype,
        }
    }
}

macro_rules! serde_impls {
    ($($ty:ident => $layout:expr_2021,)*) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_parts(&self.parts(), serializer, false)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            #[inline]
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserialize_parts(deserializer)
            }
        }

        impl Owned for $ty {
            const LAYOUT: Option<Layout> = Some($layout);

            #[inline(always)]
            fn empty_from_checked(checked: &Checked<'_>) -> Self {
                $ty::empty_from_checked(checked)
            }

            #[inline(always)]
            fn shapes_mut(&mut self) -> (&mut Dims<i64>, &mut Dims<i32>, &mut Dims<i32>) {
                (&mut self.shape, &mut self.chunkshape, &mut self.blockshape)
            }

            #[inline(always)]
            fn from_parts(parts: Parts) -> Self {
                $ty::from_parts(parts)
            }
        }
    )*};
}

serde_impls! {
    MetaV0Caterva => Layout::V0Caterva,
    MetaB2nd => Layout::B2nd,
    MetaB2ndV1 => Layout::B2ndV1,
}

/// C-Blosc2's rules, and the dtype against `typesize` when given.
fn validate_parts(parts: &PartsRef<'_>, typesize: Option<u64>) -> Result<(), Invalid> {
    validate::check_with_dtype(
        parts.shape,
        parts.chunkshape,
        parts.blockshape,
        parts.dtype(),
        typesize,
    )
}
