//! The backward bit reader of zstd's entropy-coded streams, with libzstd's behaviour
//! (1.5.7, C-Blosc2 3.3.5's, as 1.5.6) at and past a stream's start
//! (`lib/common/bitstream.h`, `BIT_DStream_t`):
//! what a corrupted stream decodes to, and whether it ends exactly, follows from it.
//!
//! A stream is read from its last byte down; the highest set bit of the last byte
//! marks where the bits begin. `container` holds the 8 bytes at `ptr` (little-endian),
//! `consumed` counts the bits of it already read from the top.

/// What a reload found, as `BIT_DStream_status`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Status {
    /// At least 57 bits are ready.
    Unfinished,
    /// The start is reached, some bits remain.
    EndOfBuffer,
    /// Every bit is read, no more.
    Completed,
    /// More bits were read than the stream holds.
    Overflow,
}

/// A backward bit reader over `src[start..]`, the part before `start` out of reach.
#[derive(Clone)]
pub(super) struct BitStream<'a> {
    src: &'a [u8],
    start: usize,
    ptr: usize,
    container: u64,
    consumed: u32,
    /// Once overflowed, libzstd points `ptr` at a static zero: the stream can no longer end.
    overflow: bool,
}

/// The 8 bytes at `at`, little-endian (0 past the end: the caller keeps `at + 8`
/// within `src`).
#[inline(always)]
pub(super) fn le64(src: &[u8], at: usize) -> u64 {
    src.get(at..)
        .and_then(|s| s.first_chunk::<8>())
        .map_or(0, |b| u64::from_le_bytes(*b))
}

impl<'a> BitStream<'a> {
    /// `BIT_initDStream` on `src[start..end]`: `None` when it is empty or its last byte
    /// holds no end mark.
    pub(super) fn new(src: &'a [u8], start: usize, end: usize) -> Option<Self> {
        let bytes = src.get(start..end)?;
        let &last = bytes.last()?;
        if last == 0 {
            return None;
        }
        let mark = 8 - (7 - last.leading_zeros());
        let (ptr, container, consumed) = if bytes.len() >= 8 {
            (end - 8, le64(src, end - 8), mark)
        } else {
            let v = bytes.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
            (start, v, mark + (8 - bytes.len() as u32) * 8)
        };
        Some(BitStream {
            src,
            start,
            ptr,
            container,
            consumed,
            overflow: false,
        })
    }

    /// A reader resumed at `ptr` with `consumed` bits of its container read
    /// (`HUF_initRemainingDStream`); `ptr + 8` is within `src`.
    pub(super) fn resume(src: &'a [u8], start: usize, ptr: usize, consumed: u32) -> Self {
        BitStream {
            src,
            start,
            ptr,
            container: le64(src, ptr),
            consumed,
            overflow: false,
        }
    }

    /// The next `n` bits (1 to 56), as `BIT_lookBitsFast` (a shift that wraps past 64).
    #[inline(always)]
    pub(super) fn peek_fast(&self, n: u32) -> u64 {
        (self.container << (self.consumed & 63)) >> ((64 - n) & 63)
    }

    /// The next `n` bits (0 to 56), as `BIT_lookBits`.
    #[inline(always)]
    fn peek(&self, n: u32) -> u64 {
        ((self.container << (self.consumed & 63)) >> 1) >> ((63 - n) & 63)
    }

    #[inline(always)]
    pub(super) fn skip(&mut self, n: u32) {
        self.consumed += n;
    }

    /// Reads `n` bits, 0 to 56 (`BIT_readBits`).
    #[inline(always)]
    pub(super) fn read(&mut self, n: u32) -> u64 {
        let v = self.peek(n);
        self.consumed += n;
        v
    }

    /// Reads `n` bits, 1 to 56 (`BIT_readBitsFast`).
    #[inline(always)]
    pub(super) fn read_fast(&mut self, n: u32) -> u64 {
        let v = self.peek_fast(n);
        self.consumed += n;
        v
    }

