//! [`MetaRef`]: a checked, zero-copy view of an encoded metalayer.

use core::iter::FusedIterator;

use crate::codec::{check_ndim, check_version, layout_of_count, Geometry, Layout, Parts};
use crate::error::{Error, ErrorKind, Result};
use crate::inline::{Dims, SmallString};
use crate::read::Reader;

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
    ///
    /// One pass through the one reader, element by element as the serde path reads
    /// them, so both name the same first bad byte.
    #[inline]
    pub fn take(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
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
        let (bytes, rest) = bytes.split_at(r.position());
        let view = MetaRef {
            bytes,
            geometry: Geometry::new(layout, ndim, dtype.len()),
            dtype_format,
            dtype,
        };
        Ok((view, rest))
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

    /// The elements, owned.
    #[inline]
    pub(crate) fn to_parts(self) -> Parts {
        let mut parts = Parts::new(self.layout());
        fill(&mut parts.shape, self.shape());
        fill(&mut parts.chunkshape, self.chunkshape());
        fill(&mut parts.blockshape, self.blockshape());
        parts.dtype_format = self.dtype_format;
        if let Some(dtype) = self.dtype() {
            parts.dtype = SmallString::from(dtype);
        }
        parts
    }
}

/// The metalayer at the start of `input`, of layout `expect` when given, with the
/// number of bytes it takes; `None` when it does not decode (the serde path then says
/// why, with the same error `MetaRef` would give).
#[inline]
pub(crate) fn take_view(input: &[u8], expect: Option<Layout>) -> Option<MetaRef<'_>> {
    if let Some(layout) = expect {
        if input.first() != Some(&layout.header()) {
            return None;
        }
    }
    let (view, _) = MetaRef::take(input).ok()?;
    Some(view)
}

/// The entries, copied into inline storage (`ndim <= 16` was checked).
#[inline(always)]
fn fill<T: Copy + Default, I: ExactSizeIterator<Item = T>>(dims: &mut Dims<T>, entries: I) {
    if let Some(slots) = dims.inline_slots(entries.len()) {
        for (slot, v) in slots.iter_mut().zip(entries) {
            *slot = v;
        }
    }
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
        let c = self.chunks.next()?;
        Some(i64::from_be_bytes([
            c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8],
        ]))
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
        let c = self.chunks.next()?;
        Some(i32::from_be_bytes([c[1], c[2], c[3], c[4]]))
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
