//! The chunk's dictionary as libzstd loads it into a `ZSTD_DDict`
//! (`ZSTD_loadEntropy_intoDDict`, `ZSTD_loadDEntropy`): with zstd's magic number, an
//! id, entropy tables (Huffman, then offsets, match lengths, literal lengths) and 3
//! repeat offsets; otherwise raw content. Either way the whole dictionary, header
//! included, is the history before a frame's output (`ZSTD_copyDDictParameters`).

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::fse::SeqTable;
use super::huffman::{self, Table};
use super::sequences::{LL, ML, OF};

/// The magic number of a formatted zstd dictionary, little-endian.
const DICT_MAGIC: u32 = 0xec30_a437;

/// What a formatted dictionary gives every frame to start from.
pub(super) struct Entropy {
    pub(super) huffman: Table,
    pub(super) ll: Box<SeqTable>,
    pub(super) of: Box<SeqTable>,
    pub(super) ml: Box<SeqTable>,
    pub(super) reps: [u32; 3],
}

pub(super) struct Dict {
    pub(super) content: Vec<u8>,
    /// The id frames may name (0 for raw content).
    pub(super) id: u32,
    pub(super) entropy: Option<Entropy>,
}

/// Loads `raw`; `Err` says what libzstd finds wrong in it.
pub(super) fn load(raw: &[u8]) -> Result<Dict, &'static str> {
    let formatted = raw
        .first_chunk::<4>()
        .is_some_and(|m| u32::from_le_bytes(*m) == DICT_MAGIC)
        && raw.len() >= 8;
    if !formatted {
        return Ok(Dict {
            content: raw.to_vec(),
            id: 0,
            entropy: None,
        });
    }
    if raw.len() <= 8 {
        return Err("a dictionary longer than its 8-byte header");
    }
    let id = u32::from_le_bytes([raw[4], raw[5], raw[6], raw[7]]);
    let mut at = 8;
    let mut table = Table::new();
    // libzstd keeps a dictionary's Huffman table for its double-symbol decoder.
    table.double = true;
    at += huffman::read_table(&raw[at..], &mut table)?;
    let mut tables = [
        Box::new(SeqTable::empty()),
        Box::new(SeqTable::empty()),
        Box::new(SeqTable::empty()),
    ];
    for (code, t) in [&OF, &ML, &LL].into_iter().zip(tables.iter_mut()) {
        at += code.read_table(&raw[at..], t)?;
    }
    let [of, ml, ll] = tables;
    let reps_end = at + 12;
    if reps_end > raw.len() {
        return Err("a dictionary holding its 3 repeat offsets");
    }
    let content = raw.len() - reps_end;
    let mut reps = [0u32; 3];
    for (i, r) in reps.iter_mut().enumerate() {
        let b = &raw[at + 4 * i..at + 4 * i + 4];
        *r = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if *r == 0 || *r as usize > content {
            return Err("dictionary repeat offsets from 1 to its content's size");
        }
    }
    Ok(Dict {
        content: raw.to_vec(),
        id,
        entropy: Some(Entropy {
            huffman: table,
            ll,
            of,
            ml,
            reps,
        }),
    })
}

/// XXH64 with seed 0 (the frame checksum is its low 32 bits).
pub(super) fn xxh64(data: &[u8]) -> u64 {
    const P1: u64 = 0x9E37_79B1_85EB_CA87;
    const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    const P3: u64 = 0x1656_67B1_9E37_79F9;
    const P4: u64 = 0x85EB_CA77_C2B2_AE63;
    const P5: u64 = 0x27D4_EB2F_1656_67C5;
    let round = |acc: u64, v: u64| {
        acc.wrapping_add(v.wrapping_mul(P2))
            .rotate_left(31)
            .wrapping_mul(P1)
    };
    let merge = |acc: u64, v: u64| (acc ^ round(0, v)).wrapping_mul(P1).wrapping_add(P4);
    let (stripes, mut rest) = data.as_chunks::<32>();
    let mut h = if stripes.is_empty() {
        P5
    } else {
        let mut v = [P1.wrapping_add(P2), P2, 0, 0u64.wrapping_sub(P1)];
        for stripe in stripes {
            let (lanes, _) = stripe.as_chunks::<8>();
            for (acc, lane) in v.iter_mut().zip(lanes) {
                *acc = round(*acc, u64::from_le_bytes(*lane));
            }
        }
        let mut h = v[0]
            .rotate_left(1)
            .wrapping_add(v[1].rotate_left(7))
            .wrapping_add(v[2].rotate_left(12))
            .wrapping_add(v[3].rotate_left(18));
        for acc in v {
            h = merge(h, acc);
        }
        h
    };
    h = h.wrapping_add(data.len() as u64);
    while let Some((lane, tail)) = rest.split_first_chunk::<8>() {
        h = (h ^ round(0, u64::from_le_bytes(*lane)))
            .rotate_left(27)
            .wrapping_mul(P1)
            .wrapping_add(P4);
        rest = tail;
    }
    if let Some((word, tail)) = rest.split_first_chunk::<4>() {
        h = (h ^ u64::from(u32::from_le_bytes(*word)).wrapping_mul(P1))
            .rotate_left(23)
            .wrapping_mul(P2)
            .wrapping_add(P3);
        rest = tail;
    }
    for &b in rest {
        h = (h ^ u64::from(b).wrapping_mul(P5))
            .rotate_left(11)
            .wrapping_mul(P1);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^= h >> 29;
    h = h.wrapping_mul(P3);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::xxh64;
    use alloc::vec::Vec;

    /// XXH64 (seed 0): the reference's values for "", "a" and "abc", and the low 32
    /// bits of others as the `zstd` command line (C) writes them as frame checksums.
    #[test]
    fn xxh64_as_c() {
        assert_eq!(xxh64(b""), 0xef46_db37_51d8_e999);
        assert_eq!(xxh64(b"a"), 0xd24e_c4f1_a98c_6e5b);
        assert_eq!(xxh64(b"abc"), 0x44bc_2cf5_ad77_0999);
        let text: &[u8] = b"It was the best of times, it was the worst of times, it was the age \
            of wisdom, it was the age of foolishness, it was the epoch of belief.";
        let count = |n: u8| (0..n).collect::<Vec<u8>>();
        let periodic: Vec<u8> = (0..40).chain(0..40).chain(0..40).collect();
        let cases: [(&[u8], u32); 5] = [
            (b"hello", 0x889f_6da3),
            (&count(32), 0x16ff_32b4),
            (&count(33), 0xcafb_8ead),
            (&periodic, 0xf3f3_89f0),
            (text, 0xc202_e571),
        ];
        for (data, low) in cases {
            assert_eq!(xxh64(data) as u32, low, "{} bytes", data.len());
        }
    }
}
