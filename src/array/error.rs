//! [`ArrayError`]: why an array's values cannot be read, and where (the byte offset in
//! the frame or in the selection's text, or the axis).

use std::io;
use std::string::String;

use super::write::DefaultsError;
use crate::chunk::CompressError;
use crate::container::ContainerError;
use crate::dtype::DtypeError;
use crate::frame::FrameError;
use crate::located::{Class, Kind, Located};
use crate::meta::validate::Invalid;

/// An error reading an array's values: what went wrong ([`kind`](Located::kind)), at
/// which byte when it is at one ([`offset`](Located::offset): of the frame for its
/// bytes, of the text for a selection that does not parse), and the file; the crate's
/// one shape of error ([`Located`]). Displayed as `"[path: ]message[ at byte N]"`.
///
/// ```
/// use b2nd_meta::array::{ArrayErrorKind, Selection};
///
/// let err = Selection::parse("2:8, ::x").unwrap_err();
/// assert_eq!(err.offset(), Some(7));
/// assert_eq!(err.to_string(), "expected an integer, found 'x' at byte 7");
/// ```
pub type ArrayError = Located<ArrayErrorKind>;

/// What went wrong; see [`ArrayError`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArrayErrorKind {
    /// Not an array: a frame python-blosc2 opens as another kind (an SChunk without an
    /// array metalayer, a LazyExpr, ...), or a store's group.
    #[error("expected an NDArray, found {kind}")]
    NotAnArray {
        /// What was found.
        kind: String,
    },
    /// The array metadata is one C-Blosc2 refuses to read data with.
    #[error("the array metadata: {0}")]
    Metadata(Invalid),
    /// The dtype string does not parse.
    #[error("the array's dtype: {0}")]
    Dtype(#[source] DtypeError),
    /// The frame, its chunk index or a chunk does not read (the frame error's offset and
    /// file are the error's).
    #[error("{}", .0.kind())]
    Frame(#[source] FrameError),
    /// The store or bundle, or the node in it, does not read.
    #[error("{}", .0.kind())]
    Container(#[source] ContainerError),
    /// The array metadata and the frame disagree, or describe chunks C-Blosc2 cannot hold.
    #[error("{reason}")]
    Layout {
        /// What does not hold.
        reason: String,
    },
    /// The selection's text is not python's basic indexing (the offset is in the text).
    #[error("expected {expected}, found {found}")]
    Syntax {
        /// What was expected there.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// The selection's text is numpy indexing beyond basic indexing (lists, booleans),
    /// which this crate does not read (the offset is in the text).
    #[error("{what} are not supported: only ints, slices, ..., None")]
    UnsupportedIndex {
        /// What was given, in numpy's words (`lists (numpy's fancy indexing)`).
        what: &'static str,
    },
    /// The selection does not fit the array's shape (numpy's `IndexError` and friends,
    /// in numpy's words, naming the axis when one is concerned).
    #[error("{reason}")]
    Selection {
        /// The array axis concerned, when one is.
        axis: Option<usize>,
        /// numpy's words for it.
        reason: String,
    },
    /// A typed read asked for a Rust type the dtype is not.
    #[error("expected a dtype {requested} can hold, found {dtype}")]
    TypeMismatch {
        /// The Rust type asked for.
        requested: &'static str,
        /// The array's dtype.
        dtype: String,
    },
    /// The caller's buffer does not have the selection's length.
    #[error("expected a buffer of the selection's length {expected}, found {found}")]
    BufferLength {
        /// The selection's length (bytes for a raw read, elements for a typed one).
        expected: u64,
        /// The buffer's.
        found: u64,
    },
    /// The selection is larger than this machine can address.
    #[error("the selection holds {nbytes} bytes, more than this machine addresses")]
    TooLarge {
        /// Its size in bytes.
        nbytes: u128,
    },
    /// A filter pipeline whose chunks would not read back exactly in C-Blosc2 3.3.5 or
    /// python-blosc2 4.14.1 (see `NewArray::filters`).
    #[error("the filter pipeline {pipeline}: {reason}")]
    Pipeline {
        /// The pipeline, slot 0 first (`[delta, delta]`).
        pipeline: String,
        /// Why it is refused.
        reason: String,
    },
    /// A parameter of a new array that python-blosc2 or C-Blosc2 refuses, or that this
    /// crate does not write.
    #[error("{what}: expected {expected}, found {found}")]
    Unwritable {
        /// What it is.
        what: &'static str,
        /// What is expected.
        expected: &'static str,
        /// What was given.
        found: String,
    },
    /// Chunk or block shapes python-blosc2 refuses (its `ValueError`).
    #[error("{0}")]
    Partition(#[source] DefaultsError),
    /// Compression parameters C-Blosc2 refuses, or a codec or filter this crate does not
    /// write.
    #[error("{0}")]
    Compress(#[source] CompressError),
    /// A `.npy` file's header that numpy would not read, or an array numpy pickles.
    #[error("expected {expected}, found {found}")]
    Npy {
        /// What numpy expects there.
        expected: String,
        /// What was found.
        found: String,
    },
    /// The data given for a new array is not its length (in bytes).
    #[error("expected {expected} bytes of the array's elements in C order, found {found}")]
    DataLength {
        /// The array's bytes.
        expected: u128,
        /// The bytes given (so far, when too many).
        found: u128,
    },
    /// Reading or writing a file failed.
    #[error("{0}")]
    Io(#[source] io::Error),
}

impl Kind for ArrayErrorKind {
    fn class(&self) -> Class {
        use ArrayErrorKind::*;
        match self {
            Frame(e) => e.classify(),
            Container(e) => e.classify(),
            Dtype(e) => e.classify(),
            NotAnArray { .. } => Class::NotBlosc2,
            Metadata(_) | Layout { .. } => Class::Invalid,
            Syntax { .. } => Class::Syntax,
            UnsupportedIndex { .. } => Class::Unsupported,
            Selection { .. } | TypeMismatch { .. } | BufferLength { .. } => Class::Refused,
            TooLarge { .. } => Class::TooLarge,
            Unwritable { .. }
            | Pipeline { .. }
            | Partition(_)
            | Compress(_)
            | DataLength { .. } => Class::Refused,
            Npy { .. } => Class::Syntax,
            Io(_) => Class::Io,
        }
    }

    fn note(&self, offset: Option<u64>) -> Option<&'static str> {
        match self {
            ArrayErrorKind::Frame(e) => e.kind().note(offset),
            ArrayErrorKind::Container(e) => e.kind().note(offset),
            _ => None,
        }
    }
}

impl ArrayError {
    /// A problem with the array metadata or the frame's layout.
    pub(crate) fn layout(reason: String) -> Self {
        ArrayError::new(ArrayErrorKind::Layout { reason })
    }

    /// A selection that does not fit the shape, at `axis` when one is concerned.
    pub(crate) fn selection(axis: Option<usize>, reason: String) -> Self {
        ArrayError::new(ArrayErrorKind::Selection { axis, reason })
    }

    /// The array axis the error concerns, when one is.
    ///
    /// ```
    /// use b2nd_meta::array::ArrayError;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let err = array.read_bytes(&"0, 11".parse()?).unwrap_err();
    /// assert_eq!(err.axis(), Some(1));
    /// assert_eq!(err.to_string(), "index 11 is out of bounds for axis 1 with size 11");
    /// # Ok::<(), ArrayError>(())
    /// ```
    pub fn axis(&self) -> Option<usize> {
        match self.kind() {
            ArrayErrorKind::Selection { axis, .. } => *axis,
            _ => None,
        }
    }
}

/// A frame's or a store's error inside: its offset and its file are the array error's.
macro_rules! lifted {
    ($($ty:ty => $variant:ident,)*) => {$(
        impl From<$ty> for ArrayError {
            fn from(e: $ty) -> Self {
                let (offset, path) = (e.offset(), e.path().map(|p| p.to_path_buf()));
                let out = ArrayError::new(ArrayErrorKind::$variant(e)).moved_to(offset);
                match path {
                    Some(path) => out.in_file(&path),
                    None => out,
                }
            }
        }
    )*};
}

lifted! {
    FrameError => Frame,
    ContainerError => Container,
}

impl From<CompressError> for ArrayError {
    fn from(e: CompressError) -> Self {
        ArrayError::new(ArrayErrorKind::Compress(e))
    }
}

impl From<io::Error> for ArrayError {
    fn from(e: io::Error) -> Self {
        ArrayError::new(ArrayErrorKind::Io(e))
    }
}
