//! Code lengths as libzstd chooses them (`HUF_buildCTable_wksp`, `lib/compress/huf_compress.c`):
//! the symbols bucket-sorted by count, the tree built in place over them, the lengths
//! beyond the limit cut back by `HUF_setMaxHeight`. Its ties and its cuts decide which
//! symbols get which lengths, so the same steps give libzstd's table (and its bytes);
//! they are also about half the instructions of a radix sort, a two-queue tree and a
//! fold of the overlong lengths.

use super::MAX_BITS;

/// A leaf or an inner node (`nodeElt`).
#[derive(Clone, Copy)]
struct Node {
    count: u32,
    /// Index of the parent in [`Nodes`].
    parent: u16,
    symbol: u8,
    bits: u8,
}

/// libzstd's `huffNode0`: a barrier with the largest count at 0, then the leaves by
/// count, largest first (`huffNode[i]` is at `1 + i`), then from [`INNER`] the inner
/// nodes. Indexes are masked to its length, which proves them in bounds.
type Nodes = [Node; 512];

/// Where the inner nodes start (`STARTNODE`, 256, past the barrier).
const INNER: usize = 1 + 256;

/// The sort's buckets (`RANK_POSITION_TABLE_SIZE`): one per count below
/// [`DISTINCT_BELOW`], then one per power of two.
const BUCKETS: usize = 192;
const LOG_BUCKETS_BEGIN: u32 = (BUCKETS as u32 - 1) - 32 - 1;
const DISTINCT_BELOW: u32 = LOG_BUCKETS_BEGIN + LOG_BUCKETS_BEGIN.ilog2();

/// No symbol (`noSymbol` in `HUF_setMaxHeight`).
const NONE: usize = usize::MAX;

fn bucket(count: u32) -> usize {
    match count {
        c if c < DISTINCT_BELOW => c as usize,
        c => (c.ilog2() + LOG_BUCKETS_BEGIN) as usize,
    }
}

/// The longest code for `n` literals whose largest symbol is `max_symbol`
/// (`HUF_optimalTableLog` without `HUF_flags_optimalDepth`, as libzstd's levels below
/// btultra: `FSE_optimalTableLog_internal` less one): below 4097 literals, shorter than
/// [`MAX_BITS`].
pub(super) fn max_length(n: usize, max_symbol: usize) -> u32 {
    let n = n as u32;
    // Wraps below 2 literals as libzstd's does (and is then no limit).
    let from_size = (n - 1).ilog2().wrapping_sub(1);
    let at_least = (n.ilog2() + 1).min((max_symbol as u32).ilog2() + 2);
    from_size.min(MAX_BITS).max(at_least).clamp(5, 12)
}

/// Each symbol's code length for `counts` (at least two symbols present, none above
/// `max_symbol`), at most `limit` bits; how many codes have each length; the table's
/// log (the longest length, or `limit` when lengths were cut).
pub(super) fn lengths(
    counts: &[u32; 256],
    max_symbol: usize,
    limit: u32,
) -> ([u8; 256], [u16; 16], u32) {
    let mut nodes: Nodes = [Node {
        count: 0,
        parent: 0,
        symbol: 0,
        bits: 0,
    }; 512];
    let present = sort(&mut nodes, counts, max_symbol);
    let last = build(&mut nodes, present - 1);
    let log = cut(&mut nodes, last, limit);
    let mut out = [0u8; 256];
    let mut per_length = [0u16; 16];
    for node in &nodes[1..=last + 1] {
        out[usize::from(node.symbol)] = node.bits;
        per_length[usize::from(node.bits & 15)] += 1;
    }
    (out, per_length, log)
}

