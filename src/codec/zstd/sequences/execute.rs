//! Decoding a block's sequences and executing them into the output
//! (`ZSTD_decodeSequence`, `ZSTD_execSequence`).

use super::super::bits::BitStream;
use super::super::error::{refuse, Refusal};
use super::Tables;
use crate::simd::{ScalarKernel, Unit};

/// Where a block's sequences write: the frame's output so far, the block's limit,
/// and the dictionary's content as history before the output.
pub(in crate::codec::zstd) struct Out<'o, 'd> {
    pub(in crate::codec::zstd) dest: &'o mut [u8],
    pub(in crate::codec::zstd) pos: usize,
    pub(in crate::codec::zstd) limit: usize,
    pub(in crate::codec::zstd) history: &'d [u8],
}

/// Copies a match of `len` bytes from `offset` bytes back (offset at least 1, within
/// the output), forward as LZ77 wants when the two overlap.
#[inline(always)]
fn copy_match(dest: &mut [u8], pos: usize, offset: usize, len: usize) {
    let from = pos - offset;
    // Most matches are short and far: 16 bytes copied at once, those past the match
    // written again by what follows (the frame must fill the output).
    if len <= 16 && offset >= 16 && pos + 16 <= dest.len() {
        let chunk: [u8; 16] = dest[from..from + 16].try_into().unwrap_or([0; 16]);
        dest[pos..pos + 16].copy_from_slice(&chunk);
        return;
    }
    // The others as LZ4's (constant-length moves, patterns, doubling; no `memmove`
    // call for a match of a few dozen bytes).
    crate::codec::copy::copy_match(dest, pos, offset, len);
}

/// Decodes `count` sequences from `src` (byte `at` of the frame) and executes them
/// with `lits`, then copies the last literals.
pub(in crate::codec::zstd) fn execute(
    tables: &mut Tables,
    src: &[u8],
    at: usize,
    count: usize,
    lits: &[u8],
    out: &mut Out<'_, '_>,
) -> Result<(), Refusal> {
    let kernel = Execute {
        tables,
        src,
        at,
        count,
        lits,
        out,
    };
    Unit::scalar().run(kernel)
}

/// [`execute`] as a [`ScalarKernel`]: compiled for the scalar unit's features, whose shifts
/// by a register (BMI2's) are one instruction where x86-64's are three; the bit reads
/// are most of a sequence's work.
struct Execute<'a, 'o, 'd> {
    tables: &'a mut Tables,
    src: &'a [u8],
    at: usize,
    count: usize,
    lits: &'a [u8],
    out: &'a mut Out<'o, 'd>,
}

impl ScalarKernel for Execute<'_, '_, '_> {
    type Output = Result<(), Refusal>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        run(self)
    }
}

