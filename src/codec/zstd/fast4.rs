//! The state of libzstd's fast 4-stream Huffman loops (`HUF_decompress4X1_usingDTable_
//! internal_fast_c_loop` and its X2 twin), shared by the single- and double-symbol
//! decoders: where each stream reads (from its end down), where it writes, and its bit
//! container (a word whose lowest set bit is a sentinel).

use super::bits::{le64, BitStream};

/// Four streams between their rounds of the fast loop.
#[derive(Clone, Copy)]
pub(super) struct Fast4 {
    /// Where each stream's 8-byte word is read.
    pub(super) ip: [usize; 4],
    /// Where each stream writes next.
    pub(super) op: [usize; 4],
    /// Each stream's bits, consumed from the top; a sentinel bit below the last.
    pub(super) bits: [u64; 4],
    /// Each stream's share of the output (the last one's is what is left).
    pub(super) seg: usize,
}

impl Fast4 {
    /// The four streams of `src` starting at `starts`, for an output of `len` bytes;
    /// `None` when the last stream writes nothing (libzstd does not take the loop).
    #[inline(always)]
    pub(super) fn start(src: &[u8], starts: [usize; 4], len: usize) -> Option<Fast4> {
        let seg = len.div_ceil(4);
        let ip = [starts[1] - 8, starts[2] - 8, starts[3] - 8, src.len() - 8];
        let op = [0, seg, 2 * seg, 3 * seg];
        if op[3] >= len {
            return None;
        }
        let bits = ip.map(|at| {
            let last = src[at + 7];
            let consumed = if last == 0 {
                0
            } else {
                last.leading_zeros() + 1
            };
            (le64(src, at) | 1) << consumed
        });
        Some(Fast4 { ip, op, bits, seg })
    }

    /// Whether a stream's reads have met those of the stream before it (the loop ends).
    #[inline(always)]
    pub(super) fn crossed(&self) -> bool {
        (1..4).any(|s| self.ip[s] < self.ip[s - 1])
    }

    /// Each stream's word read again where its consumed whole bytes leave it.
    #[inline(always)]
    pub(super) fn reload(&mut self, src: &[u8]) -> Result<(), &'static str> {
        for s in 0..4 {
            let ctz = self.bits[s].trailing_zeros();
            self.ip[s] = self.ip[s]
                .checked_sub((ctz >> 3) as usize)
                .ok_or("Huffman streams within the literals")?;
            self.bits[s] = (le64(src, self.ip[s]) | 1) << (ctz & 7);
        }
        Ok(())
    }

    /// Stream `i` as a bit reader, to finish it up to `end` without the fast loop
    /// (`HUF_initRemainingDStream`: at most 8 bytes read before the stream's start).
    pub(super) fn rest<'a>(
        &self,
        src: &'a [u8],
        starts: &[usize; 4],
        i: usize,
        end: usize,
    ) -> Result<BitStream<'a>, &'static str> {
        if self.op[i] > end || self.ip[i] + 8 < starts[i] {
            return Err("each Huffman stream read within 8 bytes of its start");
        }
        Ok(BitStream::resume(
            src,
            0,
            self.ip[i],
            self.bits[i].trailing_zeros(),
        ))
    }
}
