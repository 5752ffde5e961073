//! [`MetaRef`]: a checked, zero-copy view of an encoded metalayer.

use core::iter::FusedIterator;

use crate::codec::{
    check_ndim, check_version, layout_of_count, Geometry, Layout, Parts, MAX_DIM, VERSION,
};
use crate::error::{Error, ErrorKind, Result};
use crate::inline::SmallString;
use crate::marker::{INT32, INT64};
use crate::read::{int32_value, int64_value, Reader};
use crate::wire::{INT32_LEN, INT64_LEN};

/// A metalayer checked in place: it borrows the input and allocates nothing.
///
/// [`MetaRef::parse`] accepts exactly the bytes that `from_slice::<Meta>` accepts and
/// refuses the others with the same error at the same offset; the accessors then read
/// the values straight from the bytes.
///
/// ```
/// use b2nd_meta::{Layout, MetaRef};
///
/// let bytes = b2nd_meta::to_vec(&b2nd_meta::MetaB2ndV1::new([3, 4], [2, 4], [1, 2], "<i4"))?;
/// let view = MetaRef::parse(&bytes)?;
/// assert_eq!(view.layout(), Layout::B2ndV1);
/// assert!(view.shape().eq([3, 4]));
/// assert!(view.chunkshape().eq([2, 4]));
/// assert_eq!(view.dtype(), Some("<i4"));
/// assert_eq!(view.to_meta(), b2nd_meta::from_slice(&bytes)?); // the owned values
/// # Ok::<(), b2nd_meta::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetaRef<'a> {
    bytes: &'a [u8],
    geometry: Geometry,
    dtype_format: u8,
    /// Checked to be UTF-8 (kept as bytes: ASCII needs no second pass).
    dtype: &'a [u8],
}

impl<'a> MetaRef<'a> {
    /// Checks that `bytes` hold exactly one metalayer of any layout.
    #[inline]
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let (view, rest) = Self::take(bytes)?;
        match rest.len() {
            0 => Ok(view),
            count => Err(Error::at(
                view.bytes.len(),
                ErrorKind::TrailingBytes { count },
            )),
        }
    }

    /// Checks the metalayer at the start of `bytes`; returns it and the bytes after it.
    #[inline]
    pub fn take(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
        match Self::take_fast(bytes, None) {
            Some(found) => Ok(found),
            None => Self::take_checked(bytes),
        }
    }

    /// The fast path of [`take`](Self::take), of layout `expect` when given: every
    /// check, none of the error plumbing; `None` when the bytes are not such a
    /// metalayer.
    #[inline(always)]
    pub(crate) fn take_fast(bytes: &'a [u8], expect: Option<Layout>) -> Option<(Self, &'a [u8])> {
        let layout = Layout::from_header(*bytes.first()?)?;
        if expect.is_some_and(|expect| expect != layout) {
            return None;
        }
        let mut r = Reader::new_at(bytes, 1);
        let version = r.try_pfix()?;
        let ndim = r.try_pfix()?;
        if version != VERSION || usize::from(ndim) > MAX_DIM {
            return None;
        }
        let ndim = usize::from(ndim);
        r.try_fixed_array::<INT64_LEN>(ndim, INT64)?;
        r.try_fixed_array::<INT32_LEN>(ndim, INT32)?;
        r.try_fixed_array::<INT32_LEN>(ndim, INT32)?;
        let dtype_format = match layout.has_dtype_format() {
            true => r.try_pfix()?,
            false => 0,
        };
        let dtype = match layout.has_dtype() {
            true => r.try_str32_bytes()?,
            false => &[],
        };
        Some(Self::split(
            bytes,
            r.position(),
            layout,
            ndim,
            dtype_format,
            dtype,
        ))
    }

    /// One pass through the one reader, element by element as the serde path reads
    /// them, so both name the same first bad byte.
    #[cold]
    #[inline(never)]
    fn take_checked(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
        let mut r = Reader::new(bytes);
        let count = r.read_array_header()?;
        let layout = layout_of_count(count).map_err(|e: Error| e.or_at(0))?;
        let at = r.position();
        check_version(r.read_pfix()?).map_err(|e: Error| e.or_at(at))?;
        let at = r.position();
        let ndim = usize::from(check_ndim(r.read_pfix()?).map_err(|e: Error| e.or_at(at))?);
        r.read_int64_array(ndim)?;
        r.read_int32_array(ndim)?;
        r.read_int32_array(ndim)?;
        let dtype_format = match layout.has_dtype_format() {
            true => r.read_pfix()?,
            false => 0,
        };
        let dtype = match layout.has_dtype() {
            true => r.read_str32_bytes()?,
            false => &[],
        };
        Ok(Self::split(
            bytes,
            r.position(),
            layout,
            ndim,
            dtype_format,
            dtype,
        ))
    }

    #[inline(always)]
    fn split(
        bytes: &'a [u8],
        len: usize,
        layout: Layout,
        ndim: usize,
        dtype_format: u8,
        dtype: &'a [u8],
    ) -> (Self, &'a [u8]) {
        let (bytes, rest) = bytes.split_at(len);
        let view = MetaRef {
            bytes,
            geometry: Geometry::new(layout, ndim, dtype.len()),
            dtype_format,
            dtype,
        };
        (view, rest)
    }

    /// The metalayer's bytes.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Which layout it has.
    #[inline]
    pub fn layout(&self) -> Layout {
        self.geometry.layout
    }

    /// Number of dimensions.
    #[inline]
    pub fn ndim(&self) -> usize {
        self.geometry.ndim
    }

    /// Length of each axis.
    #[inline]
    pub fn shape(&self) -> Entries<'a, 8> {
        Entries::new(self.bytes, self.geometry.shape_at(), self.ndim())
    }

    /// Chunk length along each axis.
    #[inline]
    pub fn chunkshape(&self) -> Entries<'a, 4> {
        Entries::new(self.bytes, self.geometry.chunkshape_at(), self.ndim())
    }

    /// Block length along each axis.
    #[inline]
    pub fn blockshape(&self) -> Entries<'a, 4> {
        Entries::new(self.bytes, self.geometry.blockshape_at(), self.ndim())
    }

    /// The dtype_format; `None` for the layouts without one.
    #[inline]
    pub fn dtype_format(&self) -> Option<u8> {
        self.layout()
            .has_dtype_format()
            .then_some(self.dtype_format)
    }

    /// The dtype string, borrowed; `None` for caterva.
    #[inline]
    pub fn dtype(&self) -> Option<&'a str> {
        // Checked when the view was made: never `None` for the b2nd layouts.
        let dtype = core::str::from_utf8(self.dtype).ok()?;
        self.layout().has_dtype().then_some(dtype)
    }

    /// The encoded entries of the shape array whose header is at `at`.
    #[inline(always)]
    fn encoded<const N: usize>(&self, at: usize) -> &'a [[u8; N]] {
        // In range: `MetaRef::take` checked every entry before the view existed.
        let start = at + 1;
        let span = self
            .bytes
            .get(start..start + self.ndim() * N)
            .unwrap_or_default();
        span.as_chunks::<N>().0
    }

    /// The shape's entries, as stored.
    #[inline(always)]
    pub(crate) fn encoded_shape(&self) -> &'a [[u8; INT64_LEN]] {
        self.encoded(self.geometry.shape_at())
    }

    /// The chunkshape's entries, as stored.
    #[inline(always)]
    pub(crate) fn encoded_chunkshape(&self) -> &'a [[u8; INT32_LEN]] {
        self.encoded(self.geometry.chunkshape_at())
    }

    /// The blockshape's entries, as stored.
    #[inline(always)]
    pub(crate) fn encoded_blockshape(&self) -> &'a [[u8; INT32_LEN]] {
        self.encoded(self.geometry.blockshape_at())
    }

    /// The dtype_format as stored (0 for the layouts without one).
    #[inline(always)]
    pub(crate) fn raw_dtype_format(&self) -> u8 {
        self.dtype_format
    }

    /// The dtype, owned (empty for caterva); checked to be UTF-8 when the view was made.
    #[inline(always)]
    pub(crate) fn owned_dtype(&self) -> SmallString {
        SmallString::from_checked_utf8(self.dtype)
    }
}

