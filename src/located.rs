//! The crate's one shape of error: what went wrong (a kind, each module its own), where
//! (the byte offset in the input the error speaks of) and, when a file is involved,
//! which one. Every error displays the same way: `[path: ]message[ at byte N]`, and
//! says what class of problem it is ([`Class`]), so that callers branch on the class
//! rather than on each kind (as serde_json's `Error::classify`).

use alloc::boxed::Box;
use core::fmt;
#[cfg(feature = "std")]
use std::path::{Path, PathBuf};

/// What class of problem an error is, whatever its module: what a caller does about it
/// (tell the user the file is not readable, that a feature is missing, that a request
/// was refused) does not depend on which kind it is.
///
/// ```
/// use b2nd_meta::error::Class;
///
/// let err = b2nd_meta::frame::parse_header(b"not a frame").unwrap_err();
/// assert_eq!(err.classify(), Class::NotBlosc2);
/// let err = b2nd_meta::dtype::Dtype::parse("intp").unwrap_err();
/// assert_eq!(err.classify(), Class::Unsupported);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Class {
    /// The file system or a reader failed.
    Io,
    /// Not what was asked for: not a Blosc2 frame (or store), not a regular file.
    NotBlosc2,
    /// The bytes break the structure of the format where it is read (a frame header's
    /// or trailer's fields, a metalayer's msgpack, a chunk header, a dtype string): the
    /// input cannot be read at all.
    Syntax,
    /// A part of a readable input does not decode (a metalayer, a chunk, a vlmeta value,
    /// an entry of a store): its source says why.
    Corrupt,
    /// Well formed, but a version or a feature this crate does not read.
    Unsupported,
    /// Well formed, but values the format does not allow (C-Blosc2 refuses them).
    Invalid,
    /// The input ends before what it declares, or a file is shorter than its frame.
    Truncated,
    /// Beyond a limit or a budget (a declared size, a nesting depth, a buffer).
    TooLarge,
    /// What was asked for is not there (a metalayer, a vlmetalayer, a node).
    NotFound,
    /// A change that is refused as asked (a shape, a vlmeta, a content of another
    /// length, a value the format cannot encode): nothing was written.
    Refused,
    /// The input changed while it was being read and written (another writer).
    Conflict,
}

/// What a kind of error says of itself, besides its message: its [`Class`], and a note
/// that depends on where it happened (the metalayer format names the type that reads a
/// metalayer of another layout).
///
/// ```
/// use b2nd_meta::error::{Class, Kind};
/// use b2nd_meta::frame::FrameErrorKind;
///
/// let kind = FrameErrorKind::UnknownMetalayer { name: "b2nd".into() };
/// assert_eq!(kind.class(), Class::NotFound);
/// ```
pub trait Kind: fmt::Display + fmt::Debug {
    /// The class of this kind of problem.
    fn class(&self) -> Class;

    /// A note after the message, for an error at `offset`.
    fn note(&self, _offset: Option<u64>) -> Option<&'static str> {
        None
    }
}

/// An error of kind `K`, with the byte offset it is at and the file it concerns: the
/// one shape of [`Error`](crate::Error), [`DtypeError`](crate::dtype::DtypeError),
/// [`ChunkError`](crate::chunk::ChunkError) and, with `std`, `FrameError` and
/// `ContainerError`. Displayed as `[path: ]message[ at byte N]`.
///
/// ```
/// let err = b2nd_meta::frame::open("/no/such/file.b2nd").unwrap_err();
/// assert_eq!(err.path(), Some(std::path::Path::new("/no/such/file.b2nd")));
/// assert!(err.to_string().starts_with("/no/such/file.b2nd: I/O error: "));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Located<K> {
    // Boxed so that a `Result<T, Located<K>>` stays small on the hot path.
    inner: Box<Inner<K>>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner<K> {
    offset: Option<u64>,
    #[cfg(feature = "std")]
    path: Option<PathBuf>,
    kind: K,
}

/// A byte offset, as the readers count it.
pub(crate) trait Offset {
    fn to_u64(self) -> u64;
}

impl Offset for u64 {
    fn to_u64(self) -> u64 {
        self
    }
}

