//! zlib-ng's deflate_medium (levels 3 to 6): each match is searched once, then the
//! match after it (from level 5), which may take bytes back from it ("fizzle").

use super::bits::BitWriter;
use super::block::Block;
use super::matcher::{Matcher, MAX_DIST, MIN_LOOKAHEAD, WINDOW_SIZE};

/// zlib-ng's shortest match worth emitting (shorter ones are sent as literals).
const WANT_MIN_MATCH: usize = 4;

/// A match (or `len` literals when below 4) from `strstart`; `orgstart` is where its
/// search was made, before fizzling moved it back.
#[derive(Clone, Copy, Default)]
struct Match {
    start: usize,
    len: usize,
    strstart: usize,
    orgstart: usize,
}

impl Matcher {
    /// A match from `strstart` whose chain starts at `head` (0: none), or a literal.
    fn search(&self, strstart: usize, head: u16) -> Match {
        let mut m = Match {
            start: 0,
            len: 1,
            strstart,
            orgstart: strstart,
        };
        let head = usize::from(head);
        if head != 0 && head < strstart && strstart - head <= MAX_DIST {
            let (len, start) = self.longest_match(strstart, head as u16);
            m.start = usize::from(start);
            if len >= WANT_MIN_MATCH && m.start < strstart {
                m.len = len;
            }
        }
        m
    }

    /// zlib-ng's insert_match: the strings after a match's first (or a literal's, to
    /// where the search was made) go into the hash chains, up to 16 * max_lazy bytes,
    /// else only the last string of the match.
    fn insert_match(&mut self, m: Match) {
        if self.lookahead <= m.len + WANT_MIN_MATCH {
            return;
        }
        if m.len < WANT_MIN_MATCH || m.len <= 16 * self.cfg.max_lazy {
            let (from, len) = (m.strstart + 1, m.len - 1);
            if from >= m.orgstart {
                if len > 0 {
                    let count = if from + len > m.orgstart {
                        len
                    } else {
                        m.orgstart - from + 1
                    };
                    self.insert(from, count);
                }
            } else if m.orgstart < from + len {
                // A match fizzling moved back: its strings from where it was found.
                self.insert(m.orgstart, from + len - m.orgstart);
            }
        } else {
            self.insert_one(m.strstart + m.len - 1);
        }
    }

    /// The literals or match of `m`; true when the block is full.
    fn emit(&mut self, block: &mut Block, m: Match) -> bool {
        let mut full = false;
        if m.len < WANT_MIN_MATCH {
            for i in 0..m.len {
                full |= block.literal(self.window.0[(self.strstart + i) & 0xffff]);
            }
        } else {
            full = block.matched(m.strstart - m.start, m.len);
        }
        self.lookahead -= m.len;
        full
    }

    /// Writes the open block, ended at `strstart`.
    fn flush_block(&mut self, block: &mut Block, w: &mut BitWriter, last: bool) {
        let stored = usize::try_from(self.block_start)
            .ok()
            .map(|start| &self.window.0[start..self.strstart]);
        block.flush(w, stored, last);
        self.block_start = self.strstart as isize;
    }

    /// Deflates all of `src` into `w` as zlib-ng's deflate_medium with Z_FINISH
    /// would; false as soon as the output passes `limit` bytes.
    pub fn deflate_medium(
        &mut self,
        src: &[u8],
        block: &mut Block,
        w: &mut BitWriter,
        limit: usize,
    ) -> bool {
        let early_exit = self.cfg.level < 5;
        let mut next = Match::default();
        loop {
            if self.lookahead < MIN_LOOKAHEAD {
                self.fill(src);
                if self.lookahead == 0 {
                    break;
                }
                next.len = 0;
            }
            let mut current;
            if !early_exit && next.len > 0 {
                current = next;
                next.len = 0;
            } else {
                let head = if self.lookahead >= WANT_MIN_MATCH {
                    self.insert_one(self.strstart)
                } else {
                    0
                };
                current = self.search(self.strstart, head);
            }
            // Read the chain head of the next search now, while the match's strings
            // go in: that load misses the cache more than any other.
            let after = current.strstart + current.len;
            self.touch_head(after);
            self.insert_match(current);

            // Look one match ahead.
            if !early_exit && self.lookahead > MIN_LOOKAHEAD && after < WINDOW_SIZE - MIN_LOOKAHEAD
            {
                let head = self.insert_one(after);
                // And that of the search after, should this one find a literal.
                self.touch_head(after + 1);
                next = self.search(after, head);
                if next.len >= WANT_MIN_MATCH {
                    fizzle(&self.window.0, &mut current, &mut next);
                }
            } else {
                next.len = 0;
            }

            let full = self.emit(block, current);
            self.strstart += current.len;
            if full {
                self.flush_block(block, w, false);
                if w.out.len() > limit {
                    return false;
                }
            }
        }
        self.flush_block(block, w, true);
        true
    }
}

/// zlib-ng's fizzle_matches: when the next match can start earlier (its bytes before
/// it equal those before its source), it takes them from the end of the current
/// match; kept only if that leaves at most one byte of the current match.
fn fizzle(window: &[u8], current: &mut Match, next: &mut Match) {
    let (c_len, n) = (current.len, *next);
    if c_len <= 1 || c_len > 1 + n.start || c_len > 1 + n.strstart {
        return;
    }
    if window[n.start + 1 - c_len] != window[n.strstart + 1 - c_len] {
        return;
    }
    let limit = n.strstart.saturating_sub(MAX_DIST);
    let (mut c, mut n) = (*current, n);
    let mut changed = false;
    while window[n.start - 1] == window[n.strstart - 1] {
        if c.len < 1 || n.strstart <= limit || n.len >= 256 || n.start <= 1 {
            break;
        }
        n.strstart -= 1;
        n.start -= 1;
        n.len += 1;
        c.len -= 1;
        changed = true;
    }
    if changed && c.len <= 1 && n.len != 2 {
        n.orgstart += 1;
        *current = c;
        *next = n;
    }
}