#[inline(always)]
fn run(k: Execute<'_, '_, '_>) -> Result<(), Refusal> {
    let Execute {
        tables,
        src,
        at,
        count,
        lits,
        out,
    } = k;
    const FIELD: &str = "sequences";
    let mut lit = 0usize;
    let mut pos = out.pos;
    if count > 0 {
        tables.repeatable = true;
        let mut bits = BitStream::new(src, 0, src.len()).ok_or_else(|| {
            refuse(
                at,
                FIELD,
                "a bitstream ending in a byte with its end mark",
                0,
            )
        })?;
        let (ll_t, of_t, ml_t) = (&*tables.ll, &*tables.of, &*tables.ml);
        let mut ll_s = bits.read(ll_t.log) as usize;
        bits.reload();
        let mut of_s = bits.read(of_t.log) as usize;
        bits.reload();
        let mut ml_s = bits.read(ml_t.log) as usize;
        bits.reload();
        let mut reps = tables.reps.map(|r| r as usize);
        let history = out.history.len();
        for left in (0..count).rev() {
            let ll_c = ll_t.cells[ll_s & 511];
            let of_c = of_t.cells[of_s & 511];
            let ml_c = ml_t.cells[ml_s & 511];
            let of_bits = u32::from(of_c.extra);
            let offset;
            if of_bits > 1 {
                offset = (of_c.base as usize).wrapping_add(bits.read_fast(of_bits) as usize);
                reps[2] = reps[1];
                reps[1] = reps[0];
                reps[0] = offset;
            } else {
                let ll0 = usize::from(ll_c.base == 0);
                if of_bits == 0 {
                    offset = reps[ll0];
                    reps[1] = reps[1 - ll0];
                    reps[0] = offset;
                } else {
                    let code = of_c.base as usize + ll0 + bits.read_fast(1) as usize;
                    let mut temp = if code == 3 {
                        reps[0].wrapping_sub(1)
                    } else {
                        reps[code]
                    };
                    // 0 is not an offset: libzstd makes it one that cannot be.
                    temp = temp.wrapping_sub(usize::from(temp == 0));
                    if code != 1 {
                        reps[2] = reps[1];
                    }
                    reps[1] = reps[0];
                    reps[0] = temp;
                    offset = temp;
                }
            }
            let mut ml = ml_c.base as usize;
            if ml_c.extra > 0 {
                ml += bits.read_fast(u32::from(ml_c.extra)) as usize;
            }
            if u32::from(ll_c.extra) + u32::from(ml_c.extra) + of_bits >= 31 {
                bits.reload();
            }
            let mut ll = ll_c.base as usize;
            if ll_c.extra > 0 {
                ll += bits.read_fast(u32::from(ll_c.extra)) as usize;
            }
            if left > 0 {
                ll_s = usize::from(ll_c.next) + bits.read(u32::from(ll_c.bits)) as usize;
                ml_s = usize::from(ml_c.next) + bits.read(u32::from(ml_c.bits)) as usize;
                of_s = usize::from(of_c.next) + bits.read(u32::from(of_c.bits)) as usize;
                bits.reload();
            }
            // ZSTD_execSequence: the whole sequence within the block's output, its
            // literals within the literals, its match within what precedes it.
            if ll + ml > out.limit - pos {
                return Err(refuse(
                    at,
                    FIELD,
                    "sequences within the block's output",
                    (pos + ll + ml) as u64,
                ));
            }
            if ll > lits.len() - lit {
                return Err(refuse(
                    at,
                    FIELD,
                    "sequences within the block's literals",
                    (lit + ll) as u64,
                ));
            }
            if ll <= 16 && lit + 16 <= lits.len() && pos + 16 <= out.dest.len() {
                // Short literals: 16 bytes at once, the rest overwritten by the match.
                out.dest[pos..pos + 16].copy_from_slice(&lits[lit..lit + 16]);
            } else if ll <= 32 && lit + 32 <= lits.len() && pos + 32 <= out.dest.len() {
                out.dest[pos..pos + 32].copy_from_slice(&lits[lit..lit + 32]);
            } else {
                out.dest[pos..pos + ll].copy_from_slice(&lits[lit..lit + ll]);
            }
            lit += ll;
            pos += ll;
            // Offsets are at least 1 (a 0 becomes an impossible one, as in libzstd).
            if offset > pos || offset == 0 {
                if offset > pos + history || offset == 0 {
                    return Err(refuse(
                        at,
                        FIELD,
                        "match offsets within the output and dictionary",
                        offset as u64,
                    ));
                }
                // From the dictionary's content, then from the output's start.
                let from = history - (offset - pos);
                let n = ml.min(offset - pos);
                out.dest[pos..pos + n].copy_from_slice(&out.history[from..from + n]);
                let rest = ml - n;
                for k in 0..rest {
                    out.dest[pos + n + k] = out.dest[k];
                }
            } else {
                copy_match(out.dest, pos, offset, ml);
            }
            pos += ml;
        }
        if !bits.finished() {
            return Err(refuse(
                at,
                FIELD,
                "a bitstream ending exactly after its sequences",
                bits.consumed() as u64,
            ));
        }
        tables.reps = reps.map(|r| r as u32);
    }
    let rest = lits.len() - lit;
    if rest > out.limit - pos {
        return Err(refuse(
            at,
            FIELD,
            "the last literals within the block's output",
            (pos + rest) as u64,
        ));
    }
    out.dest[pos..pos + rest].copy_from_slice(&lits[lit..]);
    out.pos = pos + rest;
    Ok(())
}