/// `HUF_sort`: the symbols with a count into `nodes[1..]` by count, largest first,
/// and how many: counted into buckets, placed in symbol order, and the buckets of many
/// counts sorted by libzstd's quicksort (not stable: its swaps order equal counts).
/// libzstd sorts the absent symbols too, into the last bucket, past the tree's leaves;
/// left out, they cost nothing, where each one's bucket count waited on the last's.
fn sort(nodes: &mut Nodes, counts: &[u32; 256], max_symbol: usize) -> usize {
    let mut present = [0u8; 256];
    let (mut n, mut most) = (0, 0);
    for (s, &c) in counts[..=max_symbol].iter().enumerate() {
        present[n] = s as u8;
        n += usize::from(c > 0);
        most = most.max(c);
    }
    let present = &present[..n];
    let mut base = [0u16; BUCKETS];
    for &s in present {
        base[bucket(counts[usize::from(s)])] += 1;
    }
    // Positions from the top bucket used down (those above stay empty).
    let mut next = [0u16; BUCKETS];
    for b in (1..=bucket(most) + 1).rev() {
        base[b - 1] += base[b];
        next[b - 1] = base[b - 1];
    }
    for &symbol in present {
        let count = counts[usize::from(symbol)];
        let b = bucket(count) + 1;
        let at = usize::from(next[b]);
        next[b] += 1;
        nodes[(1 + at) & 511] = Node {
            count,
            parent: 0,
            symbol,
            bits: 0,
        };
    }
    for b in DISTINCT_BELOW as usize..BUCKETS - 1 {
        let (from, to) = (usize::from(base[b]), usize::from(next[b]));
        if to - from > 1 {
            quick_sort(&mut nodes[1 + from..1 + to], 0, (to - from) as isize - 1);
        }
    }
    n
}

/// `HUF_simpleQuickSort`, descending: its pivot (the last) and its switch to insertion
/// sorts, which decide the order of equal counts.
fn quick_sort(a: &mut [Node], mut low: isize, mut high: isize) {
    if high - low < 8 {
        insertion_sort(a, low, high);
        return;
    }
    while low < high {
        let pivot = a[high as usize].count;
        let mut i = low - 1;
        for j in low..high {
            if a[j as usize].count > pivot {
                i += 1;
                a.swap(i as usize, j as usize);
            }
        }
        let at = i + 1;
        a.swap(at as usize, high as usize);
        if at - low < high - at {
            quick_sort(a, low, at - 1);
            low = at + 1;
        } else {
            quick_sort(a, at + 1, high);
            high = at - 1;
        }
    }
}

/// `HUF_insertionSort`: stable, descending.
fn insertion_sort(a: &mut [Node], low: isize, high: isize) {
    if high <= low {
        return;
    }
    let a = &mut a[low as usize..=high as usize];
    for i in 1..a.len() {
        let key = a[i];
        let mut j = i;
        while j > 0 && a[j - 1].count < key.count {
            a[j] = a[j - 1];
            j -= 1;
        }
        a[j] = key;
    }
}

/// `HUF_buildTree`: pairs the two smallest of the leaves (from the end) and the inner
/// nodes (in creation order), an inner node first on a tie, then gives each node its
/// depth; `last` is the last leaf (with the smallest count), returned.
fn build(nodes: &mut Nodes, last: usize) -> usize {
    let root = INNER + last - 1;
    // Leaves from `1 + last` down to the barrier at 0, inner nodes from INNER; those
    // not made yet count 2^30, more than any leaf.
    let (mut leaf, mut inner) = (1 + last, INNER);
    for node in &mut nodes[INNER..=root] {
        node.count = 1 << 30;
    }
    nodes[0].count = 1 << 31;
    let mut smallest = |nodes: &Nodes| {
        if nodes[leaf & 511].count < nodes[inner & 511].count {
            leaf -= 1;
            (leaf + 1) & 511
        } else {
            inner += 1;
            (inner - 1) & 511
        }
    };
    for at in INNER..=root {
        let a = smallest(nodes);
        let b = smallest(nodes);
        nodes[at & 511].count = nodes[a].count + nodes[b].count;
        nodes[a].parent = at as u16;
        nodes[b].parent = at as u16;
    }
    // Depths from the root down: parents come after their children.
    nodes[root & 511].bits = 0;
    for n in (INNER..root).rev() {
        let parent = usize::from(nodes[n & 511].parent);
        nodes[n & 511].bits = nodes[parent & 511].bits + 1;
    }
    for n in 1..=1 + last {
        let parent = usize::from(nodes[n & 511].parent);
        nodes[n & 511].bits = nodes[parent & 511].bits + 1;
    }
    last
}

