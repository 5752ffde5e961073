//! [`Array`]: an array python-blosc2 wrote, opened from a path or a store's node, with
//! its shape, chunkshape, blockshape and dtype, read by selection.

use std::format;
use std::path::{Path, PathBuf};
use std::string::ToString;
use std::sync::Arc;
use std::vec::Vec;

use super::error::{ArrayError, ArrayErrorKind};
use super::geometry::Grid;
use super::source::Frame;
use crate::container::{self, Container, ContainerError, ContainerErrorKind, Kind, Location};
use crate::dtype::Dtype;
use crate::frame::{FrameError, FrameHeader, Source};
use crate::io::ReadAt;

/// The largest decoded chunk C-Blosc2 reads an array through (`get_set_slice` refuses
/// `extchunknitems * typesize` above `INT32_MAX`).
const MAX_CHUNK_NBYTES: u64 = i32::MAX as u64;

/// An n-dimensional array python-blosc2 (or C-Blosc2's b2nd) wrote: a contiguous
/// `.b2nd` frame, a sparse frame's directory, or a node of a store or bundle (`.b2z`,
/// `.b2d`, `.b2e`, a TreeStore leaf).
///
/// Opening reads the frame's header and chunk index only; reads decode the chunks a
/// selection touches, in parallel ([`Array::threads`]).
///
/// ```
/// use b2nd_meta::array::{Array, Selection};
///
/// // blosc2.asarray(..., chunks=(5, 4), blocks=(2, 3)) of a 13x11 uint16 array.
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
/// let array = Array::open(path)?;
/// assert_eq!((array.shape(), array.chunkshape(), array.blockshape()), (&[13, 11][..], &[5, 4][..], &[2, 3][..]));
/// assert_eq!(array.dtype().to_string(), "<u2");
///
/// let all: Vec<u16> = array.read(&Selection::all())?;
/// let row: Vec<u16> = array.read(&"2, ::5".parse()?)?;
/// assert_eq!(row, [all[22], all[27], all[32]]);
/// # Ok::<(), b2nd_meta::array::ArrayError>(())
/// ```
pub struct Array {
    pub(crate) frame: Frame,
    pub(crate) grid: Grid,
    dtype: Dtype,
    pub(crate) itemsize: usize,
    threads: usize,
    label: PathBuf,
}

impl core::fmt::Debug for Array {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Array")
            .field("label", &self.label)
            .field("shape", &self.grid.shape)
            .field("chunkshape", &self.grid.chunkshape)
            .field("blockshape", &self.grid.blockshape)
            .field("dtype", &self.dtype.to_string())
            .finish()
    }
}

/// The frame `source` holds; for a Caterva2 dataset whose server serves no byte
/// ranges of it, the one its `/api/info` and `/api/chunk` give.
fn open_frame(source: &Source) -> Result<Frame, ArrayError> {
    let e = match Frame::open(source) {
        Ok(frame) => return Ok(frame),
        Err(e) => e,
    };
    #[cfg(feature = "remote")]
    if let Some(remote) = source.as_remote().filter(|r| r.refuses_ranges()) {
        return super::chunk_api::open(remote);
    }
    Err(e)
}

/// The machine's parallelism, the default thread count.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Reads a node's whole frame (an embedded node: python-blosc2 deserializes it too).
fn read_all(src: crate::io::SharedSource, len: u64, _label: &Path) -> Result<Vec<u8>, FrameError> {
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    crate::io::read_vec_at(&*src, 0, len).map_err(FrameError::io(None))
}

