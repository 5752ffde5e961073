//! A block's Huffman trees, built as zlib's trees.c builds them (the same heap order
//! and tie-breaks, so the same code lengths), and their costs in bits.

use super::bits::{
    BL_CODES, BL_ORDER, D_CODES, EXTRA_BLBITS, EXTRA_DBITS, EXTRA_LBITS, L_CODES, STATIC_DLEN,
    STATIC_LLEN,
};

/// A tree's leaves and internal nodes.
const HEAP_SIZE: usize = 2 * L_CODES + 1;

/// What a tree is built for: its leaves, their fixed code lengths (to cost a fixed-code
/// block; empty for the bit-length tree) and extra bits, and its longest code.
struct Desc {
    elems: usize,
    stree: &'static [u8],
    extra: &'static [u8],
    extra_base: usize,
    max_length: u8,
}

const L_DESC: Desc = Desc {
    elems: L_CODES,
    stree: &STATIC_LLEN,
    extra: &EXTRA_LBITS,
    extra_base: 257,
    max_length: 15,
};
const D_DESC: Desc = Desc {
    elems: D_CODES,
    stree: &[STATIC_DLEN; D_CODES],
    extra: &EXTRA_DBITS,
    extra_base: 0,
    max_length: 15,
};
const BL_DESC: Desc = Desc {
    elems: BL_CODES,
    stree: &[],
    extra: &EXTRA_BLBITS,
    extra_base: 0,
    max_length: 7,
};

/// A tree's code lengths and its last used code.
pub(super) struct Lens {
    pub len: [u8; L_CODES],
    pub max_code: usize,
}

/// The block's size in bits with dynamic trees (`opt`) and with the fixed ones
/// (`stat`), as zlib counts them; wrapping, as zlib subtracts before it adds.
#[derive(Default)]
pub(super) struct Costs {
    pub opt: usize,
    pub stat: usize,
}

/// zlib's heap of nodes, least frequent (then least deep) first.
struct Heap {
    heap: [u16; HEAP_SIZE],
    len: usize,
    max: usize,
    depth: [u8; HEAP_SIZE],
    freq: [u16; HEAP_SIZE],
}

impl Heap {
    fn key(&self, n: u16) -> u32 {
        u32::from(self.freq[usize::from(n)]) << 8 | u32::from(self.depth[usize::from(n)])
    }

    fn down(&mut self, mut k: usize) {
        let v = self.heap[k];
        let v_key = self.key(v);
        let mut j = k << 1;
        while j <= self.len {
            let mut j_key = self.key(self.heap[j]);
            if j < self.len {
                let j1_key = self.key(self.heap[j + 1]);
                if j1_key <= j_key {
                    j += 1;
                    j_key = j1_key;
                }
            }
            if v_key <= j_key {
                break;
            }
            self.heap[k] = self.heap[j];
            k = j;
            j <<= 1;
        }
        self.heap[k] = v;
    }

    fn pop(&mut self) -> u16 {
        let top = self.heap[1];
        self.heap[1] = self.heap[self.len];
        self.len -= 1;
        self.down(1);
        top
    }
}

