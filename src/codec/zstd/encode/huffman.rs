//! The literals section (`ZSTD_compressLiterals`, `lib/compress/huf_compress.c`): raw,
//! one byte repeated, or Huffman-coded with code lengths of at most 11 bits, described
//! by their weights (4 bits each, or FSE-coded), in one stream or four.

use alloc::vec::Vec;

use super::fse;

mod stream;
mod tree;

/// The longest code (`HUF_TABLELOG_DEFAULT` is 11).
const MAX_BITS: u32 = 11;
/// The largest FSE table for the weights.
const WEIGHTS_MAX_LOG: u32 = 6;
/// Fewer literals than this are stored as they are (`ZSTD_minLiteralsToCompress` for
/// a new table).
const MIN_TO_COMPRESS: usize = 64;

/// Literals block types (`Literals_Block_Type`).
const RAW: u8 = 0;
const RLE: u8 = 1;
const COMPRESSED: u8 = 2;

/// A Huffman code: each symbol's length and `HUF_CElt` (its code at the top, its
/// length in the low byte), made once for the block's streams.
struct Code {
    lengths: [u8; 256],
    elements: [u64; 256],
    max_bits: u32,
    max_symbol: usize,
    /// The streams' bits in all (each count times its length).
    bits: usize,
}

impl Code {
    /// The code of `n` literals of `counts` (at least two symbols present).
    fn new(counts: &[u32; 256], n: usize) -> Self {
        let max_symbol = (0..256).rev().find(|&s| counts[s] > 0).unwrap_or(0);
        let limit = tree::max_length(n, max_symbol);
        let (lengths, per_length, max_bits) = tree::lengths(counts, max_symbol, limit);
        // Canonical as the decoder fills its table (`HUF_buildCTableFromTree`): each
        // length's first code follows the longer ones' (halved per bit), then the codes
        // of a length go by symbol.
        let mut next = [0u16; 16];
        let mut first = 0u16;
        for l in (1..=max_bits as usize).rev() {
            next[l] = first;
            first = (first + per_length[l]) >> 1;
        }
        let mut elements = [0u64; 256];
        let mut bits = 0;
        for (s, e) in elements[..=max_symbol].iter_mut().enumerate() {
            let len = usize::from(lengths[s] & 15);
            let code = u64::from(next[len]);
            next[len] += 1;
            // Two shifts, so that a length of 0 shifts its code out whole.
            *e = code << (63 - len) << 1 | len as u64;
            bits += counts[s] as usize * len;
        }
        Code {
            lengths,
            elements,
            max_bits,
            max_symbol,
            bits,
        }
    }

    fn weight(&self, s: usize) -> u8 {
        match self.lengths[s] {
            0 => 0,
            l => (self.max_bits + 1 - u32::from(l)) as u8,
        }
    }

    /// Appends the weights of symbols `0..max_symbol` (the last one's is implied):
    /// FSE-coded when that is shorter, else 4 bits each (at most 128 of them); false when
    /// neither fits.
    fn write_description(&self, out: &mut Vec<u8>) -> bool {
        // In arrays and straight into `out` (taken back if not used): no allocation per
        // block.
        let n = self.max_symbol;
        let mut weights = [0u8; 256];
        for (s, w) in weights[..n].iter_mut().enumerate() {
            *w = self.weight(s);
        }
        let weights = &weights[..n];
        let mut counts = [0u32; 13];
        for &w in weights {
            counts[usize::from(w)] += 1;
        }
        let distinct = counts.iter().filter(|&&c| c > 0).count();
        let at = out.len();
        out.push(0);
        if n >= 2 && distinct >= 2 {
            let max_weight = (0..13).rev().find(|&w| counts[w] > 0).unwrap_or(0);
            let log = fse::optimal_log(WEIGHTS_MAX_LOG, n, max_weight);
            let norm = fse::normalize(&counts[..=max_weight], n, log);
            let norm = &norm[..=max_weight];
            fse::write_ncount(norm, log, out);
            fse::encode_two_states(&fse::CTable::new(norm, log), weights, out);
        }
        let fse_len = out.len() - at - 1;
        let direct_len = n.div_ceil(2);
        let use_fse = fse_len > 0 && fse_len < 128 && (n > 128 || fse_len < direct_len);
        if use_fse {
            out[at] = fse_len as u8;
            true
        } else if n <= 128 {
            out.truncate(at);
            out.push(127 + n as u8);
            for pair in weights.chunks(2) {
                out.push(pair[0] << 4 | pair.get(1).copied().unwrap_or(0));
            }
            true
        } else {
            out.truncate(at);
            false
        }
    }
}

/// How often each byte occurs, counted in four tables so that runs of one byte do not
/// wait on each other's increments.
fn histogram(bytes: &[u8]) -> [u32; 256] {
    let mut tables = [[0u32; 256]; 4];
    let (quads, rest) = bytes.as_chunks::<4>();
    for q in quads {
        for k in 0..4 {
            tables[k][usize::from(q[k])] += 1;
        }
    }
    for &b in rest {
        tables[0][usize::from(b)] += 1;
    }
    core::array::from_fn(|s| tables[0][s] + tables[1][s] + tables[2][s] + tables[3][s])
}

