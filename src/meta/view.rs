//! [`MetaRef`]: a checked, zero-copy view of an encoded metalayer.

use core::iter::FusedIterator;

use crate::meta::dims::Dims;
use crate::meta::error::{Error, ErrorKind, Result};
use crate::meta::layout::{
    check_ndim, check_version, layout_of_count, Geometry, Layout, Parts, MAX_DIM, VERSION,
};
use crate::meta::small_string::SmallString;
use crate::wire::marker::{INT32, INT64};
use crate::wire::read::{int32_value, int64_value, Reader};
use crate::wire::write::{array_header, INT32_LEN, INT64_LEN};

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
    layout: Layout,
    /// At most 16; a `u8`, so that the offsets computed from it cannot overflow.
    ndim: u8,
    dtype_format: u8,
    /// Checked to be UTF-8 (kept as bytes: ASCII needs no second pass).
    dtype: &'a [u8],
}

impl<'a> MetaRef<'a> {
    /// Checks that `bytes` hold exactly one metalayer of any layout.
    #[inline]
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        // Each path returns on its own, so that the fast one writes the view straight
        // into the result (joined, the two would pass it through the stack).
        match check_fast(bytes, None) {
            Some((checked, [])) => Ok(checked.view),
            Some((checked, rest)) => Err(trailing(checked.view.bytes.len(), rest.len())),
            None => Self::parse_checked(bytes),
        }
    }

    /// Checks the metalayer at the start of `bytes`; returns it and the bytes after it.
    #[inline]
    pub fn take(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
        match check_fast(bytes, None) {
            Some((checked, rest)) => Ok((checked.view, rest)),
            None => Self::take_checked(bytes),
        }
    }

    /// [`parse`](Self::parse) through the reader.
    #[cold]
    #[inline(never)]
    fn parse_checked(bytes: &'a [u8]) -> Result<Self> {
        let (view, rest) = Self::take_checked(bytes)?;
        match rest.len() {
            0 => Ok(view),
            count => Err(trailing(view.bytes.len(), count)),
        }
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
        let ndim = check_ndim(r.read_pfix()?).map_err(|e: Error| e.or_at(at))?;
        let n = usize::from(ndim);
        r.read_int64_array(n)?;
        r.read_int32_array(n)?;
        r.read_int32_array(n)?;
        let dtype_format = match layout.has_dtype_format() {
            true => r.read_pfix()?,
            false => 0,
        };
        let dtype = match layout.has_dtype() {
            true => r.read_str32()?.as_bytes(),
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
        ndim: u8,
        dtype_format: u8,
        dtype: &'a [u8],
    ) -> (Self, &'a [u8]) {
        let (bytes, rest) = bytes.split_at(len);
        let view = MetaRef {
            bytes,
            layout,
            ndim,
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
        self.layout
    }

    /// Number of dimensions.
    #[inline]
    pub fn ndim(&self) -> usize {
        usize::from(self.ndim)
    }

    /// Where each element is.
    #[inline(always)]
    fn geometry(&self) -> Geometry {
        Geometry::new(self.layout, self.ndim, self.dtype.len())
    }

    /// The encoded entries of the shape array whose header is at `at`: each a marker
    /// and a big-endian value.
    #[inline(always)]
    fn encoded<const N: usize>(&self, at: usize) -> &'a [[u8; N]] {
        // In range: the view was made after every entry was checked.
        entries_at(self.bytes, at, self.ndim)
    }

    /// Length of each axis.
    #[inline]
    pub fn shape(&self) -> Entries<'a, 8> {
        Entries::new(self.checked().shape.as_flattened())
    }

    /// Chunk length along each axis.
    #[inline]
    pub fn chunkshape(&self) -> Entries<'a, 4> {
        Entries::new(self.checked().chunkshape.as_flattened())
    }

    /// Block length along each axis.
    #[inline]
    pub fn blockshape(&self) -> Entries<'a, 4> {
        Entries::new(self.checked().blockshape.as_flattened())
    }

    /// The view with the places of its entries, found again from its geometry.
    #[inline]
    pub(crate) fn checked(&self) -> Checked<'a> {
        let g = self.geometry();
        Checked {
            view: *self,
            shape: self.encoded(g.shape_at()),
            chunkshape: self.encoded(g.chunkshape_at()),
            blockshape: self.encoded(g.blockshape_at()),
        }
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
}

/// The `ndim` entries of `N` bytes (a marker and a big-endian value) of the shape array
/// whose header is at `at` in `bytes`, a metalayer from its first byte; none where
/// `bytes` is too short.
#[inline(always)]
fn entries_at<const N: usize>(bytes: &[u8], at: usize, ndim: u8) -> &[[u8; N]] {
    let start = at + 1;
    let span = bytes.get(start..start + usize::from(ndim) * N);
    span.unwrap_or_default().as_chunks().0
}

