//! [`MetaRef`]: a checked, zero-copy view of an encoded metalayer.

use core::iter::FusedIterator;

use crate::dispatch::Meta;
use crate::error::{Error, ErrorKind, Result};
use crate::layout::{check_ndim, check_version, layout_of_count, Layout};
use crate::meta::{MetaB2nd, MetaB2ndV1, MetaV0Caterva};
use crate::read::Reader;
use crate::wire;

/// A metalayer checked in place: it borrows the input and allocates nothing.
///
/// [`MetaRef::parse`] accepts exactly the bytes that `from_slice::<Meta>` accepts and
/// refuses the others with the same error at the same offset; the accessors then read
/// the values straight from the bytes.
///
/// ```
/// use b2nd_meta::{Layout, MetaRef};
///
/// let bytes = b2nd_meta::to_vec(&b2nd_meta::MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4"))?;
/// let view = MetaRef::parse(&bytes)?;
/// assert_eq!(view.layout(), Layout::B2ndV1);
/// assert!(view.shape().eq([3, 4]));
/// assert!(view.chunkshape().eq([2, 4]));
/// assert_eq!(view.dtype(), Some("<i4"));
/// assert_eq!(view.to_meta(), b2nd_meta::from_slice(&bytes)?);
/// # Ok::<(), b2nd_meta::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetaRef<'a> {
    bytes: &'a [u8],
    layout: Layout,
    ndim: usize,
    dtype_format: u8,
    /// Checked to be UTF-8 (kept as bytes so ASCII needs no second pass).
    dtype: &'a [u8],
}

/// Offset of the first entry of shape: after header, version, ndim and the array header.
const SHAPE_AT: usize = 4;

impl<'a> MetaRef<'a> {
    /// Checks that `bytes` hold exactly one metalayer of any layout.
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
    pub fn take(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
        if let Some(view) = Self::well_formed(bytes) {
            let rest = bytes.get(view.bytes.len()..).unwrap_or(&[]);
            return Ok((view, rest));
        }
        // Something is off: read element by element, which names the first bad byte.
        Self::take_checked(bytes)
    }

    /// The common case in one straight pass: a complete, well-formed metalayer at the
    /// start of `bytes`, or `None` (then [`take_checked`](Self::take_checked) says why).
    #[inline]
    fn well_formed(bytes: &'a [u8]) -> Option<Self> {
        let &[header, version, ndim, ..] = bytes else {
            return None;
        };
        let layout = Layout::from_element_count(usize::from(header.wrapping_sub(wire::FIXARRAY)))?;
        let ndim = usize::from(ndim);
        if version != crate::VERSION || ndim > crate::MAX_DIM {
            return None;
        }
        let mut pos = 3 + shapes_region(bytes.get(3..)?, ndim)?;
        let dtype_format = match layout {
            Layout::B2ndV1 => {
                let f = *bytes.get(pos)?;
                pos += 1;
                wire::pfix(f)?
            }
            _ => 0,
        };
        let dtype: &[u8] = match layout {
            Layout::CatervaV0 => &[],
            _ => {
                let &[wire::STR32, a, b, c, d] = bytes.get(pos..pos + wire::LEN32_HEADER_LEN)?
                else {
                    return None;
                };
                let len = usize::try_from(i32::from_be_bytes([a, b, c, d])).ok()?;
                let start = pos + wire::LEN32_HEADER_LEN;
                let dtype = bytes.get(start..start.checked_add(len)?)?;
                if !dtype.is_ascii() {
                    core::str::from_utf8(dtype).ok()?;
                }
                pos = start + len;
                dtype
            }
        };
        Some(MetaRef {
            bytes: bytes.get(..pos)?,
            layout,
            ndim,
            dtype_format,
            dtype,
        })
    }

    /// Element by element, with the same errors as the serde path.
    fn take_checked(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
        let mut r = Reader::new(bytes);
        let count = r.read_array_header()?;
        let layout = layout_of_count(count).map_err(|e: Error| e.or_at(0))?;
        let at = r.position();
        check_version(r.read_pfix()?).map_err(|e: Error| e.or_at(at))?;
        let at = r.position();
        let ndim = usize::from(check_ndim(r.read_pfix()?).map_err(|e: Error| e.or_at(at))?);
        // Fast path: the three arrays are all there with the right markers. Anything
        // else takes the element-by-element path, which names the first bad byte.
        match shapes_region(r.remaining(), ndim) {
            Some(len) => r.advance(len),
            None => {
                r.read_array_header_exact(ndim)?;
                for _ in 0..ndim {
                    r.read_int64()?;
                }
                for _ in 0..2 {
                    r.read_array_header_exact(ndim)?;
                    for _ in 0..ndim {
                        r.read_int32()?;
                    }
                }
            }
        }
        let dtype_format = match layout {
            Layout::B2ndV1 => r.read_pfix()?,
            _ => 0,
        };
        let dtype = match layout {
            Layout::CatervaV0 => &[][..],
            _ => r.read_str32()?.as_bytes(),
        };
        let (bytes, rest) = bytes.split_at(r.position());
        let view = MetaRef {
            bytes,
            layout,
            ndim,
            dtype_format,
            dtype,
        };
        Ok((view, rest))
    }