    /// Bits consumed of the container: past 64, the stream is read beyond its start.
    pub(super) fn consumed(&self) -> u32 {
        self.consumed
    }

    /// `BIT_reloadDStream`.
    #[inline(always)]
    pub(super) fn reload(&mut self) -> Status {
        if self.consumed > 64 || self.overflow {
            self.overflow = true;
            return Status::Overflow;
        }
        if self.ptr >= self.start + 8 {
            self.ptr -= (self.consumed >> 3) as usize;
            self.consumed &= 7;
            self.container = le64(self.src, self.ptr);
            return Status::Unfinished;
        }
        if self.ptr == self.start {
            return if self.consumed < 64 {
                Status::EndOfBuffer
            } else {
                Status::Completed
            };
        }
        let mut bytes = (self.consumed >> 3) as usize;
        let mut status = Status::Unfinished;
        if bytes > self.ptr - self.start {
            bytes = self.ptr - self.start;
            status = Status::EndOfBuffer;
        }
        self.ptr -= bytes;
        self.consumed -= bytes as u32 * 8;
        self.container = le64(self.src, self.ptr);
        status
    }

    /// `BIT_reloadDStreamFast`: an overflow as soon as fewer than 8 bytes are left.
    pub(super) fn reload_fast(&mut self) -> Status {
        if self.ptr < self.start + 8 {
            return Status::Overflow;
        }
        self.reload()
    }

    /// Read bits past the start count as read up to it (`HUF_decodeLastSymbolX2`).
    pub(super) fn clamp_to_start(&mut self) {
        self.consumed = self.consumed.min(64);
    }

    /// Every bit read, no more (`BIT_endOfDStream`).
    pub(super) fn finished(&self) -> bool {
        !self.overflow && self.ptr == self.start && self.consumed == 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (stream, bit counts to read (a reload after each), the values read, the last
    /// reload's status, whether the stream then ends exactly).
    #[test]
    fn reads_back_from_the_end_mark() {
        type Case<'a> = (&'a [u8], &'a [u32], &'a [u64], Status, bool);
        let cases: [Case; 6] = [
            // 0b101: the mark, then bits 0 and 1.
            (&[0x05], &[1, 1], &[0, 1], Status::Completed, true),
            (&[0x05], &[2], &[1], Status::Completed, true),
            (&[0x05], &[1], &[0], Status::EndOfBuffer, false),
            // A whole byte under a mark byte; one bit too many overflows.
            (&[0xab, 0x01], &[4, 4], &[0xa, 0xb], Status::Completed, true),
            (
                &[0xab, 0x01],
                &[4, 5],
                &[0xa, 0x16],
                Status::Overflow,
                false,
            ),
            // Eight bytes or more: the top 8 in the container, the next reloaded.
            (
                &[1, 2, 3, 4, 5, 6, 7, 8, 0x80],
                &[7, 8, 8],
                &[0, 8, 7],
                Status::EndOfBuffer,
                false,
            ),
        ];
        for (i, (src, reads, values, status, finished)) in cases.into_iter().enumerate() {
            let mut bits = BitStream::new(src, 0, src.len()).expect("an end mark");
            let mut last = Status::Unfinished;
            for (&n, &v) in reads.iter().zip(values) {
                assert_eq!(bits.read(n), v, "case {i}, {n} bits");
                last = bits.reload();
            }
            assert_eq!(last, status, "case {i}");
            assert_eq!(bits.finished(), finished, "case {i}");
        }
    }

    #[test]
    fn no_end_mark_no_stream() {
        assert!(BitStream::new(&[0x12, 0x00], 0, 2).is_none());
        assert!(BitStream::new(&[], 0, 0).is_none());
        assert!(BitStream::new(&[0x12, 0x01], 1, 1).is_none());
    }

    #[test]
    fn le64_is_zero_past_the_end() {
        assert_eq!(le64(&[1, 2, 3, 4, 5, 6, 7, 8], 0), 0x0807_0605_0403_0201);
        assert_eq!(le64(&[1, 2, 3, 4, 5, 6, 7, 8], 1), 0);
    }
}
