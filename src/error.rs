//! The crate's errors in one place: [`AnyError`], every error of the crate in one type,
//! so that `?` works from any of them in one function (as serde_json's one `Error`),
//! with each error's offset and kind kept; [`Class`], what class of problem any of them
//! is; and the one shape they share, [`Located`] (a kind, the byte it is at, the file).
//!
//! ```
//! use b2nd_meta::error::{AnyError, Class};
//!
//! fn array_shape(path: &str) -> Result<Vec<i64>, AnyError> {
//!     let header = b2nd_meta::frame::open(path)?.header;
//!     Ok(header.array_meta()?.shape().to_vec())
//! }
//!
//! let err = array_shape(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap_err();
//! assert_eq!(err.classify(), Class::NotBlosc2);
//! // `main` returning `Result<(), AnyError>` prints the same one line.
//! assert_eq!(format!("{err:?}"), err.to_string());
//! let io: std::io::Error = err.into();
//! assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
//! ```

use core::fmt;

pub use crate::located::{Class, Kind, Located};
pub use crate::meta::error::{Error, ErrorKind, Expected, Found, Result};

#[cfg(feature = "std")]
use crate::array::ArrayError;
use crate::chunk::ChunkError;
#[cfg(feature = "std")]
use crate::container::ContainerError;
use crate::dtype::DtypeError;
#[cfg(feature = "std")]
use crate::frame::FrameError;
#[cfg(feature = "cli")]
use crate::hex::HexError;
use crate::meta::validate::Invalid;

/// What [`AnyError`] asks of an error it holds, besides its message: where it is, and
/// what class of problem it is.
trait Held: core::error::Error {
    fn at(&self) -> Option<u64>;
    fn class(&self) -> Class;
}

impl<K: Kind + core::error::Error> Held for Located<K> {
    fn at(&self) -> Option<u64> {
        self.offset()
    }

    fn class(&self) -> Class {
        self.classify()
    }
}

impl Held for Invalid {
    fn at(&self) -> Option<u64> {
        None
    }

    fn class(&self) -> Class {
        Class::Invalid
    }
}

#[cfg(feature = "cli")]
impl Held for HexError {
    fn at(&self) -> Option<u64> {
        Some(self.offset() as u64)
    }

    fn class(&self) -> Class {
        Class::Syntax
    }
}

#[cfg(feature = "std")]
impl Held for std::io::Error {
    fn at(&self) -> Option<u64> {
        None
    }

    fn class(&self) -> Class {
        Class::Io
    }
}

/// The errors [`AnyError`] holds, listed once: its variants, and a `From` for each.
macro_rules! any_error {
    ($($(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $variant:ident($ty:ty),)*) => {
        /// Any error this crate returns, for a function that calls several of its parts.
        ///
        /// Each variant holds the crate's error unchanged: match on it to reach its
        /// `kind()`. [`AnyError::offset`] is the error's own offset (into the metalayer,
        /// the frame, the chunk or the dtype string, as each error type documents); the
        /// message is the error's own, and so is its `Debug` (one line, as `main`
        /// returning `Result<(), AnyError>` prints it).
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
        #[non_exhaustive]
        pub enum AnyError {
            $($(#[doc = $doc])* $(#[cfg($cfg)])? $variant($ty),)*
        }

        impl AnyError {
            /// The error held.
            fn held(&self) -> &dyn Held {
                match self {
                    $($(#[cfg($cfg)])? AnyError::$variant(e) => e,)*
                }
            }
        }

        $(
            $(#[cfg($cfg)])?
            impl From<$ty> for AnyError {
                fn from(e: $ty) -> Self {
                    AnyError::$variant(e)
                }
            }
        )*
    };
}

any_error! {
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
    /// An array whose values cannot be read as asked ([`ArrayError`]).
    #[cfg(feature = "std")]
    Array(ArrayError),
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
        self.held().at()
    }

    /// What class of problem the inner error is.
    ///
    /// ```
    /// use b2nd_meta::error::{AnyError, Class};
    /// let err: AnyError = b2nd_meta::chunk::decode(&[5, 1], &b2nd_meta::chunk::DecodeBudget::default()).unwrap_err().into();
    /// assert_eq!(err.classify(), Class::Truncated);
    /// ```
    pub fn classify(&self) -> Class {
        self.held().class()
    }
}

impl fmt::Display for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.held(), f)
    }
}

/// The message, on one line: what `main` prints when it returns the error.
impl fmt::Debug for AnyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.held(), f)
    }
}

// The message is the inner error's own, so its cause is the inner error's cause.
impl core::error::Error for AnyError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        self.held().source()
    }
}

/// As an I/O error (as serde_json's errors convert): an I/O error itself, else one of
/// the kind its class says (`InvalidData` for what does not read, `UnexpectedEof` for
/// an input cut short, `NotFound`, `Unsupported`, `InvalidInput` for a refused request)
/// holding this error.
#[cfg(feature = "std")]
impl From<AnyError> for std::io::Error {
    fn from(e: AnyError) -> Self {
        use std::io::ErrorKind as Io;
        if let AnyError::Io(io) = e {
            return io;
        }
        let kind = match e.classify() {
            Class::Io => Io::Other,
            Class::Truncated => Io::UnexpectedEof,
            Class::NotFound => Io::NotFound,
            Class::Unsupported => Io::Unsupported,
            Class::Refused => Io::InvalidInput,
            Class::Conflict => Io::Other,
            _ => Io::InvalidData,
        };
        std::io::Error::new(kind, e)
    }
}
