//! The bit stream zstd's entropy coders write forwards and its decoders read backwards
//! (`BIT_CStream_t` in `lib/common/bitstream.h`): fields packed from the lowest bit up,
//! closed by a 1 bit, so that the reader finds the last field first.

use alloc::vec::Vec;

/// Writes bit fields after what `out` holds.
pub(super) struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    container: u64,
    count: u32,
}

impl<'a> BitWriter<'a> {
    pub(super) fn new(out: &'a mut Vec<u8>) -> Self {
        BitWriter {
            out,
            container: 0,
            count: 0,
        }
    }

    /// Appends the low `bits` bits of `value` (at most 32 bits... at most 56 in all
    /// before a flush).
    #[inline(always)]
    pub(super) fn add(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 32);
        let masked = value & ((1u64 << bits) - 1);
        self.container |= masked << self.count;
        self.count += bits;
        if self.count >= 32 {
            self.out
                .extend_from_slice(&(self.container as u32).to_le_bytes());
            self.container >>= 32;
            self.count -= 32;
        }
    }

    /// Closes the stream with its end mark (a 1 bit) and writes the last byte(s).
    pub(super) fn close(mut self) {
        self.add(1, 1);
        let bytes = self.count.div_ceil(8) as usize;
        self.out
            .extend_from_slice(&self.container.to_le_bytes()[..bytes]);
    }
}