/// `count` bytes after the metalayer, which ends at `at`.
#[cold]
fn trailing(at: usize, count: usize) -> Error {
    Error::at(at, ErrorKind::TrailingBytes { count })
}

/// A metalayer checked by the fast path, with the entries of its shapes where the
/// check found them: what the owned types are built from.
#[derive(Clone, Copy)]
pub(crate) struct Checked<'a> {
    pub view: MetaRef<'a>,
    shape: &'a [[u8; INT64_LEN]],
    chunkshape: &'a [[u8; INT32_LEN]],
    blockshape: &'a [[u8; INT32_LEN]],
}

/// The fast path of [`MetaRef::take`], of layout `expect` when given: every check, none
/// of the error plumbing; `None` when the bytes are not such a metalayer (the reader's
/// path then names the first bad byte).
#[inline(always)]
pub(crate) fn check_fast(bytes: &[u8], expect: Option<Layout>) -> Option<(Checked<'_>, &[u8])> {
    let layout = Layout::from_header(*bytes.first()?)?;
    if expect.is_some_and(|expect| expect != layout) {
        return None;
    }
    let mut head = Reader::new_at(bytes, 1);
    let version = head.try_pfix()?;
    let ndim = head.try_pfix()?;
    if version != VERSION || usize::from(ndim) > MAX_DIM {
        return None;
    }
    // The three shape arrays: one bounds check, then their headers and every marker in
    // one pass over the axes, each place from the geometry.
    let g = Geometry::new(layout, ndim, 0);
    let arrays = bytes.get(..g.shapes_end())?;
    let shape = entries_at::<INT64_LEN>(arrays, g.shape_at(), ndim);
    let chunkshape = entries_at::<INT32_LEN>(arrays, g.chunkshape_at(), ndim);
    let blockshape = entries_at::<INT32_LEN>(arrays, g.blockshape_at(), ndim);
    let header = array_header(usize::from(ndim));
    let mut ok = (arrays.get(g.shape_at()).copied() == header)
        & (arrays.get(g.chunkshape_at()).copied() == header)
        & (arrays.get(g.blockshape_at()).copied() == header);
    for ((s, c), b) in shape.iter().zip(chunkshape).zip(blockshape) {
        ok &= (s[0] == INT64) & (c[0] == INT32) & (b[0] == INT32);
    }
    if !ok {
        return None;
    }
    let mut r = Reader::new_at(bytes, g.shapes_end());
    let dtype_format = match layout.has_dtype_format() {
        true => r.try_pfix()?,
        false => 0,
    };
    let dtype = match layout.has_dtype() {
        true => r.try_str32_bytes()?,
        false => &[],
    };
    let (view, rest) = MetaRef::split(bytes, r.position(), layout, ndim, dtype_format, dtype);
    let checked = Checked {
        view,
        shape,
        chunkshape,
        blockshape,
    };
    Some((checked, rest))
}

impl Checked<'_> {
    /// The layout.
    #[inline(always)]
    pub fn layout(&self) -> Layout {
        self.view.layout
    }

    /// The dtype_format as stored (0 for the layouts without one).
    #[inline(always)]
    pub fn raw_dtype_format(&self) -> u8 {
        self.view.dtype_format
    }

    /// The dtype, owned (empty for caterva); checked to be UTF-8 already.
    #[inline(always)]
    pub fn owned_dtype(&self) -> SmallString {
        SmallString::from_checked_utf8(self.view.dtype)
    }

    /// Copies the three shapes into `shapes`, in place (so that a value built empty
    /// where it will stay is filled there, with no copy of the whole).
    #[inline(always)]
    pub fn fill_shapes(&self, shapes: (&mut Dims<i64>, &mut Dims<i32>, &mut Dims<i32>)) {
        let (shape, chunkshape, blockshape) = shapes;
        shape.set_entries(self.shape.iter().map(int64_value));
        chunkshape.set_entries(self.chunkshape.iter().map(int32_value));
        blockshape.set_entries(self.blockshape.iter().map(int32_value));
    }
}

/// The owned metalayer types: built straight from a checked view (this crate's format,
/// through raw access) or from decoded parts (any other serde format).
pub(crate) trait Owned: Sized {
    /// The one layout the type holds; `None` for [`crate::Meta`], which holds any.
    const LAYOUT: Option<Layout>;