/// Bytes sampled at each end of literals suspected incompressible, which must be at
/// least `SAMPLE_RATIO` samples long (`SUSPECT_INCOMPRESSIBLE_SAMPLE_SIZE`, `_RATIO`).
const SAMPLE: usize = 4096;
const SAMPLE_RATIO: usize = 10;

/// Whether libzstd's sampling of suspect literals (`HUF_compress_internal`) finds them
/// not worth coding: the largest counts of their first and last [`SAMPLE`] bytes, summed,
/// no more than the full histogram's test allows for that many bytes. Noise literals
/// (float mantissas, whole streams of them without a match) then cost two samples'
/// counts, not all of theirs (zstd 5 on shuffled f64: 5% of the chunk's instructions).
fn sampled_incompressible(literals: &[u8]) -> bool {
    let largest = |bytes: &[u8]| histogram(bytes).into_iter().max().unwrap_or(0) as usize;
    let (head, tail) = (&literals[..SAMPLE], &literals[literals.len() - SAMPLE..]);
    largest(head) + largest(tail) <= ((2 * SAMPLE) >> 7) + 4
}

/// Appends the literals section of `literals` and returns true, or returns false with
/// nothing appended when it would be raw and longer than `limit`; `suspect` when they
/// are likely incompressible (libzstd's test: no sequence, or 20 literals and more a
/// sequence).
pub(super) fn write_literals(
    literals: &[u8],
    suspect: bool,
    limit: usize,
    out: &mut Vec<u8>,
) -> bool {
    let n = literals.len();
    if n > 2 && super::one_byte_repeated(literals) {
        write_header(RLE, n, out);
        out.push(literals[0]);
        return true;
    }
    let sampled_out = suspect && n >= SAMPLE * SAMPLE_RATIO && sampled_incompressible(literals);
    if n >= MIN_TO_COMPRESS && !sampled_out {
        let start = out.len();
        if write_compressed(literals, out) {
            let min_gain = (n >> 6) + 2;
            if out.len() - start < n - min_gain {
                return true;
            }
        }
        out.truncate(start);
    }
    let start = out.len();
    write_header(RAW, n, out);
    if out.len() - start + n > limit {
        out.truncate(start);
        return false;
    }
    out.extend_from_slice(literals);
    true
}

/// The header of a raw or RLE literals section: 1, 2 or 3 bytes by size.
fn write_header(kind: u8, n: usize, out: &mut Vec<u8>) {
    let n = n as u32;
    if n < 32 {
        out.push(kind | (n << 3) as u8);
    } else if n < 4096 {
        out.extend_from_slice(&((u32::from(kind) | 1 << 2 | n << 4) as u16).to_le_bytes());
    } else {
        let v = u32::from(kind) | 3 << 2 | n << 4;
        out.extend_from_slice(&v.to_le_bytes()[..3]);
    }
}

/// A Huffman-coded section; false when the code cannot be described, or when it
/// would not pay: no byte is common (`HUF_compress_internal`'s test that the largest
/// count exceeds `n / 128 + 4`), or the streams' estimated size (each count times its
/// code length) leaves less than libzstd's minimal gain.
fn write_compressed(literals: &[u8], out: &mut Vec<u8>) -> bool {
    let counts = histogram(literals);
    let n = literals.len();
    if counts
        .iter()
        .max()
        .is_none_or(|&m| m as usize <= (n >> 7) + 4)
    {
        return false;
    }
    let code = Code::new(&counts, n);
    let bits = code.bits;
    let estimate = bits / 8;
    if estimate + 6 >= n - ((n >> 6) + 2) {
        return false;
    }
    let four = n >= 256;
    let (format, header_len) = match (four, n) {
        (false, _) => (0u32, 3),
        (true, n) if n < 1024 => (1, 3),
        (true, n) if n < 16384 => (2, 4),
        _ => (3, 5),
    };
    let header_at = out.len();
    out.resize(header_at + header_len, 0);
    if !code.write_description(out) {
        return false;
    }
    // Room for the streams made once, of their exact bits (those of the counts) plus
    // each one's end mark and partial byte (at most 4 bytes over bits / 8 in all) and
    // the window the last one's writes may reach past its end: bytes zeroed only to be
    // overwritten, about as many as the streams hold, not the bound of the longest code.
    let jump_at = out.len();
    let jump = if four { 6 } else { 0 };
    out.resize(jump_at + jump + bits / 8 + 4 + stream::WINDOW, 0);
    let mut at = jump_at + jump;
    if four {
        let segment = n.div_ceil(4);
        for (k, part) in literals.chunks(segment).enumerate() {
            let size = code.encode_stream(part, &mut out[at..]);
            at += size;
            if k < 3 {
                if size > u16::MAX as usize {
                    return false;
                }
                out[jump_at + 2 * k..jump_at + 2 * k + 2]
                    .copy_from_slice(&(size as u16).to_le_bytes());
            }
        }
    } else {
        at += code.encode_stream(literals, &mut out[at..]);
    }
    out.truncate(at);
    let compressed = (out.len() - header_at - header_len) as u64;
    let size_bits = [10, 10, 14, 18][format as usize];
    if compressed >= 1 << size_bits {
        return false;
    }
    let header = u64::from(COMPRESSED)
        | u64::from(format) << 2
        | (n as u64) << 4
        | compressed << (4 + size_bits);
    out[header_at..header_at + header_len].copy_from_slice(&header.to_le_bytes()[..header_len]);
    true
}
