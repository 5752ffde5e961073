//! The block buffers of a chunk (the streams' output, the filters' other sides),
//! kept between the chunks one thread decodes (with `std`), as C-Blosc2 keeps its
//! context's: the next chunk's blocks then cost no allocation and no zero-filling. Their
//! bytes are never read before the streams or a filter overwrite them whole.

use alloc::vec::Vec;

use crate::chunk::dest::grow_zeroed;

/// The scratch buffers of a block: three for the filter pipeline (the streams go to
/// the first), one for bitshuffle's transposed bytes, and a last one that only ever
/// holds zeros ([`zeros`]).
pub(super) type Buffers = [Vec<u8>; 5];

/// `len` zeros from `v` (the last of [`Buffers`], which holds nothing else), grown by
/// zeros when shorter: the row of a stream of zeros, which the unshuffle reads where C
/// fills the stream first.
pub(super) fn zeros(v: &mut Vec<u8>, len: usize) -> &[u8] {
    if v.len() < len {
        grow_zeroed(v, len);
    }
    &v[..len]
}

/// The largest buffer kept between chunks, per thread.
#[cfg(feature = "std")]
const KEEP: usize = 2 << 20;

#[cfg(feature = "std")]
std::thread_local! {
    static KEPT: core::cell::Cell<Buffers> = const {
        core::cell::Cell::new([Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new()])
    };
}

pub(super) fn take() -> Buffers {
    #[cfg(feature = "std")]
    return KEPT.take();
    #[cfg(not(feature = "std"))]
    Default::default()
}

pub(super) fn keep(bufs: Buffers) {
    #[cfg(feature = "std")]
    if bufs.iter().all(|b| b.capacity() <= KEEP) {
        KEPT.set(bufs);
    }
    #[cfg(not(feature = "std"))]
    drop(bufs);
}

/// A cache line: a block's streams and the filters' buffers start on one, so that the
/// filters' vector loads never straddle two lines (a large allocation starts 16 bytes
/// into one).
const LINE: usize = 64;

/// `len` bytes of `v` that start a cache line, whose old bytes are not needed (`v` is
/// [`fit`] to hold them).
pub(super) fn line(v: &mut Vec<u8>, len: usize) -> &mut [u8] {
    fit(v, len + LINE);
    lined_mut(v, len)
}

/// The `len` bytes [`line`] gave of `v`, again.
pub(super) fn lined(v: &[u8], len: usize) -> &[u8] {
    let at = line_start(v);
    &v[at..at + len]
}

/// [`lined`], to be written.
pub(super) fn lined_mut(v: &mut [u8], len: usize) -> &mut [u8] {
    let at = line_start(v);
    &mut v[at..at + len]
}

/// Where the first cache line of `v`'s bytes starts.
fn line_start(v: &[u8]) -> usize {
    v.as_ptr().addr().next_multiple_of(LINE) - v.as_ptr().addr()
}

/// `v` at `len` bytes, whose old bytes are not needed: shortened, grown by zeros
/// within its capacity, or, beyond it, [`grow_zeroed`]'s fresh allocation.
pub(super) fn fit(v: &mut Vec<u8>, len: usize) {
    if v.capacity() < len {
        // Its bytes are not needed: emptied, it gets the fresh allocation.
        v.clear();
    }
    grow_zeroed(v, len);
}
