//! The double-symbol table (`HUF_DTableX2`): one lookup gives one literal or two, and
//! the bits they take; built from the single-symbol table as libzstd builds it.

use alloc::vec::Vec;

/// A double-symbol table from a single-symbol one (`dt[v] = symbol << 8 | length`,
/// `log` bits): `bits | first << 8 | second << 16 | count << 24`, where `v` holds two
/// codes when both fit `log` bits, else one. The bits come first so that the fast
/// loop shifts its bits by the entry itself (a shift takes the count's low 6 bits):
/// no instruction between the table's load and the next lookup's index.
///
/// Filled by runs, as libzstd fills it (`HUF_fillDTableX2`): a code of `n` bits takes
/// the `2^(log - n)` entries of `dt` that start with it, aligned (the codes are
/// complete and placed longest first), so that the entries starting with one first
/// code, and among them those whose next bits start with one second code, are runs.
pub(in crate::codec::zstd) fn build(
    dt: &[u16],
    log: u32,
    out: &mut Vec<u32>,
    spans: &mut Vec<u32>,
) {
    let size = 1usize << log;
    // Every entry is written below (the runs cover the table): no zeroing first.
    out.resize(size, 0);
    // One span for each length of a first code, `2^(log - n)` entries at the offset of
    // their count, made once: the entries after a first code of `n` bits differ only in
    // the first literal (a field of its own), added as the span is copied.
    spans.resize(2 * size, 0);
    let mut made = 0u64;
    // The shortest code is the last (placed longest first).
    let shortest = dt.get(size - 1).map_or(0, |e| u32::from(e & 0x3f));
    let mut v = 0;
    while v < size {
        let e1 = dt[v];
        let n1 = u32::from(e1 & 0x3f).min(log);
        let len = 1usize << (log - n1);
        let span = &mut spans[len..2 * len];
        if made & 1 << n1 == 0 {
            made |= 1 << n1;
            fill_span(dt, log, n1, shortest, span);
        }
        let first = u32::from(e1 >> 8) << 8;
        for (o, &t) in out[v..v + len].iter_mut().zip(&*span) {
            *o = t | first;
        }
        v += len;
    }
}

/// The entries after a first code of `n1` bits, its literal 0: `span` (`2^(log - n1)`
/// entries), entry `j` reading its second code at `dt[j << n1]`, filled by runs.
fn fill_span(dt: &[u16], log: u32, n1: u32, shortest: u32, span: &mut [u32]) {
    let single = entry(0, n1, 1);
    if n1 + shortest > log {
        // No second code fits after this one.
        span.fill(single);
        return;
    }
    let size = 1usize << log;
    let mut j = 0;
    while j < span.len() {
        let e2 = dt[(j << n1) & (size - 1)];
        let n2 = u32::from(e2 & 0x3f).min(log);
        let run = 1usize << (log - n2).saturating_sub(n1);
        let value = if n1 + n2 <= log {
            entry(u32::from(e2 >> 8) << 8, n1 + n2, 2)
        } else {
            single
        };
        let end = (j + run).min(span.len());
        span[j..end].fill(value);
        j += run;
    }
}

/// A double-symbol entry: the literals (the second byte 0 for one), the bits they
/// take, and how many they are (libzstd's `HUF_DEltX2`).
#[inline(always)]
pub(super) fn entry(literals: u32, length: u32, count: u32) -> u32 {
    length | literals << 8 | count << 24
}

/// An entry's literals (the second 0 when it holds one).
#[inline(always)]
pub(super) fn literals(e: u32) -> u16 {
    (e >> 8) as u16
}

/// The bits an entry's literals take.
#[inline(always)]
pub(super) fn length(e: u32) -> u32 {
    e & 0xff
}

/// How many literals an entry holds.
#[inline(always)]
pub(super) fn count(e: u32) -> usize {
    (e >> 24) as usize
}
