//! zlib-ng's window, hash chains and match search (deflate.c's fill_window, hash of 4
//! bytes, longest_match), kept exactly: the window is copied and slid as zlib-ng does,
//! and its bytes past the input are the zeros of a fresh window, since the search reads
//! them (its lengths are cut to the input after), so that every choice is zlib-ng's.

use alloc::boxed::Box;
use alloc::vec;

/// The LZ77 window (32 KiB) and the buffer it slides in (twice that).
pub(super) const WSIZE: usize = 1 << 15;
const WMASK: usize = WSIZE - 1;
pub(super) const WINDOW_SIZE: usize = 2 * WSIZE;
/// The longest match, and the lookahead a search needs (a match and the next 4 bytes).
pub(super) const MAX_MATCH: usize = 258;
pub(super) const MIN_LOOKAHEAD: usize = MAX_MATCH + 3 + 1;
/// The farthest match distance zlib-ng allows.
pub(super) const MAX_DIST: usize = WSIZE - MIN_LOOKAHEAD;
/// Bytes after the window, never read, that let reads at any 16-bit position plus a
/// match length go without bounds tests.
const PAD: usize = 512;
const HASH_SIZE: usize = 1 << 16;

/// The search parameters of a level (zlib-ng's configuration_table).
#[derive(Clone, Copy)]
pub(super) struct Config {
    pub level: u8,
    /// Matches up to 16 times this long have their strings inserted.
    pub max_lazy: usize,
    pub nice: usize,
    pub max_chain: u32,
}

fn boxed<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    vec![T::default(); N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!())
}

#[inline(always)]
fn load64(w: &[u8; WINDOW_SIZE + PAD], at: usize) -> u64 {
    u64::from_le_bytes(w[at..at + 8].try_into().unwrap_or_default())
}

#[inline(always)]
fn hash(w: &[u8; WINDOW_SIZE + PAD], at: usize) -> usize {
    let v = u32::from_le_bytes(w[at..at + 4].try_into().unwrap_or_default());
    (v.wrapping_mul(2_654_435_761) >> 16) as usize
}

/// How many of the 256 bytes from `a` and from `b` are equal, up to the first that differs.
#[inline(always)]
fn compare256(w: &[u8; WINDOW_SIZE + PAD], a: usize, b: usize) -> usize {
    for i in (0..256).step_by(8) {
        let x = load64(w, a + i) ^ load64(w, b + i);
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
    }
    256
}

/// Positions moved down by the window's slide; those slid out become 0 (none).
fn slide(table: &mut [u16]) {
    for p in table {
        *p = p.saturating_sub(WSIZE as u16);
    }
}

/// The window's bytes, aligned to cache lines as zlib-ng's: its slide copies 32 KiB
/// between addresses 32 KiB apart, which `rep movsb` does 2-4x slower unaligned.
#[repr(align(64))]
pub(super) struct Window(pub [u8; WINDOW_SIZE + PAD]);

pub(super) struct Matcher {
    pub window: Box<Window>,
    /// The latest position of each hash, and each position's previous one with its
    /// hash (0: none); positions are in the window.
    head: Box<[u16; HASH_SIZE]>,
    prev: Box<[u16; WSIZE]>,
    pub strstart: usize,
    pub lookahead: usize,
    /// Where the open block starts in the window; negative once slid out.
    pub block_start: isize,
    /// The input read into the window so far.
    next_in: usize,
    pub cfg: Config,
}

impl Matcher {
    pub fn new(cfg: Config) -> Self {
        Matcher {
            window: Box::new(Window([0; WINDOW_SIZE + PAD])),
            head: boxed(),
            prev: boxed(),
            strstart: 0,
            lookahead: 0,
            block_start: 0,
            next_in: 0,
            cfg,
        }
    }

    /// A fresh stream (zlib-ng's lm_init: the heads cleared; `prev` is only read
    /// through them).
    pub fn reset(&mut self, cfg: Config) {
        self.head.fill(0);
        self.strstart = 0;
        self.lookahead = 0;
        self.block_start = 0;
        self.next_in = 0;
        self.cfg = cfg;
    }

