//! [`NewArray`]: what a new array is (shape, dtype, chunks and blocks, how its chunks
//! are compressed, its metalayers and vlmeta) and where and how it is written.

use serde::Serialize;
use std::string::{String, ToString};
use std::vec::Vec;

use super::defaults::Caches;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::array::Array;
use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::dtype::{Dtype, Kind};
use crate::frame::{FrameError, FrameErrorKind, FrameKind, Locking};
use crate::io::Steps;
use crate::value::Value;
use crate::vlmeta::VlmetaChange;

/// A new array to write: its shape and dtype, and, each with python-blosc2's default
/// when not given, its chunk and block shapes, codec, level, filter pipeline and split
/// mode, user metalayers and vlmeta, the kind of frame, and the threads that compress.
///
/// The defaults are python-blosc2 4.14.1's `blosc2.asarray(a, urlpath=...)`: chunks and
/// blocks as python chooses them for this machine's caches
/// ([`chunks_and_blocks`](super::chunks_and_blocks)), zstd at level 5, byte-shuffle in
/// the last slot, split mode auto, a contiguous frame.
///
/// ```
/// use b2nd_meta::array::write::NewArray;
/// use b2nd_meta::array::{Array, Selection};
/// use b2nd_meta::blosc::Codec;
///
/// let path = std::env::temp_dir().join(format!("b2nd-meta-new-doc-{}.b2nd", std::process::id()));
/// let values: Vec<f64> = (0..1000).map(|i| i as f64 / 4.0).collect();
/// NewArray::new(&[40, 25], "<f8")?
///     .chunks(&[16, 25])
///     .blocks(&[4, 25])
///     .codec(Codec::Lz4, 5)
///     .meta("units", &"m/s")?
///     .vlmeta("note", &"from Rust")?
///     .overwrite(true)
///     .write_typed(&path, &values)?;
///
/// let array = Array::open(&path)?;
/// assert_eq!((array.shape(), array.chunkshape()), (&[40, 25][..], &[16, 25][..]));
/// assert_eq!(array.read::<f64>(&Selection::all())?, values);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct NewArray {
    pub(crate) shape: Vec<u64>,
    pub(crate) dtype: Dtype,
    pub(crate) chunks: Option<Vec<u64>>,
    pub(crate) blocks: Option<Vec<u64>>,
    pub(crate) codec: Codec,
    pub(crate) clevel: u8,
    pub(crate) filters: [(Filter, u8); MAX_FILTERS],
    pub(crate) splitmode: SplitMode,
    pub(crate) metalayers: Vec<(String, Vec<u8>)>,
    pub(crate) vlmeta: Vec<VlmetaChange>,
    pub(crate) kind: FrameKind,
    pub(crate) overwrite: bool,
    pub(crate) locking: Locking,
    pub(crate) steps: Steps,
    pub(crate) input: Option<std::path::PathBuf>,
    pub(crate) threads: usize,
    pub(crate) caches: Option<Caches>,
}

fn meta_error(name: &str, source: crate::meta::error::Error) -> ArrayError {
    ArrayError::from(FrameError::new(FrameErrorKind::Metalayer {
        name: name.to_string(),
        content_offset: 0,
        source,
    }))
}

impl NewArray {
    /// An array of `shape` and `dtype` (a NumPy dtype string as python-blosc2 stores it,
    /// or any spelling [`Dtype::parse`] reads). Object dtypes (pointers) and dtypes of
    /// no bytes are refused, as python-blosc2 cannot store them.
    ///
    /// ```
    /// use b2nd_meta::array::write::NewArray;
    /// assert!(NewArray::new(&[3], "float64").is_ok());
    /// assert_eq!(NewArray::new(&[3], "O").unwrap_err().to_string(), "the array's dtype: expected a dtype of fixed-size elements, found 'O' (Python objects)");
    /// ```
    pub fn new(shape: &[u64], dtype: &str) -> Result<NewArray, ArrayError> {
        let dtype = Dtype::parse(dtype).map_err(|e| ArrayError::new(ArrayErrorKind::Dtype(e)))?;
        if dtype.kind() == Kind::Object || dtype.itemsize() == 0 {
            return Err(ArrayError::new(ArrayErrorKind::Unwritable {
                what: "the array's dtype",
                expected: "a dtype of fixed-size elements",
                found: if dtype.kind() == Kind::Object {
                    "'O' (Python objects)".into()
                } else {
                    std::format!("'{dtype}' (0 bytes)")
                },
            }));
        }
        Ok(NewArray::of_dtype(shape, dtype))
    }