    /// The metalayer's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Which layout it has.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.ndim
    }

    /// Length of each axis.
    pub fn shape(&self) -> Entries<'a, 8> {
        Entries::new(self.bytes, SHAPE_AT, self.ndim)
    }

    /// Chunk length along each axis.
    pub fn chunkshape(&self) -> Entries<'a, 4> {
        Entries::new(
            self.bytes,
            SHAPE_AT + 1 + self.ndim * wire::INT64_LEN,
            self.ndim,
        )
    }

    /// Block length along each axis.
    pub fn blockshape(&self) -> Entries<'a, 4> {
        let at = SHAPE_AT + 2 + self.ndim * (wire::INT64_LEN + wire::INT32_LEN);
        Entries::new(self.bytes, at, self.ndim)
    }

    /// The dtype_format; `None` for the layouts without one.
    pub fn dtype_format(&self) -> Option<u8> {
        (self.layout == Layout::B2ndV1).then_some(self.dtype_format)
    }

    /// The dtype string, borrowed; `None` for caterva.
    pub fn dtype(&self) -> Option<&'a str> {
        // Checked when the view was made, so this cannot fail.
        let dtype = core::str::from_utf8(self.dtype).ok()?;
        (self.layout != Layout::CatervaV0).then_some(dtype)
    }

    /// The owned metadata.
    pub fn to_meta(&self) -> Meta {
        let shape = self.shape().collect();
        let chunkshape = self.chunkshape().collect();
        let blockshape = self.blockshape().collect();
        match self.layout {
            Layout::CatervaV0 => Meta::CatervaV0(MetaV0Caterva {
                shape,
                chunkshape,
                blockshape,
            }),
            Layout::B2nd => Meta::B2nd(MetaB2nd {
                shape,
                chunkshape,
                blockshape,
                dtype: self.dtype().unwrap_or_default().into(),
            }),
            Layout::B2ndV1 => Meta::B2ndV1(MetaB2ndV1 {
                shape,
                chunkshape,
                blockshape,
                dtype_format: self.dtype_format,
                dtype: self.dtype().unwrap_or_default().into(),
            }),
        }
    }
}

/// The length of the shape, chunkshape and blockshape arrays at the start of `bytes`,
/// if all three are complete and well-formed for `ndim` axes.
#[inline]
fn shapes_region(bytes: &[u8], ndim: usize) -> Option<usize> {
    let len = 3 + ndim * (wire::INT64_LEN + 2 * wire::INT32_LEN);
    let header = wire::array_header(ndim)?;
    let (shape, rest) = bytes
        .get(..len)?
        .split_at_checked(1 + ndim * wire::INT64_LEN)?;
    let (chunks, blocks) = rest.split_at_checked(1 + ndim * wire::INT32_LEN)?;
    let ok = [shape[0], chunks[0], blocks[0]] == [header; 3]
        && shape[1..]
            .chunks_exact(wire::INT64_LEN)
            .all(|c| c[0] == wire::INT64)
        && chunks[1..]
            .chunks_exact(wire::INT32_LEN)
            .all(|c| c[0] == wire::INT32)
        && blocks[1..]
            .chunks_exact(wire::INT32_LEN)
            .all(|c| c[0] == wire::INT32);
    ok.then_some(len)
}

/// The entries of one shape array, read from the checked bytes: `W` is 8 for shape
/// (yielding `i64`) and 4 for chunkshape and blockshape (yielding `i32`).
#[derive(Clone, Debug)]
pub struct Entries<'a, const W: usize> {
    // Each chunk is one entry: marker + W bytes big-endian.
    chunks: core::slice::ChunksExact<'a, u8>,
}

impl<'a, const W: usize> Entries<'a, W> {
    fn new(bytes: &'a [u8], at: usize, ndim: usize) -> Self {
        // In range: `MetaRef::take` checked every entry before the view existed.
        let span = bytes.get(at..at + ndim * (1 + W)).unwrap_or(&[]);
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

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for Entries<'_, 8> {}
impl ExactSizeIterator for Entries<'_, 4> {}
impl FusedIterator for Entries<'_, 8> {}
impl FusedIterator for Entries<'_, 4> {}
