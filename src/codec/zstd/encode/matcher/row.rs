//! libzstd's row-based match finder (`ZSTD_RowFindBestMatch`, zstd 1.5,
//! `lib/compress/zstd_lazy.c`), which its greedy, lazy and lazy2 strategies use for
//! windows above 16 KiB: the hash picks a row of 16, 32 or 64 entries (`1 << ROW`,
//! from `searchLog`) and a one-byte tag; a row keeps the latest positions of its hash
//! in a circular buffer, so a search compares the tag with the row's tags at once and
//! looks only at the positions whose tag matches, newest first. Fewer cache lines and
//! fewer false candidates than a hash chain's links.
//!
//! `hash` holds the rows' positions and `tags` their tags; byte 0 of a row's tags is
//! its head (where the newest entry is), entry 0 of a row is unused.

use super::{count, read32, read64, Matcher};

/// Bits of the hash that are the tag (`ZSTD_ROW_HASH_TAG_BITS`).
const TAG_BITS: u32 = 8;
/// Positions further than this behind the search (after a long match) are not all
/// inserted: the first `SKIP_START` and the last `SKIP_END` are (`kSkipThreshold`,
/// `kMaxMatchStartPositionsToUpdate`, `kMaxMatchEndPositionsToUpdate`).
const SKIP_THRESHOLD: usize = 384;
const SKIP_START: usize = 96;
const SKIP_END: usize = 32;

/// The unit the tags are compared with: SSE2 (x86-64's baseline, through
/// `fearless_simd`, which keeps the `unsafe`), found once per matcher.
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
pub(super) type TagUnit = Option<fearless_simd::Sse2>;
#[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
pub(super) type TagUnit = ();

pub(super) fn tag_unit() -> TagUnit {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    return fearless_simd::Level::new().as_sse2();
}

/// The bits of `tags` (one row, `N` bytes) equal to `tag`, bit `i` for byte `i`: one
/// compare and `movemask` per 16 bytes as libzstd's `ZSTD_row_getSSEMask` (the 8-byte
/// SWAR below was a fifth of the search's time), else eight bytes a word as libzstd's
/// SWAR fallback (a byte loop compiled to a slow gather).
#[inline(always)]
fn tag_mask<const N: usize>(unit: TagUnit, tags: &[u8; N], tag: u8) -> u64 {
    #[cfg(all(feature = "simd", target_arch = "x86_64"))]
    if let Some(t) = unit {
        use fearless_simd::{u8x16, Simd, SimdFrom};
        let splat = t.splat_u8x16(tag);
        let (chunks, _) = tags.as_chunks::<16>();
        return chunks.iter().enumerate().fold(0u64, |m, (i, c)| {
            let eq = t.simd_eq_u8x16(u8x16::simd_from(t, *c), splat);
            m | t.to_bitmask_mask8x16(eq) << (16 * i)
        });
    }
    #[cfg(not(all(feature = "simd", target_arch = "x86_64")))]
    let () = unit;
    const LOW: u64 = u64::MAX / 0xff;
    const HIGH: u64 = LOW << 7;
    // Gathers bit 7 of each byte into the top byte.
    const EXTRACT: u64 = (u64::MAX / 0x7f) >> 8;
    let splat = u64::from(tag) * LOW;
    let (words, _) = tags.as_chunks::<8>();
    let differ = words.iter().enumerate().fold(0u64, |m, (i, w)| {
        let x = u64::from_le_bytes(*w) ^ splat;
        let nonzero = (((x | HIGH) - LOW) | x) & HIGH;
        m | (nonzero.wrapping_mul(EXTRACT) >> 56) << (8 * i)
    });
    !differ
}

/// Entries of the row tables, which are always this long (libzstd's up to 2^19; ours
/// capped at 2^14 in `params`), so that an index masked to it needs no bounds test.
pub(super) const ROW_ENTRIES: usize = 1 << 14;
type RowHash = [u32; ROW_ENTRIES];
type RowTags = [u8; ROW_ENTRIES];

/// The row tables as arrays (one length test for all the indices after).
#[inline(always)]
fn row_tables<'a>(hash: &'a mut [u32], tags: &'a mut [u8]) -> (&'a mut RowHash, &'a mut RowTags) {
    (hash.try_into().unwrap(), tags.try_into().unwrap())
}

/// The `MLS` bytes at `at`, what is hashed.
#[inline(always)]
fn row_key<const MLS: u32>(src: &[u8], at: usize) -> u64 {
    read64(src, at) << (64 - 8 * MLS)
}

/// The row hash of `key` (`ZSTD_hashPtr` to `64 - shift` bits, `hash_log - ROW +
/// TAG_BITS`): the row above the tag bits, the tag below.
#[inline(always)]
fn row_hash(key: u64, shift: u32) -> usize {
    (key.wrapping_mul(0xcf1b_bcdc_b7a5_6463) >> shift) as usize
}

/// Where the row of hash `h` starts in the tables.
#[inline(always)]
fn row_start<const ROW: u32>(h: usize) -> usize {
    ((h >> TAG_BITS) << ROW) & (ROW_ENTRIES - 1)
}

/// Puts position `pos` of hash `h` at the row's next place (`ZSTD_row_nextIndex`: the
/// head steps backwards through entries 1 to `1 << ROW` - 1).
#[inline(always)]
fn row_insert<const ROW: u32>(hash: &mut RowHash, tags: &mut RowTags, h: usize, pos: u32) {
    let mask = (1usize << ROW) - 1;
    let row = row_start::<ROW>(h);
    let mut next = usize::from(tags[row]).wrapping_sub(1) & mask;
    if next == 0 {
        next = mask;
    }
    tags[row] = next as u8;
    tags[row | next] = h as u8;
    hash[row | next] = pos;
}