/// The owned metalayer types: built straight from a checked view (this crate's format,
/// through raw access) or from decoded parts (any other serde format).
pub(crate) trait Owned: Sized {
    /// The one layout the type holds; `None` for [`crate::Meta`], which holds any.
    const LAYOUT: Option<Layout>;

    /// The values of `view`, which has layout [`LAYOUT`](Self::LAYOUT) when that is set.
    fn from_view(view: &MetaRef<'_>) -> Self;

    /// The decoded elements, of layout [`LAYOUT`](Self::LAYOUT) when that is set.
    fn from_parts(parts: Parts) -> Self;
}

/// The entries of one shape array, read from the checked bytes: `W` is 8 for shape
/// (yielding `i64`) and 4 for chunkshape and blockshape (yielding `i32`).
#[derive(Clone, Debug)]
pub struct Entries<'a, const W: usize> {
    // Each chunk is one entry: marker + W bytes big-endian.
    chunks: core::slice::ChunksExact<'a, u8>,
}

impl<'a, const W: usize> Entries<'a, W> {
    /// The `ndim` entries after the array header at `at`.
    #[inline]
    fn new(bytes: &'a [u8], at: usize, ndim: usize) -> Self {
        // In range: `MetaRef::take` checked every entry before the view existed.
        let start = at + 1;
        let span = bytes.get(start..start + ndim * (1 + W)).unwrap_or(&[]);
        Entries {
            chunks: span.chunks_exact(1 + W),
        }
    }
}

impl Iterator for Entries<'_, 8> {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        // Each chunk is exactly one entry long.
        self.chunks.next()?.try_into().ok().map(int64_value)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl Iterator for Entries<'_, 4> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        self.chunks.next()?.try_into().ok().map(int32_value)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for Entries<'_, 8> {}
impl ExactSizeIterator for Entries<'_, 4> {}
impl FusedIterator for Entries<'_, 8> {}
impl FusedIterator for Entries<'_, 4> {}
