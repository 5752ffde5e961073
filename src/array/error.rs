//! [`ArrayError`]: why an array's values cannot be read, and where (the byte offset in
//! the frame or in the selection's text, or the axis).

use std::boxed::Box;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::string::String;

use super::write::DefaultsError;
use crate::chunk::CompressError;
use crate::container::ContainerError;
use crate::dtype::DtypeError;
use crate::frame::FrameError;
use crate::meta::validate::Invalid;

/// An error reading an array's values: what went wrong ([`ArrayError::kind`]), at which
/// byte when it is at one ([`ArrayError::offset`]: of the frame for its bytes, of the
/// text for a selection that does not parse), and the file. Displayed as
/// `"[path: ]message[ at byte N]"`.
///
/// ```
/// use b2nd_meta::array::{ArrayErrorKind, Selection};
///
/// let err = Selection::parse("2:8, ::x").unwrap_err();
/// assert_eq!(err.offset(), Some(7));
/// assert_eq!(err.to_string(), "expected an integer, found 'x' at byte 7");
/// ```
pub struct ArrayError {
    inner: Box<Inner>,
}

struct Inner {
    offset: Option<u64>,
    path: Option<PathBuf>,
    kind: ArrayErrorKind,
}

/// What went wrong; see [`ArrayError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ArrayErrorKind {
    /// The frame, its chunk index or a chunk does not read (the frame error's offset is
    /// the error's).
    Frame(FrameError),
    /// The store or bundle, or the node in it, does not read.
    Container(ContainerError),
    /// Not an array: a frame python-blosc2 opens as another kind (an SChunk without an
    /// array metalayer, a LazyExpr, ...), or a store's group.
    NotAnArray {
        /// What was found.
        kind: String,
    },
    /// The array metadata is one C-Blosc2 refuses to read data with.
    Metadata(Invalid),
    /// The dtype string does not parse.
    Dtype(DtypeError),
    /// The array metadata and the frame disagree, or describe chunks C-Blosc2 cannot hold.
    Layout {
        /// What does not hold.
        reason: String,
    },
    /// The selection's text is not python's basic indexing (the offset is in the text).
    Syntax {
        /// What was expected there.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// The selection does not fit the array's shape (numpy's `IndexError` and friends,
    /// in numpy's words, naming the axis when one is concerned).
    Selection {
        /// The array axis concerned, when one is.
        axis: Option<usize>,
        /// numpy's words for it.
        reason: String,
    },
    /// A typed read asked for a Rust type the dtype is not.
    TypeMismatch {
        /// The Rust type asked for.
        requested: &'static str,
        /// The array's dtype.
        dtype: String,
    },
    /// The caller's buffer does not have the selection's length.
    BufferLength {
        /// The selection's length (bytes for a raw read, elements for a typed one).
        expected: u64,
        /// The buffer's.
        found: u64,
    },
    /// The selection is larger than this machine can address.
    TooLarge {
        /// Its size in bytes.
        nbytes: u128,
    },
    /// A parameter of a new array that python-blosc2 or C-Blosc2 refuses, or that this
    /// crate does not write.
    Unwritable {
        /// What it is.
        what: &'static str,
        /// What is expected.
        expected: &'static str,
        /// What was given.
        found: String,
    },
    /// Chunk or block shapes python-blosc2 refuses (its `ValueError`).
    Partition(DefaultsError),
    /// Compression parameters C-Blosc2 refuses, or a codec or filter this crate does not
    /// write.
    Compress(CompressError),
    /// A `.npy` file's header that numpy would not read, or an array numpy pickles.
    Npy {
        /// What numpy expects there.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A new array's path exists and overwriting it was not asked for.
    Exists,
    /// The data given for a new array is not its length (in bytes).
    DataLength {
        /// The array's bytes.
        expected: u128,
        /// The bytes given (so far, when too many).
        found: u128,
    },
    /// Reading or writing a file failed.
    Io(io::Error),
}

impl fmt::Display for ArrayErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ArrayErrorKind::*;
        match self {
            Frame(e) => write!(f, "{e}"),
            Container(e) => write!(f, "{e}"),
            NotAnArray { kind } => write!(f, "expected an NDArray, found {kind}"),
            Metadata(e) => write!(f, "the array metadata: {e}"),
            Dtype(e) => write!(f, "the array's dtype: {e}"),
            Layout { reason } => f.write_str(reason),
            Syntax { expected, found } => write!(f, "expected {expected}, found {found}"),
            Selection { reason, .. } => f.write_str(reason),
            TypeMismatch { requested, dtype } => {
                write!(f, "expected a dtype {requested} can hold, found {dtype}")
            }
            BufferLength { expected, found } => write!(
                f,
                "expected a buffer of the selection's length {expected}, found {found}"
            ),
            TooLarge { nbytes } => write!(
                f,
                "the selection holds {nbytes} bytes, more than this machine addresses"
            ),
            Unwritable {
                what,
                expected,
                found,
            } => write!(f, "{what}: expected {expected}, found {found}"),
            Partition(e) => write!(f, "{e}"),
            Compress(e) => write!(f, "{e}"),
            Npy { expected, found } => write!(f, "expected {expected}, found {found}"),
            Exists => f.write_str("exists, and overwriting it was not asked for"),
            DataLength { expected, found } => write!(
                f,
                "expected {expected} bytes of the array's elements in C order, found {found}"
            ),
            Io(e) => write!(f, "{e}"),
        }
    }
}

