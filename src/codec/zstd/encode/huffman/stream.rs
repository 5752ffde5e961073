//! A Huffman stream's bits (`HUF_compress1X_usingCTable_internal_body`): codes put at
//! the top of a 64-bit container shifted down by their lengths (no running bit count
//! in the way), as many between flushes as the longest code lets fit, and two
//! containers taking turns, merged before every other flush, so that two chains run
//! at once; compiled with BMI2's shifts by a register where the CPU has them.

use super::Code;
use crate::simd::{ScalarKernel, Unit};

impl Code {
    /// Writes one stream at the start of `out` and returns its length: the codes of
    /// `literals`, last first, from the code's elements, run on [`Unit::scalar`]
    /// (BMI2's shifts by a register: one instruction where x86-64's take three). `out`
    /// must hold the stream's bytes and [`WINDOW`] more.
    pub(super) fn encode_stream(&self, literals: &[u8], out: &mut [u8]) -> usize {
        Unit::scalar().run(Stream {
            max_bits: self.max_bits,
            table: &self.elements,
            literals,
            out,
        })
    }
}

/// [`Code::encode_stream`] with `K` codes between flushes (7 bits left by a flush plus
/// `K` codes stay within 64). The codes are put with their lengths' byte (`HUF_CElt`
/// whole, libzstd's `kFast`): it stays below the container's bits while 7 plus the
/// bits put so far plus the bits of the longest length stay within 64; the last code of
/// a group is put without it unless `LAST_FAST` (that holds for the whole group).
#[inline(always)]
fn encode_stream_k<const K: usize, const LAST_FAST: bool>(
    table: &[u64; 256],
    literals: &[u8],
    out: &mut [u8],
) -> usize {
    let mut w = TopOut::default();
    let mut pos = 0;
    let (groups, tail) = literals.as_chunks::<K>();
    // The tail (coded first), then an odd group, then pairs of groups, last first.
    for &b in tail.iter().rev() {
        w.put(table[usize::from(b)]);
    }
    if !tail.is_empty() {
        pos = w.flush(out, pos);
    }
    let (pairs, odd) = groups.split_at(groups.len() & !1);
    for group in odd {
        w.put_group::<K, LAST_FAST>(table, group);
        pos = w.flush(out, pos);
    }
    // Pairs by four, last first, then the first few one by one: their flushes write
    // into windows of `out` taken whole (each flush steps 0 to 7 bytes and writes 8, so
    // that four pairs' writes stay within [`WINDOW`] bytes), a bounds test per window
    // where each flush had its own (libzstd's `kFastFlush` has none).
    let (pairs, _) = pairs.as_chunks::<2>();
    let (few, fours) = pairs.as_rchunks::<4>();
    for [a, b, c, d] in fours.iter().rev() {
        let Some(window) = out[pos..].first_chunk_mut::<WINDOW>() else {
            unreachable!("room for the stream and a window");
        };
        let mut at = w.put_pair::<K, LAST_FAST>(table, d, window, 0);
        at = w.put_pair::<K, LAST_FAST>(table, c, window, at);
        at = w.put_pair::<K, LAST_FAST>(table, b, window, at);
        pos += w.put_pair::<K, LAST_FAST>(table, a, window, at);
    }
    for pair in few.iter().rev() {
        let Some(window) = out[pos..].first_chunk_mut::<16>() else {
            unreachable!("room for the stream and a window");
        };
        pos += w.put_pair::<K, LAST_FAST>(table, pair, window, 0);
    }
    // The end mark.
    w.put(1 << 63 | 1);
    pos = w.flush(out, pos);
    pos + usize::from(w.bits > 0)
}

/// The bytes four pairs of groups' flushes may write (7 bytes stepped over by each but
/// the last, then 8).
pub(super) const WINDOW: usize = 64;
const _: () = assert!(7 * 7 + 8 <= WINDOW);

/// One stream to code, as a kernel.
struct Stream<'a> {
    max_bits: u32,
    table: &'a [u64; 256],
    literals: &'a [u8],
    out: &'a mut [u8],
}