/// `HUF_setMaxHeight`: the leaves deeper than `limit` brought up to it, and the code
/// made complete again by lengthening the cheapest shorter leaves (by the
/// power-of-two debt, the lowest counts first), then, on overshoot, shortening leaves
/// at `limit`. Returns the table's log.
fn cut(nodes: &mut Nodes, last: usize, limit: u32) -> u32 {
    let leaf = |n: usize| (1 + n) & 511;
    let largest = u32::from(nodes[leaf(last)].bits);
    if largest <= limit {
        return largest;
    }
    let target = limit as u8;
    let base_cost = 1i64 << (largest - limit);
    let mut cost = 0i64;
    let mut n = last;
    while nodes[leaf(n)].bits > target {
        cost += base_cost - (1 << (largest - u32::from(nodes[leaf(n)].bits)));
        nodes[leaf(n)].bits = target;
        n -= 1;
    }
    while nodes[leaf(n)].bits == target {
        n -= 1;
    }
    cost >>= largest - limit;
    // Per number of bits below the limit, the last (smallest) leaf of that length.
    let mut rank_last = [NONE; MAX_BITS as usize + 3];
    let mut current = target;
    for pos in (0..=n).rev() {
        let bits = nodes[leaf(pos)].bits;
        if bits < current {
            current = bits;
            rank_last[usize::from(target - current)] = pos;
        }
    }
    while cost > 0 {
        let mut shorter = cost.ilog2() as usize + 1;
        while shorter > 1 {
            let (high, low) = (rank_last[shorter], rank_last[shorter - 1]);
            if high == NONE {
                shorter -= 1;
                continue;
            }
            if low == NONE || nodes[leaf(high)].count <= 2 * nodes[leaf(low)].count {
                break;
            }
            shorter -= 1;
        }
        while shorter <= MAX_BITS as usize + 1 && rank_last[shorter] == NONE {
            shorter += 1;
        }
        cost -= 1 << (shorter - 1);
        let pos = rank_last[shorter];
        nodes[leaf(pos)].bits += 1;
        if rank_last[shorter - 1] == NONE {
            rank_last[shorter - 1] = pos;
        }
        rank_last[shorter] = match pos {
            0 => NONE,
            p if i32::from(nodes[leaf(p - 1)].bits) != i32::from(target) - shorter as i32 => NONE,
            p => p - 1,
        };
    }
    while cost < 0 {
        if rank_last[1] == NONE {
            while nodes[leaf(n)].bits == target {
                n -= 1;
            }
            nodes[leaf(n + 1)].bits -= 1;
            rank_last[1] = n + 1;
        } else {
            nodes[leaf(rank_last[1] + 1)].bits -= 1;
            rank_last[1] += 1;
        }
        cost += 1;
    }
    limit
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// `counts`' lengths against libzstd's (C-Blosc2 3.3.5's libzstd 1.5.7:
    /// `HUF_optimalTableLog`, then `HUF_buildCTable_wksp`), one hex digit a symbol.
    fn check(counts: &[u32], log: u32, expected: &str) {
        let mut all = [0u32; 256];
        all[..counts.len()].copy_from_slice(counts);
        let n = counts.iter().sum::<u32>() as usize;
        let max_symbol = counts.len() - 1;
        let (lengths, per_length, got) = lengths(&all, max_symbol, max_length(n, max_symbol));
        let hex: String = lengths[..=max_symbol]
            .iter()
            .map(|&l| char::from_digit(l.into(), 16).unwrap())
            .collect();
        assert_eq!((got, hex.as_str()), (log, expected));
        for (l, &k) in per_length.iter().enumerate().skip(1) {
            assert_eq!(
                lengths.iter().filter(|&&x| usize::from(x) == l).count(),
                usize::from(k)
            );
        }
    }

    #[test]
    fn lengths_as_libzstd() {
        // Equal counts at two lengths: libzstd's quicksort decides which symbols.
        let ties: Vec<u32> = [300; 12].into_iter().chain([1000, 5, 7]).collect();
        check(&ties, 6, "444444444454266");
        let ties = [&[3; 5][..], &[300; 12], &[299; 3], &[1000], &[2; 9]].concat();
        check(&ties, 9, "889994444444444445553999999999");
        // A deep tree cut to 11 bits.
        let deep: Vec<u32> = (0..40)
            .map(|s| (60000 >> s.min(31)).max(1))
            .chain([1; 20])
            .collect();
        check(
            &deep,
            11,
            "12346689bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
        );
        // 100 literals: at most 5 bits.
        check(
            &[40, 20, 10, 5, 5, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1],
            5,
            "144555555555555",
        );
    }
}
