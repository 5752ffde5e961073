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

/// The same stream written without a test per field (`BIT_addBits` /
/// `BIT_flushBits`): fields go into a 64-bit container that the caller flushes
/// often enough to never overflow it, each flush writing all 8 bytes into room made
/// beforehand and stepping over the whole ones, its position held below the room's
/// end (as `BIT_flushBits` does: a compare, not a test and a panic per flush) and
/// overflow caught when closing.
pub(super) struct BitOut<'a> {
    out: &'a mut [u8],
    pos: usize,
    /// `out.len() - 8`: the last position an 8-byte write fits at.
    limit: usize,
    container: u64,
    count: u32,
}

impl<'a> BitOut<'a> {
    /// A stream into `out`, which must hold its bytes plus 8.
    #[inline(always)]
    pub(super) fn new(out: &'a mut [u8]) -> Self {
        let limit = out.len().checked_sub(8).expect("room for a flush");
        BitOut {
            out,
            pos: 0,
            limit,
            container: 0,
            count: 0,
        }
    }

    /// Appends the low `bits` bits of `value` (at most 32; the container's bits
    /// since the last flush must stay below 64).
    #[inline(always)]
    pub(super) fn add(&mut self, value: u64, bits: u32) {
        self.container |= (value & ((1 << bits) - 1)) << self.count;
        self.count += bits;
    }

    /// Writes the container's whole bytes, keeping the last 0 to 7 bits.
    #[inline(always)]
    pub(super) fn flush(&mut self) {
        let whole = self.count >> 3;
        let pos = self.pos.min(self.limit);
        self.out[pos..pos + 8].copy_from_slice(&self.container.to_le_bytes());
        self.pos = pos + whole as usize;
        self.container >>= whole * 8;
        self.count &= 7;
    }

    /// Closes the stream with its end mark and returns its length in bytes.
    #[inline(always)]
    pub(super) fn close(mut self) -> usize {
        self.add(1, 1);
        self.flush();
        // Once past `limit` (held there), never below it again: the room was too
        // small.
        assert!(self.pos < self.limit, "bit stream overflow");
        self.pos + usize::from(self.count > 0)
    }
}