/// The `N` tags of the row starting at `row`.
#[inline(always)]
fn row_tags<const N: usize>(tags: &RowTags, row: usize) -> &[u8; N] {
    &tags.as_chunks::<N>().0[row / N]
}

impl Matcher {
    /// The shift that leaves a row hash (see [`row_hash`]).
    #[inline(always)]
    fn row_shift<const ROW: u32>(&self) -> u32 {
        64 - (self.p.hash_log - ROW + TAG_BITS)
    }

    /// Inserts the positions from `next_to_update` to before `ip`
    /// (`ZSTD_row_update_internal`); after a long match only its first and last. (No
    /// hash cache: without prefetching, which safe Rust lacks, it only cost time.)
    #[inline(always)]
    fn row_update<const ROW: u32, const MLS: u32>(&mut self, src: &[u8], ip: usize) {
        let mut at = self.next_to_update;
        if ip - at > SKIP_THRESHOLD {
            self.row_insert_range::<ROW, MLS>(src, at, at + SKIP_START);
            at = ip - SKIP_END;
        }
        self.row_insert_range::<ROW, MLS>(src, at, ip);
        self.next_to_update = ip;
    }

    /// Inserts positions `from..to`. In a run of one byte, whose positions all hash
    /// alike, only the last row's worth go in: the earlier would be overwritten by
    /// them, each one read and written back in turn (i32 counters' runs were twice
    /// C's time).
    #[inline(always)]
    fn row_insert_range<const ROW: u32, const MLS: u32>(
        &mut self,
        src: &[u8],
        from: usize,
        to: usize,
    ) {
        let entries = 1usize << ROW;
        let shift = self.row_shift::<ROW>();
        let base = self.base;
        let (hash, tags) = row_tables(&mut self.hash, &mut self.tags);
        let mut prev = 0;
        let mut a = from;
        while a < to {
            let key = row_key::<MLS>(src, a);
            // The same bytes one position on: a run of one byte.
            if key == prev && a + entries < to {
                let end = (to + MLS as usize - 1).min(src.len());
                let run = 1 + count(src, a + 1, a, end);
                let same = (run + 1).saturating_sub(MLS as usize).min(to - a);
                if same > entries {
                    a += same - entries;
                }
            }
            prev = key;
            row_insert::<ROW>(hash, tags, row_hash(key, shift), (base + a) as u32);
            a += 1;
        }
    }

    /// The longest match at `ip` (length, offset), 0 if none of at least 4 bytes,
    /// among the `attempts` newest positions of its row whose tag is its tag.
    #[inline(always)]
    pub(super) fn row_search<const ROW: u32, const MLS: u32>(
        &mut self,
        src: &[u8],
        ip: usize,
        end: usize,
    ) -> (usize, usize) {
        if self.skipping {
            // Skipping fast through literals: only the positions searched go in.
            self.next_to_update = ip;
        } else {
            self.row_update::<ROW, MLS>(src, ip);
        }
        self.next_to_update = ip + 1;
        let shift = self.row_shift::<ROW>();
        let h = row_hash(row_key::<MLS>(src, ip), shift);
        let entries = 1usize << ROW;
        let mask = entries - 1;
        let (unit, base) = (self.tag_unit, self.base);
        let mut attempts = self.p.attempts.min(entries as u32);
        let (hash, tags) = row_tables(&mut self.hash, &mut self.tags);
        let row = row_start::<ROW>(h);
        let tag = h as u8;
        let head = usize::from(tags[row]) & mask;
        // Bit i: the entry i places after the head, the newest first.
        let r = head as u32;
        let mut found = match ROW {
            4 => u64::from((tag_mask(unit, row_tags::<16>(tags, row), tag) as u16).rotate_right(r)),
            5 => u64::from((tag_mask(unit, row_tags::<32>(tags, row), tag) as u32).rotate_right(r)),
            _ => tag_mask(unit, row_tags::<64>(tags, row), tag).rotate_right(r),
        };
        // Entry 0 is the head, not a position.
        found &= !(1 << ((entries - head) & mask));
        let lowest = base as u32;
        let (mut best, mut best_off) = (3, 0);
        // The 4 bytes of ip that end where a better candidate must still match, read
        // once per better match rather than once per candidate.
        let mut ip_word = read32(src, ip);
        while found != 0 && attempts > 0 {
            let pos = (head + found.trailing_zeros() as usize) & mask;
            found &= found - 1;
            let entry = hash[row | pos];
            // Entries follow from the newest: one of an earlier frame ends them.
            if entry < lowest {
                break;
            }
            attempts -= 1;
            let cand = entry as usize - base;
            // Only a candidate that beats the best so far at its last 4 bytes counts.
            if read32(src, cand + best - 3) == ip_word {
                let l = count(src, ip, cand, end);
                if l > best {
                    best = l;
                    best_off = ip - cand;
                    if ip + l == end {
                        break;
                    }
                    ip_word = read32(src, ip + best - 3);
                }
            }
        }
        row_insert::<ROW>(hash, tags, h, (base + ip) as u32);
        if best_off > 0 {
            (best, best_off)
        } else {
            (0, 0)
        }
    }
}