    /// The values of `checked` (which has layout [`LAYOUT`](Self::LAYOUT) when that is
    /// set) but its shapes, left empty for [`Checked::fill_shapes`].
    fn empty_from_checked(checked: &Checked<'_>) -> Self;

    /// The three shapes, to be filled in place.
    fn shapes_mut(&mut self) -> (&mut Dims<i64>, &mut Dims<i32>, &mut Dims<i32>);

    /// The values of `checked`: built empty where they stay, then filled in place (one
    /// copy of the whole at most, where building from filled parts makes several).
    #[inline(always)]
    fn from_checked(checked: &Checked<'_>) -> Self {
        let mut value = Self::empty_from_checked(checked);
        checked.fill_shapes(value.shapes_mut());
        value
    }

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
    /// The entries encoded in `entries`, `1 + W` bytes each.
    #[inline]
    fn new(entries: &'a [u8]) -> Self {
        Entries {
            chunks: entries.chunks_exact(1 + W),
        }
    }
}

/// The iterator of `W`-byte entries, yielding `$item` read by `$value`.
macro_rules! entries {
    ($($w:literal => $item:ty, $value:ident;)*) => {$(
        impl Iterator for Entries<'_, $w> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<$item> {
                // Each chunk is exactly one entry long.
                self.chunks.next()?.try_into().ok().map($value)
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.chunks.size_hint()
            }
        }

        impl ExactSizeIterator for Entries<'_, $w> {}
        impl FusedIterator for Entries<'_, $w> {}
    )*};
}

entries! {
    8 => i64, int64_value;
    4 => i32, int32_value;
}

#[cfg(test)]
mod tests {
    //! The fast check and the reader's path must accept exactly the same bytes, with the
    //! same view: the reader's path names the errors, so a byte the fast check accepted
    //! and the reader refuses (or the reverse) would be a metalayer read differently by
    //! `from_slice` and by C-Blosc2's rules. Every single-byte change and every cut of
    //! metalayers of each layout, with ASCII, other UTF-8 and long dtypes.
    use alloc::vec::Vec;

    use super::*;
    use crate::meta::encode;
    use crate::meta::layout::PartsRef;

    fn bases() -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for ndim in [0usize, 1, 3, 16] {
            let shape: Vec<i64> = (0..ndim as i64).map(|i| 1000 - 7 * i).collect();
            let chunkshape: Vec<i32> = (0..ndim as i32).map(|i| 100 + i).collect();
            let blockshape: Vec<i32> = (0..ndim as i32).map(|i| 10 - i).collect();
            for layout in [Layout::V0Caterva, Layout::B2nd, Layout::B2ndV1] {
                for dtype in ["<f8", "", "é", "[('a', '<i4'), ('b', '<f8')]"] {
                    if layout == Layout::V0Caterva && !dtype.is_empty() {
                        continue; // caterva has no dtype
                    }
                    let parts = PartsRef {
                        layout,
                        shape: &shape,
                        chunkshape: &chunkshape,
                        blockshape: &blockshape,
                        dtype_format: 0,
                        dtype: dtype.as_bytes(),
                    };
                    out.push(encode::encode_to_vec(&parts).unwrap());
                }
            }
        }
        out
    }

    fn agree(bytes: &[u8]) {
        let fast = check_fast(bytes, None).map(|(c, rest)| (c.view, rest));
        let checked = MetaRef::take_checked(bytes).ok();
        assert_eq!(fast, checked, "{bytes:02x?}");
        if let Some((view, _)) = fast {
            // The entries the fast check found are the view's.
            let c = check_fast(bytes, Some(view.layout())).unwrap().0;
            assert_eq!(c.shape, view.checked().shape);
            assert_eq!(c.chunkshape, view.checked().chunkshape);
            assert_eq!(c.blockshape, view.checked().blockshape);
        }
        for layout in [Layout::V0Caterva, Layout::B2nd, Layout::B2ndV1] {
            let expected = checked.filter(|(view, _)| view.layout() == layout);
            let found = check_fast(bytes, Some(layout)).map(|(c, rest)| (c.view, rest));
            assert_eq!(found, expected, "{layout}: {bytes:02x?}");
        }
    }

    #[test]
    fn fast_check_accepts_what_the_reader_accepts() {
        for base in bases() {
            agree(&base);
            for cut in 0..base.len() {
                agree(&base[..cut]);
            }
            let mut bytes = base.clone();
            bytes.push(0x00);
            agree(&bytes);
            for at in 0..base.len() {
                let mut bytes = base.clone();
                for value in 0..=u8::MAX {
                    bytes[at] = value;
                    agree(&bytes);
                }
            }
        }
    }
}
