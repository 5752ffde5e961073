//! Our own deflate for zlib levels 3 to 6: zlib-ng's deflate_medium (what C-Blosc2
//! 3.3.5 links, and zlib-rs ports) written for one whole in-memory input, giving the
//! same bytes as zlib-ng at these levels (tests compare with zlib-rs).

mod bits;
mod block;
mod matcher;
mod medium;
mod trees;

use alloc::vec::Vec;
use bits::BitWriter;
use block::Block;
use matcher::{Config, Matcher};

/// zlib-ng's parameters for levels 3 to 6 (good_length does not matter to
/// deflate_medium, whose searches start with no match).
fn config(level: u8) -> Option<Config> {
    let (max_lazy, nice, max_chain) = match level {
        3 => (6, 16, 6),
        4 => (12, 32, 24),
        5 => (16, 32, 32),
        6 => (16, 128, 128),
        _ => return None,
    };
    Some(Config {
        level,
        max_lazy,
        nice,
        max_chain,
    })
}

/// Whether `compress` handles `level`.
pub(crate) fn covers(level: u8) -> bool {
    config(level).is_some()
}

/// A thread's tables, kept across blocks and chunks (400 KiB, zeroed once).
struct State {
    matcher: Matcher,
    block: Block,
}

std::thread_local! {
    static STATE: core::cell::RefCell<Option<State>> = const { core::cell::RefCell::new(None) };
}

/// Appends the zlib stream of `src` at `level` (3 to 6) to `out`, as zlib-ng's
/// `compress2` writes it; false (and `out` as it was) when it is longer than `maxout`.
pub(crate) fn compress(level: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let Some(cfg) = config(level) else {
        unreachable!("deflate::compress at level {level}")
    };
    let start = out.len();
    // The header: deflate, 32 KiB window, the level's flags (2 for 6, else 1), check.
    let flags: u16 = if level == 6 { 2 } else { 1 };
    let header = 0x7800 | flags << 6;
    out.extend_from_slice(&(header + 31 - header % 31).to_be_bytes());
    let done = STATE.with(|state| {
        let mut state = state.borrow_mut();
        let state = match &mut *state {
            Some(s) => {
                s.matcher.reset(cfg);
                s.block.clear();
                s
            }
            slot => slot.insert(State {
                matcher: Matcher::new(cfg),
                block: Block::new(),
            }),
        };
        let mut w = BitWriter::new(out);
        state
            .matcher
            .deflate_medium(src, &mut state.block, &mut w, start.saturating_add(maxout))
    });
    // zlib-rs's Adler-32 (AVX2, NEON) when it is linked: ours is 3-4x slower.
    #[cfg(feature = "zlib-rs")]
    let adler = zlib_rs::adler32::adler32(1, src);
    #[cfg(not(feature = "zlib-rs"))]
    let adler = adler32(src);
    out.extend_from_slice(&adler.to_be_bytes());
    if !done || out.len() - start > maxout {
        out.truncate(start);
        return false;
    }
    true
}

/// The Adler-32 of `data`, 5536 bytes at a time (a multiple of 32 below 5552, the most
/// before the sums could pass 2^32), 32 bytes per step: a step's bytes add their sum to `a`, and to `b` the
/// step's `a` 32 times plus each byte times its count (32 for the first, 1 for the
/// last), sums the loop vectorizes.
#[cfg_attr(feature = "zlib-rs", allow(dead_code))]
#[inline(never)]
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    const WEIGHTS: [u32; 32] = {
        let mut w = [0; 32];
        let mut i = 0;
        while i < 32 {
            w[i] = 32 - i as u32;
            i += 1;
        }
        w
    };
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in data.chunks(5536) {
        let (steps, rest) = chunk.as_chunks::<32>();
        for step in steps {
            let sum: u32 = step.iter().map(|&x| u32::from(x)).sum();
            let weighted: u32 = step
                .iter()
                .zip(WEIGHTS)
                .map(|(&x, w)| u32::from(x) * w)
                .sum();
            b += 32 * a + weighted;
            a += sum;
        }
        for &x in rest {
            a += u32::from(x);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    b << 16 | a
}

#[cfg(test)]
mod tests;
