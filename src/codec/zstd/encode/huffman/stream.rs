//! A Huffman stream's bits (`HUF_compress1X_usingCTable_internal_body`): codes put at
//! the top of a 64-bit container shifted down by their lengths (no running bit count
//! in the way), as many between flushes as the longest code lets fit, and two
//! containers taking turns, merged before every other flush, so that two chains run
//! at once; compiled with BMI2's shifts by a register where the CPU has them.

use alloc::vec::Vec;

use super::Code;
use crate::simd::{ScalarKernel, Unit};

impl Code {
    /// Appends one stream: the codes of `literals`, last first, run on
    /// [`Unit::scalar`] (BMI2's shifts by a register: one instruction where x86-64's
    /// take three).
    pub(super) fn encode_stream(&self, literals: &[u8], out: &mut Vec<u8>) {
        Unit::scalar().run(Stream {
            code: self,
            literals,
            out,
        });
    }

    /// [`encode_stream`](Code::encode_stream) with `K` codes between flushes (7 bits
    /// left by a flush plus `K` codes stay within 64).
    #[inline(always)]
    fn encode_stream_k<const K: usize>(&self, literals: &[u8], out: &mut Vec<u8>) {
        // Per symbol: its code at the top, its length in the low byte (`HUF_CElt`).
        let table: [u64; 256] = core::array::from_fn(|s| {
            let len = u64::from(self.lengths[s]);
            match len {
                0 => 0,
                _ => u64::from(self.codes[s]) << (64 - len) | len,
            }
        });
        let start = out.len();
        out.resize(start + literals.len() * self.max_bits as usize / 8 + 16, 0);
        let mut w = TopOut {
            out: &mut out[start..],
            pos: 0,
            container: 0,
            bits: 0,
        };
        let (groups, tail) = literals.as_chunks::<K>();
        // The tail (coded first), then an odd group, then pairs of groups, last first.
        for &b in tail.iter().rev() {
            w.put(table[usize::from(b)]);
        }
        if !tail.is_empty() {
            w.flush();
        }
        let (pairs, odd) = groups.split_at(groups.len() & !1);
        for group in odd {
            for &b in group.iter().rev() {
                w.put(table[usize::from(b)]);
            }
            w.flush();
        }
        for pair in pairs.rchunks_exact(2) {
            let [first, second] = pair else { continue };
            for &b in second.iter().rev() {
                w.put(table[usize::from(b)]);
            }
            w.flush();
            let (mut c1, mut bits1) = (0u64, 0u64);
            for &b in first.iter().rev() {
                let e = table[usize::from(b)];
                c1 = (c1 >> (e & 63)) | (e & !0xff);
                bits1 += e & 0xff;
            }
            w.container = (w.container >> bits1) | c1;
            w.bits += bits1;
            w.flush();
        }
        // The end mark.
        w.put(1 << 63 | 1);
        w.flush();
        let len = w.pos + usize::from(w.bits > 0);
        out.truncate(start + len);
    }
}

/// One stream to code, as a kernel.
struct Stream<'a> {
    code: &'a Code,
    literals: &'a [u8],
    out: &'a mut Vec<u8>,
}

impl ScalarKernel for Stream<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let Stream {
            code,
            literals,
            out,
        } = self;
        match code.max_bits {
            10.. => code.encode_stream_k::<5>(literals, out),
            9 => code.encode_stream_k::<6>(literals, out),
            8 => code.encode_stream_k::<7>(literals, out),
            7 => code.encode_stream_k::<8>(literals, out),
            _ => code.encode_stream_k::<9>(literals, out),
        }
    }
}

/// A bit stream whose container fills from the top (`HUF_CStream_t`).
struct TopOut<'a> {
    out: &'a mut [u8],
    pos: usize,
    container: u64,
    /// Bits in the container not yet written.
    bits: u64,
}

impl TopOut<'_> {
    /// Adds a `HUF_CElt` (a code at the top, its length in the low byte).
    #[inline(always)]
    fn put(&mut self, e: u64) {
        self.container = (self.container >> (e & 63)) | (e & !0xff);
        self.bits += e & 0xff;
    }

    /// Writes the whole bytes of the container's bits, keeping the last 0 to 7.
    #[inline(always)]
    fn flush(&mut self) {
        // (Two shifts: no shift by 64 when the container holds nothing.)
        let value = (self.container >> 1) >> (63 - self.bits);
        self.out[self.pos..self.pos + 8].copy_from_slice(&value.to_le_bytes());
        self.pos += (self.bits >> 3) as usize;
        self.bits &= 7;
    }
}
