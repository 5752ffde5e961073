//! The byte orders of `vector_shuffle`'s 256-bit split (C-Blosc2's `shuffle-avx2.c`
//! shape): worked out at compile time by following which byte (element, row) each
//! lane position holds, so that no table is written by hand.

/// The byte orders of `vector_shuffle`'s lane-local split for `N`-byte elements, worked out at compile time
/// by following which byte (element, row) each lane position holds.
pub(super) struct LanePlan<const N: usize>;

/// Per level (splitting by row bits, highest first) and pair of registers, the orders
/// of the pair's two: of the first, its bytes going to the first output then the rest;
/// of the second, the other way round. Per row: its register and, unless its elements
/// are already in order there, the order putting them right.
pub(super) struct Plan {
    pub(super) levels: [[[[u8; 32]; 2]; 8]; 4],
    pub(super) rows: [(usize, Option<[u8; 32]>); 16],
}

impl<const N: usize> LanePlan<N> {
    pub(super) const PLAN: Plan = lane_plan(N);
}

/// A lane's positions labelled `element * 16 + row`.
const fn lane_plan(n: usize) -> Plan {
    let mut plan = Plan {
        levels: [[[[0; 32]; 2]; 8]; 4],
        rows: [(0, None); 16],
    };
    let mut regs = [[0u8; 16]; 16];
    let mut i = 0;
    while i < 16 * n {
        let (m, j) = (i / 16, i % 16);
        regs[m][j] = ((m * (16 / n) + j / n) * 16 + j % n) as u8;
        i += 1;
    }
    let levels = n.trailing_zeros() as usize;
    let mut level = 0;
    while level < levels {
        let bit = 1 << (levels - 1 - level);
        let mut next = regs;
        let mut p = 0;
        while p < n / 2 {
            let (a, b) = (regs[2 * p], regs[2 * p + 1]);
            let (oa, ob) = (by_row_bit(&a, bit, false), by_row_bit(&b, bit, true));
            plan.levels[level][p] = [both_lanes(&oa), both_lanes(&ob)];
            let mut j = 0;
            while j < 16 {
                let (from_a, from_b) = (a[oa[j] as usize], b[ob[j] as usize]);
                // The blend: low halves from the first operand.
                if j < 8 {
                    next[p][j] = from_a;
                    next[p + n / 2][j] = from_b;
                } else {
                    next[p][j] = from_b;
                    next[p + n / 2][j] = from_a;
                }
                j += 1;
            }
            p += 1;
        }
        regs = next;
        level += 1;
    }
    let mut m = 0;
    while m < n {
        let row = (regs[m][0] % 16) as usize;
        let mut fix = [0u8; 16];
        let mut identity = true;
        let mut e = 0;
        while e < 16 {
            let mut j = 0;
            while regs[m][j] != (e * 16 + row) as u8 {
                j += 1;
            }
            fix[e] = j as u8;
            identity &= j == e;
            e += 1;
        }
        plan.rows[row] = (
            m,
            if identity {
                None
            } else {
                Some(both_lanes(&fix))
            },
        );
        m += 1;
    }
    plan
}

/// The positions of `lane` in the order: those whose row has `bit` as `first` says,
/// then the others, each by row then element.
const fn by_row_bit(lane: &[u8; 16], bit: u8, first: bool) -> [u8; 16] {
    let mut order = [0u8; 16];
    let mut k = 0;
    let mut pass = 0;
    while pass < 2 {
        let mut key = 0;
        while key < 256 {
            // key = row * 16 + element
            let label = ((key % 16) * 16 + key / 16) as u8;
            let has = (label % 16) & bit != 0;
            if has == (first == (pass == 0)) {
                let mut j = 0;
                while j < 16 {
                    if lane[j] == label {
                        order[k] = j as u8;
                        k += 1;
                    }
                    j += 1;
                }
            }
            key += 1;
        }
        pass += 1;
    }
    order
}

/// A lane's byte order for both lanes of a 256-bit register.
const fn both_lanes(order: &[u8; 16]) -> [u8; 32] {
    let mut both = [0u8; 32];
    let mut j = 0;
    while j < 32 {
        both[j] = order[j % 16];
        j += 1;
    }
    both
}