    /// Inserts the string at `pos` and returns the previous head of its chain.
    #[inline(always)]
    pub fn insert_one(&mut self, pos: usize) -> u16 {
        let pos = pos & 0xffff;
        let h = hash(&self.window.0, pos);
        let head = self.head[h];
        if usize::from(head) != pos {
            self.prev[pos & WMASK] = head;
            self.head[h] = pos as u16;
        }
        head
    }

    /// Loads the head of the chain of the string at `pos` (so that the cache has it
    /// when it is inserted).
    #[inline(always)]
    pub fn touch_head(&self, pos: usize) {
        core::hint::black_box(self.head[hash(&self.window.0, pos & 0xffff)]);
    }

    /// Inserts the `count` strings from `pos`.
    #[inline(always)]
    pub fn insert(&mut self, pos: usize, count: usize) {
        for p in pos..pos + count {
            self.insert_one(p);
        }
    }

    /// zlib-ng's fill_window: slides the window when the search nears its end, then
    /// reads what fits of `src`.
    pub fn fill(&mut self, src: &[u8]) {
        loop {
            let mut more = WINDOW_SIZE - self.lookahead - self.strstart;
            if self.strstart >= WSIZE + MAX_DIST {
                self.window.0.copy_within(WSIZE..WINDOW_SIZE, 0);
                self.strstart -= WSIZE;
                self.block_start -= WSIZE as isize;
                slide(&mut self.head[..]);
                slide(&mut self.prev[..]);
                more += WSIZE;
            }
            if self.next_in == src.len() {
                break;
            }
            let n = more.min(src.len() - self.next_in);
            let at = self.strstart + self.lookahead;
            self.window.0[at..at + n].copy_from_slice(&src[self.next_in..][..n]);
            if self.next_in == 0 {
                // A fresh window's zeros where the search may read past the input.
                let end = (at + n + 2 * MIN_LOOKAHEAD + 64).min(WINDOW_SIZE);
                self.window.0[at + n..end].fill(0);
            }
            self.next_in += n;
            self.lookahead += n;
            if self.lookahead >= 3 && self.strstart >= 1 {
                self.insert_one(self.strstart - 1);
            }
            if self.lookahead >= MIN_LOOKAHEAD || self.next_in == src.len() {
                break;
            }
        }
    }

    /// zlib-ng's longest_match from `strstart` along the chain from `cur`: the best
    /// length (above 2, else 2) and its position. Candidates failing the quick test
    /// of their first (and, past 8, last) 8 bytes are skipped without the test of
    /// being behind `strstart`, as zlib-ng's inner loops skip them.
    pub fn longest_match(&self, strstart: usize, mut cur: u16) -> (usize, u16) {
        let w = &self.window.0;
        let s = strstart & 0xffff;
        let lookahead = self.lookahead;
        let nice = self.cfg.nice;
        let early_exit = self.cfg.level < 5;
        let limit = strstart.saturating_sub(MAX_DIST);
        let mut chain = self.cfg.max_chain;
        let mut best_len = 2;
        let mut match_start = 0;
        let scan = load64(w, s);
        let mut checked = true;
        loop {
            let c = usize::from(cur);
            if checked && c >= strstart {
                break;
            }
            let mut len = 0;
            let passed = if best_len < 8 {
                let x = scan ^ load64(w, c);
                len = if x == 0 {
                    0
                } else {
                    (x.trailing_zeros() / 8) as usize
                };
                x == 0 || len > best_len
            } else {
                let off = best_len - 7;
                load64(w, c + off) == load64(w, s + off) && load64(w, c) == scan
            };
            checked = passed;
            if passed {
                if len == 0 {
                    len = 2 + compare256(w, s + 2, c + 2);
                }
                if len > best_len {
                    match_start = cur;
                    if len >= lookahead {
                        return (lookahead, match_start);
                    }
                    best_len = len;
                    if best_len >= nice {
                        break;
                    }
                } else if early_exit {
                    break;
                }
            }
            chain -= 1;
            if chain == 0 {
                break;
            }
            cur = self.prev[c & WMASK];
            if usize::from(cur) <= limit {
                break;
            }
        }
        (best_len, match_start)
    }
}