impl ArrayError {
    pub(crate) fn new(kind: ArrayErrorKind) -> Self {
        ArrayError {
            inner: Box::new(Inner {
                offset: None,
                path: None,
                kind,
            }),
        }
    }

    pub(crate) fn at(offset: u64, kind: ArrayErrorKind) -> Self {
        let mut e = ArrayError::new(kind);
        e.inner.offset = Some(offset);
        e
    }

    /// A problem with the array metadata or the frame's layout.
    pub(crate) fn layout(reason: String) -> Self {
        ArrayError::new(ArrayErrorKind::Layout { reason })
    }

    /// A selection that does not fit the shape, at `axis` when one is concerned.
    pub(crate) fn selection(axis: Option<usize>, reason: String) -> Self {
        ArrayError::new(ArrayErrorKind::Selection { axis, reason })
    }

    /// The error with `path` as its file, unless it has one already.
    pub(crate) fn in_file(mut self, path: &Path) -> Self {
        if self.inner.path.is_none() {
            self.inner.path = Some(path.to_path_buf());
        }
        self
    }

    /// The byte offset the error concerns: in the frame (for a sparse frame, in the
    /// file [`ArrayError::path`] names), or in the selection's text.
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// The file involved, when one is.
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ArrayErrorKind {
        &self.inner.kind
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
        match &self.inner.kind {
            ArrayErrorKind::Selection { axis, .. } => *axis,
            _ => None,
        }
    }
}

impl From<FrameError> for ArrayError {
    fn from(e: FrameError) -> Self {
        let offset = e.offset();
        let path = e.path().map(Path::to_path_buf);
        let mut out = ArrayError::new(ArrayErrorKind::Frame(e));
        out.inner.offset = offset;
        out.inner.path = path;
        out
    }
}

impl From<ContainerError> for ArrayError {
    fn from(e: ContainerError) -> Self {
        let offset = e.offset();
        let path = e.path().map(Path::to_path_buf);
        let mut out = ArrayError::new(ArrayErrorKind::Container(e));
        out.inner.offset = offset;
        out.inner.path = path;
        out
    }
}

impl From<io::Error> for ArrayError {
    fn from(e: io::Error) -> Self {
        ArrayError::new(ArrayErrorKind::Io(e))
    }
}

impl fmt::Display for ArrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A frame or container error prints its own offset, and its path when it has one.
        let inner_path = match &self.inner.kind {
            ArrayErrorKind::Frame(e) => Some(e.path()),
            ArrayErrorKind::Container(e) => Some(e.path()),
            _ => None,
        };
        if let (Some(path), None | Some(None)) = (&self.inner.path, inner_path) {
            write!(f, "{}: ", path.display())?;
        }
        if inner_path.is_some() {
            return fmt::Display::fmt(&self.inner.kind, f);
        }
        fmt::Display::fmt(&self.inner.kind, f)?;
        if let Some(offset) = self.inner.offset {
            write!(f, " at byte {offset}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for ArrayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArrayError")
            .field("offset", &self.inner.offset)
            .field("path", &self.inner.path)
            .field("kind", &self.inner.kind)
            .finish()
    }
}

impl std::error::Error for ArrayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.kind {
            ArrayErrorKind::Frame(e) => Some(e),
            ArrayErrorKind::Container(e) => Some(e),
            ArrayErrorKind::Dtype(e) => Some(e),
            ArrayErrorKind::Io(e) => Some(e),
            ArrayErrorKind::Partition(e) => Some(e),
            ArrayErrorKind::Compress(e) => Some(e),
            _ => None,
        }
    }
}
