//! [`AnyError`]: every error of the crate in one type, so that `?` works from any of
//! them in one function (as serde_json's one `Error`), with each error's offset and
//! kind kept.

use core::fmt;

pub use crate::meta::error::{Error, ErrorKind, Expected, Found, Result};

use crate::chunk::ChunkError;
#[cfg(feature = "std")]
use crate::container::ContainerError;
use crate::dtype::DtypeError;
#[cfg(feature = "std")]
use crate::frame::FrameError;
#[cfg(feature = "cli")]
use crate::hex::HexError;
use crate::meta::validate::Invalid;

/// Any error this crate returns, for a function that calls several of its parts.
///
/// Each variant holds the crate's error unchanged: match on it to reach its `kind()`.
/// [`AnyError::offset`] is the error's own offset (into the metalayer, the frame, the
/// chunk or the dtype string, as each error type documents); the message is the
/// error's own.
///
/// ```
/// use b2nd_meta::{AnyError, Meta};
///
/// fn shape_of(path: &str) -> Result<Vec<i64>, AnyError> {
///     let header = b2nd_meta::frame::open(path)?.header; // a FrameError
///     let layer = header.array_metalayer().unwrap();
///     let meta: Meta = b2nd_meta::from_slice(&layer.content)?; // a codec Error
///     b2nd_meta::dtype::Dtype::parse(meta.dtype().unwrap_or("|u1"))?; // a DtypeError
///     Ok(meta.shape().to_vec())
/// }
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/ndim2_i4.b2nd");
/// assert_eq!(shape_of(path)?, [10, 7]);
///
/// let err = shape_of("/no/such/file.b2nd").unwrap_err();
/// assert!(matches!(err, AnyError::Frame(_)));
/// assert_eq!(err.offset(), None);
/// # Ok::<(), AnyError>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum AnyError {
    /// A metalayer that does not encode or decode ([`Error`]).
    Meta(Error),
    /// A dtype string that does not parse ([`DtypeError`]).
    Dtype(DtypeError),
    /// Array metadata C-Blosc2 would refuse ([`Invalid`]).
    Invalid(Invalid),
    /// A Blosc2 chunk that does not decode ([`ChunkError`]).
    Chunk(ChunkError),
    /// Text that is not hex ([`HexError`]; with the `cli` feature).
    #[cfg(feature = "cli")]
    Hex(HexError),
    /// A frame that cannot be read or rewritten ([`FrameError`]).
    #[cfg(feature = "std")]
    Frame(FrameError),
    /// A store, a bundle or one of its nodes that cannot be read ([`ContainerError`]).
    #[cfg(feature = "std")]
    Container(ContainerError),
    /// An I/O error outside this crate's calls (so that `?` works on `std::fs` too).
    #[cfg(feature = "std")]
    Io(std::io::Error),
}

impl AnyError {
    /// The byte offset the inner error gives, in its own input (see each error type).
    ///
    /// ```
    /// let err: b2nd_meta::AnyError = b2nd_meta::dtype::Dtype::parse("<i3").unwrap_err().into();
    /// assert_eq!(err.offset(), Some(2));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        match self {
            AnyError::Meta(e) => e.offset(),
            AnyError::Dtype(e) => e.offset(),
            AnyError::Invalid(_) => None,
            AnyError::Chunk(e) => e.offset(),
            #[cfg(feature = "cli")]
            AnyError::Hex(e) => Some(e.offset() as u64),
            #[cfg(feature = "std")]
            AnyError::Frame(e) => e.offset(),
            #[cfg(feature = "std")]
            AnyError::Container(e) => e.offset(),
            #[cfg(feature = "std")]
            AnyError::Io(_) => None,
        }
    }
}

impl fmt::Display for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyError::Meta(e) => fmt::Display::fmt(e, f),
            AnyError::Dtype(e) => fmt::Display::fmt(e, f),
            AnyError::Invalid(e) => fmt::Display::fmt(e, f),
            AnyError::Chunk(e) => fmt::Display::fmt(e, f),
            #[cfg(feature = "cli")]
            AnyError::Hex(e) => fmt::Display::fmt(e, f),
            #[cfg(feature = "std")]
            AnyError::Frame(e) => fmt::Display::fmt(e, f),
            #[cfg(feature = "std")]
            AnyError::Container(e) => fmt::Display::fmt(e, f),
            #[cfg(feature = "std")]
            AnyError::Io(e) => fmt::Display::fmt(e, f),
        }
    }
}

// The message is the inner error's own, so its cause is the inner error's cause.
impl core::error::Error for AnyError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            AnyError::Meta(e) => e.source(),
            AnyError::Dtype(e) => e.source(),
            AnyError::Invalid(e) => e.source(),
            AnyError::Chunk(e) => e.source(),
            #[cfg(feature = "cli")]
            AnyError::Hex(e) => e.source(),
            #[cfg(feature = "std")]
            AnyError::Frame(e) => e.source(),
            #[cfg(feature = "std")]
            AnyError::Container(e) => e.source(),
            #[cfg(feature = "std")]
            AnyError::Io(e) => e.source(),
        }
    }
}

macro_rules! from {
    ($($(#[$cfg:meta])* $variant:ident($ty:ty),)*) => {$(
        $(#[$cfg])*
        impl From<$ty> for AnyError {
            fn from(e: $ty) -> Self {
                AnyError::$variant(e)
            }
        }
    )*};
}

from! {
    Meta(Error),
    Dtype(DtypeError),
    Invalid(Invalid),
    Chunk(ChunkError),
    #[cfg(feature = "cli")]
    Hex(HexError),
    #[cfg(feature = "std")]
    Frame(FrameError),
    #[cfg(feature = "std")]
    Container(ContainerError),
    #[cfg(feature = "std")]
    Io(std::io::Error),
}