    /// [`NewArray::new`] of a dtype already checked.
    fn of_dtype(shape: &[u64], dtype: Dtype) -> NewArray {
        let mut filters = [(Filter::None, 0); MAX_FILTERS];
        filters[MAX_FILTERS - 1] = (Filter::Shuffle, 0);
        NewArray {
            shape: shape.to_vec(),
            dtype,
            chunks: None,
            blocks: None,
            codec: Codec::Zstd,
            clevel: 5,
            filters,
            splitmode: SplitMode::Auto,
            metalayers: Vec::new(),
            vlmeta: Vec::new(),
            kind: FrameKind::Contiguous,
            overwrite: false,
            locking: Locking::AUTO,
            steps: Steps::of_process(),
            input: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            caches: None,
        }
    }

    /// A new array like `array` (an array opened with [`Array::open`]): its shape (see
    /// [`NewArray::shape`] to change it), dtype, chunk and block shapes, codec and level,
    /// filter pipeline (the six slots and their meta bytes), split mode, user
    /// metalayers (their exact content bytes) and vlmeta (each value's exact msgpack);
    /// written with the defaults of [`NewArray::new`] otherwise (a contiguous frame,
    /// whatever `array`'s kind). Python's nearest equivalents are `blosc2.empty_like(a)`
    /// (shape and dtype only) and `a.copy()` (chunks, blocks, compression parameters and
    /// metalayers too).
    ///
    /// Reads `array`'s trailer (its vlmeta): an error when that does not read.
    ///
    /// ```
    /// use b2nd_meta::array::write::NewArray;
    /// use b2nd_meta::array::{Array, Selection};
    ///
    /// // python: a = blosc2.asarray(x, urlpath=..., chunks=(3, 4, 2), blocks=(2, 3, 2)).
    /// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd");
    /// let a = Array::open(src)?;
    /// let path = std::env::temp_dir().join(format!("b2nd-meta-like-doc-{}.b2nd", std::process::id()));
    /// let values: Vec<f32> = a.read(&Selection::all())?;
    /// NewArray::like(&a)?.overwrite(true).write_typed(&path, &values)?;
    ///
    /// let b = Array::open(&path)?;
    /// assert_eq!((b.shape(), b.chunkshape(), b.blockshape()), (a.shape(), a.chunkshape(), a.blockshape()));
    /// let (x, y) = (&a.header().info, &b.header().info);
    /// assert_eq!((x.codec, x.clevel, x.filters, x.filters_meta), (y.codec, y.clevel, y.filters, y.filters_meta));
    /// let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    /// assert_eq!(bits(b.read(&Selection::all())?), bits(values)); // a NaN among them
    ///
    /// // Another shape, the rest alike.
    /// let _smaller = NewArray::like(&a)?.shape(&[2, 6, 5]);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn like(array: &Array) -> Result<NewArray, ArrayError> {
        let header = array.header();
        let info = &header.info;
        let trailer = crate::frame::read_trailer(array.frame.chunks.reader(), header)
            .map_err(|e| ArrayError::from(e).in_file(array.label()))?;
        let mut vlmeta = Vec::with_capacity(trailer.vlmetalayers.len());
        for vl in &trailer.vlmetalayers {
            let msgpack = vl
                .decode()
                .map_err(|e| ArrayError::from(e).in_file(array.label()))?;
            let name = vl.name.clone();
            vlmeta.push(VlmetaChange::Set { name, msgpack });
        }
        let filters = core::array::from_fn(|slot| (info.filters[slot], info.filters_meta[slot]));
        let metalayers = header
            .user_metalayers()
            .map(|m| (m.name.clone(), m.content.clone()))
            .collect();
        Ok(NewArray {
            chunks: Some(array.chunkshape().to_vec()),
            blocks: Some(array.blockshape().to_vec()),
            codec: info.codec,
            clevel: info.clevel,
            filters,
            splitmode: info.splitmode,
            metalayers,
            vlmeta,
            ..NewArray::of_dtype(array.shape(), array.dtype().clone())
        })
    }

    /// The shape (the one [`NewArray::new`] or [`NewArray::like`] was given, changed).
    pub fn shape(mut self, shape: &[u64]) -> Self {
        self.shape = shape.to_vec();
        self
    }

    /// The chunk shape (python's `chunks=`).
    ///
    /// A chunk of more than 64 MiB is cut, along each axis where it is longer than the
    /// array, to the array's length (and its blocks with it): python-blosc2 keeps it and
    /// pads every chunk with zeros, which costs memory the input does not justify (a
    /// chunk of 2^28 items for an array of 10). A smaller chunk is kept as given, room
    /// for the array to grow into.
    ///
    /// ```
    /// use b2nd_meta::array::write::NewArray;
    /// # let dir = std::env::temp_dir().join(format!("b2nd-chunks-doc-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("small.b2nd");
    /// let mut w = NewArray::new(&[10], "<i8")?.chunks(&[1 << 28]).create(&path)?;
    /// w.write(&[0u8; 80])?;
    /// w.finish()?;
    /// assert_eq!(b2nd_meta::array::Array::open(&path)?.chunkshape(), &[10]);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn chunks(mut self, chunks: &[u64]) -> Self {
        self.chunks = Some(chunks.to_vec());
        self
    }

    /// The block shape (python's `blocks=`).
    pub fn blocks(mut self, blocks: &[u64]) -> Self {
        self.blocks = Some(blocks.to_vec());
        self
    }

    /// The codec and its level, 0 (stored as it is) to 9: BloscLZ, LZ4, LZ4HC, zlib or
    /// zstd (others are refused when writing starts).
    pub fn codec(mut self, codec: Codec, clevel: u8) -> Self {
        self.codec = codec;
        self.clevel = clevel;
        self
    }

    /// The filter pipeline: six slots, applied first slot first, each a filter and its
    /// meta byte (shuffle's and bytedelta's element size, trunc_prec's bits).
    ///
    /// ```
    /// use b2nd_meta::array::write::NewArray;
    /// use b2nd_meta::blosc::Filter;
    /// let none = (Filter::None, 0);
    /// let a = NewArray::new(&[100], "<f4")?.filters([none, none, none, none, (Filter::TruncPrec, 10), (Filter::BitShuffle, 0)]);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn filters(mut self, filters: [(Filter, u8); MAX_FILTERS]) -> Self {
        self.filters = filters;
        self
    }

    /// The split mode (python's default is auto).
    pub fn splitmode(mut self, splitmode: SplitMode) -> Self {
        self.splitmode = splitmode;
        self
    }

    /// Adds the user metalayer `name` holding `value` as python-blosc2 encodes a `meta=`
    /// entry (msgpack; structs as maps, through rmp-serde).
    pub fn meta<T: ?Sized + Serialize>(self, name: &str, value: &T) -> Result<Self, ArrayError> {
        let bytes = crate::frame::user_meta_bytes(value).map_err(|e| meta_error(name, e))?;
        Ok(self.meta_bytes(name, bytes))
    }

    /// Adds the user metalayer `name` holding a [`Value`], encoded as python does.
    pub fn meta_value(self, name: &str, value: &Value) -> Result<Self, ArrayError> {
        let bytes = value.to_msgpack().map_err(|e| meta_error(name, e))?;
        Ok(self.meta_bytes(name, bytes))
    }

    /// Adds the user metalayer `name` with exactly these content bytes.
    pub fn meta_bytes(mut self, name: &str, content: Vec<u8>) -> Self {
        self.metalayers.push((name.to_string(), content));
        self
    }

    /// Sets the vlmeta entry `name` to `value` (python's `arr.vlmeta[name] = value`).
    pub fn vlmeta<T: ?Sized + Serialize>(self, name: &str, value: &T) -> Result<Self, ArrayError> {
        Ok(self.vlmeta_change(VlmetaChange::set(name, value)?))
    }

    /// Sets the vlmeta entry `name` to a [`Value`], encoded as python does.
    pub fn vlmeta_value(self, name: &str, value: &Value) -> Result<Self, ArrayError> {
        Ok(self.vlmeta_change(VlmetaChange::set_value(name, value)?))
    }

    fn vlmeta_change(mut self, change: VlmetaChange) -> Self {
        self.vlmeta.push(change);
        self
    }

    /// A sparse frame (a directory of `chunks.b2frame` and one file per chunk) instead
    /// of a contiguous `.b2nd` file.
    pub fn sparse(mut self, sparse: bool) -> Self {
        self.kind = match sparse {
            true => FrameKind::Sparse,
            false => FrameKind::Contiguous,
        };
        self
    }

    /// Whether a frame at the path is replaced (else it is refused, and left as it is):
    /// a file by a contiguous frame, a sparse frame by a sparse frame. The new frame is
    /// put in place in one atomic step once complete, so that the path names the old
    /// frame or the new one at every instant; a directory that is not a sparse frame, a
    /// device or a FIFO is never replaced, nor a file by a sparse frame or a sparse frame
    /// by a file (that cannot be done atomically).
    pub fn overwrite(mut self, overwrite: bool) -> Self {
        self.overwrite = overwrite;
        self
    }

    /// How the frame replaced is locked while the new one is put in its place
    /// (C-Blosc2's `.b2lock` protocol; [`Locking::AUTO`] by default).
    pub fn locking(mut self, locking: Locking) -> Self {
        self.locking = locking;
        self
    }

    /// The file the array's values are read from: refused as the path written (the
    /// same file, links followed), which the new frame would replace.
    pub fn made_from(mut self, input: impl AsRef<std::path::Path>) -> Self {
        self.input = Some(input.as_ref().to_path_buf());
        self
    }

    /// The steps the write's file changes take (crash tests stop them).
    #[doc(hidden)]
    pub fn steps(mut self, steps: Steps) -> Self {
        self.steps = steps;
        self
    }

    /// The threads that compress chunks (at least 1; the machine's parallelism by
    /// default).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// The caches default chunks and blocks are sized by (this machine's, as python
    /// reads them, by default: [`Caches::of_this_machine`]).
    pub fn caches(mut self, caches: Caches) -> Self {
        self.caches = Some(caches);
        self
    }
}