impl Array {
    /// Opens the array at `source`: a contiguous frame's file, a sparse frame's
    /// directory, or a contiguous frame held in memory ([`Source::bytes`], python's
    /// `blosc2.ndarray_from_cframe`), read under the source's locking.
    ///
    /// ```
    /// use b2nd_meta::array::Array;
    /// use b2nd_meta::frame::Source;
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// assert_eq!(Array::open(path)?.shape(), [29]);
    /// let array = Array::open(Source::bytes(std::fs::read(path)?))?;
    /// assert_eq!(array.shape(), [29]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(source: impl Into<Source>) -> Result<Array, ArrayError> {
        let source = source.into();
        let label = source.label().to_path_buf();
        let frame = open_frame(&source).map_err(|e| e.in_file(&label))?;
        Array::from_frame(frame, label)
    }

    /// Opens the array stored as node `key` of a store or bundle (a `.b2z`, `.b2d` or
    /// `.b2e`; a TreeStore's leaf by its full key).
    ///
    /// ```
    /// use b2nd_meta::array::{Array, Selection};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/store_dict.b2z");
    /// let store = b2nd_meta::container::open(path)?;
    /// let array = Array::open_node(&store, "/dir/ext")?;
    /// assert_eq!(array.shape(), [30, 20]);
    /// let first: Vec<i32> = array.read(&"0, :3".parse()?)?;
    /// assert_eq!(first.len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_node(store: &Container, key: &str) -> Result<Array, ArrayError> {
        let entry = store.find(key).ok_or_else(|| {
            ContainerError::new(ContainerErrorKind::UnknownKey { key: key.into() })
        })?;
        let label = PathBuf::from(format!("{}#{key}", store.path.display()));
        let frame = match &entry.location {
            Location::External { path } => return Array::open(path),
            Location::ZipMember { offset, length, .. } => {
                let src = store.src.clone().ok_or_else(|| {
                    ContainerError::new(ContainerErrorKind::UnknownKey { key: key.into() })
                })?;
                Frame::in_window(src, *offset, *length)
            }
            Location::Embedded { .. } => {
                let bytes = store.read_with(key, &entry.location, read_all)?;
                let len = bytes.len() as u64;
                Frame::in_window(Arc::new(bytes), 0, len)
            }
            Location::Implicit => {
                let kind = match &entry.role {
                    container::Role::Object { kind } => format!("a {kind} object"),
                    _ => "a group".into(),
                };
                return Err(ArrayError::new(ArrayErrorKind::NotAnArray { kind }).in_file(&label));
            }
            Location::Remote { .. } | Location::Invalid { .. } => {
                return Err(store
                    .read_with(key, &entry.location, read_all)
                    .err()
                    .map_or_else(
                        || ArrayError::layout(format!("node {key:?}: nothing to read")),
                        ArrayError::from,
                    ));
            }
        };
        let frame = frame.map_err(|e| ArrayError::from(e).in_file(&label))?;
        Array::from_frame(frame, label)
    }

    /// The array of the contiguous frame at bytes `[start, start + len)` of `src`
    /// (`label` names it in errors).
    pub fn from_source(
        src: Arc<dyn ReadAt + Send + Sync>,
        start: u64,
        len: u64,
        label: &Path,
    ) -> Result<Array, ArrayError> {
        let frame =
            Frame::in_window(src, start, len).map_err(|e| ArrayError::from(e).in_file(label))?;
        Array::from_frame(frame, label.to_path_buf())
    }

    /// [`Array::open_node`] of the store or bundle at `source`.
    pub fn open_key(source: impl Into<Source>, key: &str) -> Result<Array, ArrayError> {
        let store = container::open(source)?;
        Array::open_node(&store, key)
    }

    /// Checks what C-Blosc2 checks before it reads an array's data (`b2nd_from_schunk`,
    /// `get_set_slice`), and what python-blosc2 opens as an NDArray.
    fn from_frame(frame: Frame, label: PathBuf) -> Result<Array, ArrayError> {
        let fail = |e: ArrayError| e.in_file(&label);
        let (grid, dtype) = layout_of(&frame.header).map_err(fail)?;
        let itemsize = frame.header.info.typesize as usize;
        Ok(Array {
            frame,
            grid,
            dtype,
            itemsize,
            threads: default_threads(),
            label,
        })
    }

    /// The array's shape.
    pub fn shape(&self) -> &[u64] {
        &self.grid.shape
    }

    /// The shape of its chunks.
    pub fn chunkshape(&self) -> &[u64] {
        &self.grid.chunkshape
    }

    /// The shape of the blocks inside a chunk.
    pub fn blockshape(&self) -> &[u64] {
        &self.grid.blockshape
    }

    /// Its number of dimensions.
    pub fn ndim(&self) -> usize {
        self.grid.ndim()
    }

    /// Its number of elements.
    pub fn len(&self) -> u64 {
        self.grid.shape.iter().product()
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Its dtype, as stored (the frame's byte order included).
    pub fn dtype(&self) -> &Dtype {
        &self.dtype
    }

    /// The bytes of one element.
    pub fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// Its frame's header (metalayers, codec, sizes).
    pub fn header(&self) -> &FrameHeader {
        &self.frame.header
    }

    /// The path (for a node, `store#key`) errors name.
    pub fn label(&self) -> &Path {
        &self.label
    }

    /// How many threads a read decodes chunks with (the machine's parallelism unless
    /// set).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets how many threads reads use (at least 1).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?.with_threads(1);
    /// assert_eq!(array.threads(), 1);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn with_threads(mut self, threads: usize) -> Array {
        self.threads = threads.max(1);
        self
    }
}

/// The grid and dtype of the array `header` holds, checked as C-Blosc2 checks them
/// before it reads or writes an array's data (`b2nd_from_schunk`, `get_set_slice`),
/// and as python-blosc2 opens an NDArray.
pub(crate) fn layout_of(header: &FrameHeader) -> Result<(Grid, Dtype), ArrayError> {
    let kind = Kind::of_frame(header);
    if kind != Kind::NDArray {
        let kind = ArrayErrorKind::NotAnArray {
            kind: format!("a frame python-blosc2 opens as {}", kind.name()),
        };
        return Err(ArrayError::new(kind));
    }
    let meta = header.array_meta()?;
    let typesize = header.info.typesize;
    let dtype = match meta.effective_dtype(typesize) {
        Some(dtype) => dtype,
        None => {
            let kind = match meta.parsed_dtype() {
                Some(Err(e)) => ArrayErrorKind::Dtype(e),
                _ => ArrayErrorKind::Layout {
                    reason: format!(
                        "dtype format {:?} is not NumPy's: no element type to read",
                        meta.dtype_format()
                    ),
                },
            };
            return Err(ArrayError::new(kind));
        }
    };
    meta.validate_with_itemsize(u64::from(typesize), Some(dtype.itemsize()))
        .map_err(|e| ArrayError::new(ArrayErrorKind::Metadata(e)))?;
    let to_u64 = |v: &[i32]| v.iter().map(|&x| x.max(0) as u64).collect::<Vec<u64>>();
    let shape: Vec<u64> = meta.shape().iter().map(|&x| x.max(0) as u64).collect();
    let grid = Grid::new(
        &shape,
        &to_u64(meta.chunkshape()),
        &to_u64(meta.blockshape()),
    )?;
    let chunk_nbytes = (grid.chunk_items as u64).saturating_mul(u64::from(typesize));
    if chunk_nbytes > MAX_CHUNK_NBYTES {
        return Err(ArrayError::layout(format!(
            "a chunk holds {chunk_nbytes} bytes (extchunknitems x typesize); C-Blosc2 reads at most {MAX_CHUNK_NBYTES}"
        )));
    }
    Ok((grid, dtype))
}