/// zlib's build_tree and gen_bitlen: the code lengths of `freq`'s symbols, limited to
/// `d.max_length`, adding the block's cost to `costs`.
fn build_tree(freq: &[u16], d: &Desc, costs: &mut Costs) -> Lens {
    let mut h = Heap {
        heap: [0; HEAP_SIZE],
        len: 0,
        max: HEAP_SIZE,
        depth: [0; HEAP_SIZE],
        freq: [0; HEAP_SIZE],
    };
    h.freq[..d.elems].copy_from_slice(&freq[..d.elems]);
    let mut max_code: isize = -1;
    for n in 0..d.elems {
        if h.freq[n] > 0 {
            h.len += 1;
            h.heap[h.len] = n as u16;
            max_code = n as isize;
        }
    }
    // At least two codes, so that one bit is sent even for a single symbol.
    while h.len < 2 {
        let node = if max_code < 2 {
            max_code += 1;
            max_code as usize
        } else {
            0
        };
        h.len += 1;
        h.heap[h.len] = node as u16;
        h.freq[node] = 1;
        costs.opt = costs.opt.wrapping_sub(1);
        if let Some(&s) = d.stree.get(node) {
            costs.stat = costs.stat.wrapping_sub(usize::from(s));
        }
    }
    let max_code = max_code as usize;
    for k in (1..=h.len / 2).rev() {
        h.down(k);
    }
    // Combine the two least frequent nodes until one is left; `heap[max..]` then
    // lists the nodes by decreasing frequency, the root first.
    let mut dad = [0u16; HEAP_SIZE];
    let mut node = d.elems;
    loop {
        let n = h.pop();
        let m = h.heap[1];
        h.max -= 2;
        h.heap[h.max + 1] = n;
        h.heap[h.max] = m;
        let (n, m) = (usize::from(n), usize::from(m));
        h.freq[node] = h.freq[n] + h.freq[m];
        h.depth[node] = h.depth[n].max(h.depth[m]) + 1;
        dad[n] = node as u16;
        dad[m] = node as u16;
        h.heap[1] = node as u16;
        node += 1;
        h.down(1);
        if h.len < 2 {
            break;
        }
    }
    h.max -= 1;
    h.heap[h.max] = h.heap[1];

    let mut len = [0u8; HEAP_SIZE];
    let mut bl_count = [0u16; 16];
    let mut overflow = 0i32;
    for &n in &h.heap[h.max + 1..] {
        let n = usize::from(n);
        let mut bits = len[usize::from(dad[n])] + 1;
        if bits > d.max_length {
            bits = d.max_length;
            overflow += 1;
        }
        len[n] = bits;
        if n > max_code {
            continue;
        }
        bl_count[usize::from(bits)] += 1;
        let xbits = if n >= d.extra_base {
            usize::from(d.extra[n - d.extra_base])
        } else {
            0
        };
        let f = usize::from(h.freq[n]);
        costs.opt = costs.opt.wrapping_add(f * (usize::from(bits) + xbits));
        if let Some(&s) = d.stree.get(n) {
            costs.stat = costs.stat.wrapping_add(f * (usize::from(s) + xbits));
        }
    }
    if overflow > 0 {
        // Move leaves down from the longest allowed length, then give the lengths
        // back by increasing frequency (Okumura's method, as zlib).
        let max = usize::from(d.max_length);
        while overflow > 0 {
            let mut bits = max - 1;
            while bl_count[bits] == 0 {
                bits -= 1;
            }
            bl_count[bits] -= 1;
            bl_count[bits + 1] += 2;
            bl_count[max] -= 1;
            overflow -= 2;
        }
        let mut k = HEAP_SIZE;
        for bits in (1..=max).rev() {
            let mut count = bl_count[bits];
            while count != 0 {
                k -= 1;
                let m = usize::from(h.heap[k]);
                if m > max_code {
                    continue;
                }
                let f = usize::from(h.freq[m]);
                costs.opt = costs
                    .opt
                    .wrapping_add(bits * f)
                    .wrapping_sub(usize::from(len[m]) * f);
                len[m] = bits as u8;
                count -= 1;
            }
        }
    }
    let mut lens = Lens {
        len: [0; L_CODES],
        max_code,
    };
    lens.len[..=max_code].copy_from_slice(&len[..=max_code]);
    lens
}

const REP_3_6: usize = 16;
const REPZ_3_10: usize = 17;
const REPZ_11_138: usize = 18;

/// zlib's scan_tree and send_tree: the run-length coded lengths of a tree, each as
/// (bit-length symbol, extra value, extra bits).
pub(super) fn length_runs(lens: &Lens, mut emit: impl FnMut(usize, u64, u32)) {
    let len = |n: usize| {
        if n <= lens.max_code {
            i32::from(lens.len[n])
        } else {
            -1
        }
    };
    let mut prevlen = -1;
    let mut nextlen = len(0);
    let mut count = 0u64;
    let (mut max_count, mut min_count) = if nextlen == 0 { (138, 3) } else { (7, 4) };
    for n in 0..=lens.max_code {
        let curlen = nextlen;
        nextlen = len(n + 1);
        count += 1;
        if count < max_count && curlen == nextlen {
            continue;
        } else if count < min_count {
            for _ in 0..count {
                emit(curlen as usize, 0, 0);
            }
        } else if curlen != 0 {
            if curlen != prevlen {
                emit(curlen as usize, 0, 0);
                count -= 1;
            }
            emit(REP_3_6, count - 3, 2);
        } else if count <= 10 {
            emit(REPZ_3_10, count - 3, 3);
        } else {
            emit(REPZ_11_138, count - 11, 7);
        }
        count = 0;
        prevlen = curlen;
        (max_count, min_count) = if nextlen == 0 {
            (138, 3)
        } else if curlen == nextlen {
            (6, 3)
        } else {
            (7, 4)
        };
    }
}

/// A block's trees: literal/length, distance, and the bit-length tree that codes them
/// with the number of its lengths sent.
pub(super) struct Trees {
    pub l: Lens,
    pub d: Lens,
    pub bl: Lens,
    pub bl_sent: usize,
}

pub(super) fn build_trees(lfreq: &[u16], dfreq: &[u16], costs: &mut Costs) -> Trees {
    let l = build_tree(lfreq, &L_DESC, costs);
    let d = build_tree(dfreq, &D_DESC, costs);
    let mut blfreq = [0u16; BL_CODES];
    for t in [&l, &d] {
        length_runs(t, |sym, _, _| blfreq[sym] += 1);
    }
    let bl = build_tree(&blfreq, &BL_DESC, costs);
    // At least 4 bit-length code lengths are sent.
    let mut last = BL_CODES - 1;
    while last >= 3 && bl.len[usize::from(BL_ORDER[last])] == 0 {
        last -= 1;
    }
    costs.opt = costs.opt.wrapping_add(3 * (last + 1) + 5 + 5 + 4);
    Trees {
        l,
        d,
        bl,
        bl_sent: last + 1,
    }
}