impl ScalarKernel for Stream<'_> {
    type Output = usize;

    #[inline(always)]
    fn run(self) -> usize {
        let Stream {
            max_bits,
            table,
            literals,
            out,
        } = self;
        // As `HUF_compress1X_usingCTable_internal_body` picks its `kUnroll` and
        // `kLastFast` (lengths of 10 bits and less take 4 bits).
        match max_bits {
            11.. => encode_stream_k::<5, false>(table, literals, out),
            10 => encode_stream_k::<5, true>(table, literals, out),
            9 => encode_stream_k::<6, false>(table, literals, out),
            8 => encode_stream_k::<7, false>(table, literals, out),
            7 => encode_stream_k::<8, false>(table, literals, out),
            _ => encode_stream_k::<9, true>(table, literals, out),
        }
    }
}

/// A bit stream's container, filling from the top (`HUF_CStream_t`).
#[derive(Default)]
struct TopOut {
    container: u64,
    /// Bits in the container not yet written (in the low byte; above it, what
    /// [`put_fast`](TopOut::put_fast) adds).
    bits: u64,
}

impl TopOut {
    /// Adds a `HUF_CElt` (a code at the top, its length in the low byte).
    #[inline(always)]
    fn put(&mut self, e: u64) {
        self.container = (self.container >> (e & 63)) | (e & !0xff);
        self.bits += e & 0xff;
    }

    /// Adds a `HUF_CElt` whole: its length's byte goes in the container below its bits
    /// and in `bits` above its low byte (`HUF_addBits` with `kFast`).
    #[inline(always)]
    fn put_fast(&mut self, e: u64) {
        self.container = self.container.wrapping_shr(e as u32) | e;
        self.bits = self.bits.wrapping_add(e);
    }

    /// Puts the `K` codes of `group`, last first, the last one of them with
    /// [`put_fast`](TopOut::put_fast) only if `LAST_FAST`.
    #[inline(always)]
    fn put_group<const K: usize, const LAST_FAST: bool>(
        &mut self,
        table: &[u64; 256],
        group: &[u8; K],
    ) {
        for &b in group[1..].iter().rev() {
            self.put_fast(table[usize::from(b)]);
        }
        let e = table[usize::from(group[0])];
        if LAST_FAST {
            self.put_fast(e);
        } else {
            self.put(e);
        }
    }

    /// Puts a pair of groups, last first: the second group, flushed, then the first in
    /// a second container from empty, merged and flushed (two chains at once); the
    /// flushes write at `at` of `window` and after; returns where the next write goes.
    #[inline(always)]
    fn put_pair<const K: usize, const LAST_FAST: bool>(
        &mut self,
        table: &[u64; 256],
        [first, second]: &[[u8; K]; 2],
        window: &mut [u8],
        at: usize,
    ) -> usize {
        self.put_group::<K, LAST_FAST>(table, second);
        let at = self.flush(window, at);
        let mut c1 = TopOut::default();
        c1.put_group::<K, LAST_FAST>(table, first);
        self.container = self.container.wrapping_shr(c1.bits as u32) | c1.container;
        self.bits = self.bits.wrapping_add(c1.bits);
        self.flush(window, at)
    }

    /// Writes the container's bits at `at` of `out` (8 bytes), keeping the last 0 to 7
    /// of them, and returns where the next write goes: `at` plus 0 to 7.
    #[inline(always)]
    fn flush(&mut self, out: &mut [u8], at: usize) -> usize {
        // The shift by 64 minus the bits, taken mod 64 (all that the low byte's 0 to 63
        // decide, whatever `put_fast` added above it): with none, the whole container
        // goes out without a step, to be written over by the next flush.
        let value = self
            .container
            .wrapping_shr((self.bits as u32).wrapping_neg());
        out[at..at + 8].copy_from_slice(&value.to_le_bytes());
        let step = (self.bits >> 3 & 7) as usize;
        self.bits &= 7;
        at + step
    }
}