impl Offset for usize {
    fn to_u64(self) -> u64 {
        self as u64
    }
}

/// An offset written as a literal (`at(8, ...)`): never negative.
impl Offset for i32 {
    fn to_u64(self) -> u64 {
        u64::from(self.unsigned_abs())
    }
}

impl<K> Located<K> {
    /// An error at byte `offset` of the input.
    #[cold]
    pub(crate) fn at(offset: impl Offset, kind: K) -> Self {
        let mut e = Located::new(kind);
        e.inner.offset = Some(offset.to_u64());
        e
    }

    /// An error not at one place.
    #[cold]
    pub(crate) fn new(kind: K) -> Self {
        Located {
            inner: Box::new(Inner {
                offset: None,
                #[cfg(feature = "std")]
                path: None,
                kind,
            }),
        }
    }

    /// The error at `offset` unless it is at a place already (errors raised by serde
    /// visitors do not know where they are; the deserializer does).
    pub(crate) fn or_at(mut self, offset: impl Offset) -> Self {
        self.inner.offset.get_or_insert(offset.to_u64());
        self
    }

    /// The error moved to byte `offset` (or to none).
    pub(crate) fn moved_to(mut self, offset: Option<u64>) -> Self {
        self.inner.offset = offset;
        self
    }

    /// The error in file `path`, unless it names one already.
    #[cfg(feature = "std")]
    pub(crate) fn in_file(mut self, path: &Path) -> Self {
        if self.inner.path.is_none() {
            self.inner.path = Some(path.to_path_buf());
        }
        self
    }

    /// The byte offset the error is at, in the input its type documents (a metalayer,
    /// a frame, a chunk, a dtype string); `None` when it is not at one place.
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &K {
        &self.inner.kind
    }

    /// Consumes the error, giving what went wrong.
    pub fn into_kind(self) -> K {
        self.inner.kind
    }

    /// The file the error concerns, when one is (the frame file, a sparse frame's
    /// `chunks.b2frame`, a store's member).
    #[cfg(feature = "std")]
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }
}

impl<K: Kind> Located<K> {
    /// What class of problem it is.
    pub fn classify(&self) -> Class {
        self.inner.kind.class()
    }
}

impl<K: Kind> fmt::Display for Located<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(feature = "std")]
        if let Some(path) = &self.inner.path {
            write!(f, "{}: ", path.display())?;
        }
        fmt::Display::fmt(&self.inner.kind, f)?;
        if let Some(offset) = self.inner.offset {
            write!(f, " at byte {offset}")?;
        }
        match self.inner.kind.note(self.inner.offset) {
            Some(note) => write!(f, " ({note})"),
            None => Ok(()),
        }
    }
}

/// The message, on one line, as [`Display`](fmt::Display) gives it: what `main` prints
/// when it returns the error (`Error: path: message at byte N`). The alternate form
/// (`{:#?}`) is the structure, for debugging: offset, path and kind, the kind's own
/// errors structured too.
///
/// ```
/// let err = b2nd_meta::frame::open("/no/such/file.b2nd").unwrap_err();
/// assert_eq!(format!("{err:?}"), err.to_string());
/// assert!(format!("{err:#?}").starts_with("Located {\n    offset: None,"));
/// ```
impl<K: Kind> fmt::Debug for Located<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return fmt::Display::fmt(self, f);
        }
        let mut s = f.debug_struct("Located");
        s.field("offset", &self.inner.offset);
        #[cfg(feature = "std")]
        s.field("path", &self.inner.path);
        s.field("kind", &self.inner.kind).finish()
    }
}

/// `Debug` as `Display`, for an error type that is not a [`Located`] (an enum or struct
/// whose message names each of its fields): the one line `main` prints when it returns
/// the error, in the plain and in the alternate form.
macro_rules! debug_as_display {
    ($($ty:ty),* $(,)?) => {$(
        impl core::fmt::Debug for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(self, f)
            }
        }
    )*};
}
pub(crate) use debug_as_display;

impl<K: Kind + core::error::Error> core::error::Error for Located<K> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        self.inner.kind.source()
    }
}
