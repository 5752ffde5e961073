//! Where the last step of a block's decoding writes the block: a slice (the caller's
//! buffer, a scratch buffer), or the end of the vector [`crate::chunk::decode`] grows,
//! appended to as the bytes come, in order, so that it is never zero-filled first.

use alloc::vec::Vec;

/// The block's bytes; offsets are from the block's start.
pub(super) enum Dest<'a> {
    Slice(&'a mut [u8]),
    /// The block from `start` of `vec`, which holds the blocks before it. `room` is the
    /// chunk's length, reserved at once by the first bytes appended (they come after a
    /// block's streams are decoded), so that no reallocation copies a block.
    Append {
        vec: &'a mut Vec<u8>,
        start: usize,
        room: usize,
    },
}

impl Dest<'_> {
    /// The same destination, borrowed for a step.
    pub(super) fn reborrow(&mut self) -> Dest<'_> {
        match self {
            Dest::Slice(s) => Dest::Slice(s),
            Dest::Append { vec, start, room } => Dest::Append {
                vec,
                start: *start,
                room: *room,
            },
        }
    }

    /// `bytes` at `at` (appended where the vector ends there).
    pub(super) fn put(&mut self, at: usize, bytes: &[u8]) {
        match self {
            Dest::Slice(s) => s[at..at + bytes.len()].copy_from_slice(bytes),
            Dest::Append { vec, start, room } if vec.len() == *start + at => {
                // A block's streams are decoded: room for the whole chunk now (touched
                // only as it is written), so that no later block is copied.
                let want = (vec.len() + bytes.len()).max(*room);
                if want > vec.capacity() {
                    if vec.is_empty() {
                        // A fresh allocation: `realloc` would copy the old capacity.
                        **vec = Vec::with_capacity(want);
                    } else {
                        vec.reserve_exact(want - vec.len());
                    }
                }
                vec.extend_from_slice(bytes);
            }
            Dest::Append { .. } => self.whole(at, bytes.len()).copy_from_slice(bytes),
        }
    }

    /// The `len` bytes at `at`, to be written in place: a vector's new bytes are zeros
    /// first. Before the first block is decoded the vector grows by that block only
    /// (from the caller's reservation); the whole chunk is reserved at the next.
    pub(super) fn whole(&mut self, at: usize, len: usize) -> &mut [u8] {
        match self {
            Dest::Slice(s) => &mut s[at..at + len],
            Dest::Append { vec, start, room } => {
                let (from, end) = (*start + at, *start + at + len);
                if end > vec.len() {
                    if end > vec.capacity() && !vec.is_empty() {
                        vec.reserve_exact(end.max(*room) - vec.len());
                    }
                    grow_zeroed(vec, end);
                }
                &mut vec[from..end]
            }
        }
    }

    /// Where the `len` bytes at `at` are written by stores of `width` bytes: in place
    /// where they start on a multiple of it, else in `buf` (a line), then copied or
    /// appended by [`Dest::commit`]: no store straddles two cache lines (large
    /// allocations start 16 bytes into one).
    #[cfg_attr(not(feature = "simd"), allow(dead_code))]
    pub(super) fn window<'b>(
        &'b mut self,
        at: usize,
        len: usize,
        buf: &'b mut [u8],
        width: usize,
    ) -> &'b mut [u8] {
        match self {
            Dest::Slice(s) if s[at..].as_ptr().addr().is_multiple_of(width) => &mut s[at..at + len],
            _ => &mut buf[..len],
        }
    }

    /// The bytes of the last [`Dest::window`] at `at` (`written`, when that was `buf`).
    #[cfg_attr(not(feature = "simd"), allow(dead_code))]
    pub(super) fn commit(&mut self, at: usize, written: &[u8], width: usize) {
        match self {
            Dest::Slice(s) if s[at..].as_ptr().addr().is_multiple_of(width) => {}
            _ => self.put(at, written),
        }
    }
}

/// Grows `v` to `len` bytes, the new ones zero. An empty vector gets a fresh zeroed
/// allocation (calloc: fresh pages are zero already), so a block that a hostile header
/// makes large costs nothing until its streams write it, where `resize` would write
/// every byte first.
pub(super) fn grow_zeroed(v: &mut Vec<u8>, len: usize) {
    if v.is_empty() && v.capacity() < len {
        *v = alloc::vec![0; len];
    } else {
        v.resize(len, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::Dest;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Bytes put in order, out of order, and written in place land where their offsets
    /// say, in a slice and in a vector alike.
    #[test]
    fn appends_in_order_and_places_the_rest() {
        let steps: [(usize, &[u8]); 3] = [(0, &[1, 2]), (2, &[3]), (5, &[6, 7])];
        let mut slice = vec![0; 7];
        let mut vec: Vec<u8> = vec![9];
        for dest in [
            &mut Dest::Slice(&mut slice[..]),
            &mut Dest::Append {
                vec: &mut vec,
                start: 1,
                room: 8,
            },
        ] {
            for (at, bytes) in steps {
                dest.put(at, bytes);
            }
            dest.whole(3, 2).copy_from_slice(&[4, 5]);
        }
        assert_eq!(slice, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(vec, [9, 1, 2, 3, 4, 5, 6, 7]);
    }
}
