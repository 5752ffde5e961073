//! Our LZ4 block decoder (inside one-stream chunks) against LZ4 1.10.0's
//! `LZ4_decompress_safe[_usingDict]` (see lz4_ref.rs): hand-assembled blocks at the edges
//! of C's rules, one line each, with C's verdict written beside them (and asked of C
//! again), then random changes of blocks C made.
//!
//! `LZ4_CASES=1000000 cargo test --release --all-features --test chunk lz4_random
//! -- --nocapture` runs more random changes than CI's 20,000.

use super::lz4_ref::{agrees, c_block, c_verdicts, Case, Lz4Verdict};

/// C's verdict, as written in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum C {
    /// Writes all the block's bytes.
    Fills,
    /// Writes this many, fewer than the block's.
    Short(usize),
    /// Refuses, stopping at this input byte.
    Refuses(usize),
    /// Match offset 0: C writes all (from the bytes it is writing); refused here.
    OffsetZero,
}

/// A table row: name, block, the bytes it must fill, dictionary, C's verdict.
type Row = (&'static str, Vec<u8>, usize, &'static [u8], C);

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn hand_made_blocks_at_c_rules() {
    let lit = |n: usize| (0..n).map(|i| b'a' + (i % 26) as u8).collect::<Vec<u8>>();
    let ok8 = cat(&[&[0x44], b"abcd", &[4, 0, 0x50], b"efghi"]); // a match 5 bytes from the end
    let long_match = cat(&[&[0x1f, b'a', 1, 0], &[255; 12], &[0]]); // 3,079 bytes of 'a'
    let late_literals = cat(&[&long_match, &[0xe4], &lit(14), &[1, 0, 0x00]]);
    #[rustfmt::skip]
    let cases: Vec<Row> = vec![
        ("literals only", cat(&[&[0x50], b"abcde"]), 5, b"", C::Fills),
        ("14 literals in the token", cat(&[&[0xe0], &lit(14)]), 14, b"", C::Fills),
        ("15 literals: one length byte 0", cat(&[&[0xf0, 0], &lit(15)]), 15, b"", C::Fills),
        ("15 + 254 literals", cat(&[&[0xf0, 254], &lit(269)]), 269, b"", C::Fills),
        ("15 + 255 + 0 literals", cat(&[&[0xf0, 255, 0], &lit(270)]), 270, b"", C::Fills),
        ("15 + 255 + 255 + 1 literals", cat(&[&[0xf0, 255, 255, 1], &lit(526)]), 526, b"", C::Fills),
        ("a literal length cut after 255", vec![0xf0, 255], 270, b"", C::Refuses(1)),
        ("literal-length bytes within the last 15", cat(&[&[0xf0, 0], &lit(12)]), 15, b"", C::Refuses(1)),
        ("a match ending 5 bytes before the end", ok8.clone(), 17, b"", C::Fills),
        ("the same, one byte short of the output", ok8.clone(), 18, b"", C::Short(17)),
        ("the same, cut by one byte", ok8[..12].to_vec(), 17, b"", C::Refuses(1)),
        ("the same and a trailing byte", cat(&[&ok8, &[0]]), 17, b"", C::Refuses(8)),
        ("offset 0", cat(&[&[0x44], b"abcd", &[0, 0, 0x50], b"efghi"]), 17, b"", C::OffsetZero),
        ("offset past the output", cat(&[&[0x44], b"abcd", &[5, 0, 0x50], b"efghi"]), 17, b"", C::Refuses(7)),
        ("literals ending 7 input bytes before the end", cat(&[&[0x84], &lit(8), &[8, 0, 0x40], b"wxyz"]), 21, b"", C::Refuses(1)),
        ("a 19-byte match ending 5 bytes before the end", cat(&[&[0x4f], b"abcd", &[4, 0, 0, 0x50], b"vwxyz"]), 28, b"", C::Fills),
        ("a 19-byte match ending 4 bytes before the end", cat(&[&[0x4f], b"abcd", &[4, 0, 0, 0x40], b"wxyz"]), 27, b"", C::Refuses(8)),
        ("match-length bytes into the last 4", cat(&[&[0x4f], b"abcd", &[4, 0], &[255; 6]]), 300, b"", C::Refuses(10)),
        ("15 + 255 + 0 match bytes", cat(&[&[0x1f, b'a', 1, 0, 255, 0, 0x50], b"vwxyz"]), 280, b"", C::Fills),
        // C's shortcut for short sequences (16 input, 32 output bytes left) checks no
        // end rule: its match may end 2 bytes before the end.
        ("a shortcut match ending 2 bytes before the end", cat(&[&[0xee], &lit(14), &[8, 0, 0x20], b"yz"]), 34, b"", C::Fills),
        ("the same into 33 bytes", cat(&[&[0xee], &lit(14), &[8, 0, 0x20], b"yz"]), 33, b"", C::Refuses(18)),
        // C's fast loop (64 output bytes left) lets short literals end 7 input bytes
        // before the end; its safe loop does not.
        ("late literals in the fast loop", late_literals.clone(), 4000, b"", C::Short(3102)),
        ("late literals in the safe loop", late_literals.clone(), 3102, b"", C::Refuses(18)),
        ("a match in the dictionary", cat(&[&[0x04, 10, 0, 0x50], b"abcde"]), 13, b"0123456789", C::Fills),
        ("a match from the dictionary into the output", cat(&[&[0x24], b"ab", &[5, 0, 0x50], b"vwxyz"]), 15, b"xyz", C::Fills),
        ("an offset to the dictionary's first byte", cat(&[&[0x44], b"abcd", &[7, 0, 0x50], b"efghi"]), 17, b"xyz", C::Fills),
        ("an offset before the dictionary", cat(&[&[0x44], b"abcd", &[8, 0, 0x50], b"efghi"]), 17, b"xyz", C::Refuses(7)),
        ("a dictionary match ending 4 bytes before the end", cat(&[&[0x0f, 3, 0, 0, 0x40], b"wxyz"]), 23, b"0123456789abcdefghijklmn", C::Refuses(4)),
        ("a long overlapping match from the dictionary", cat(&[&[0x0f, 2, 0, 200, 0x50], b"vwxyz"]), 224, b"xy", C::Fills),
    ];
    let blocks: Vec<Case> = cases
        .iter()
        .map(|(_, block, neblock, dict, _)| Case {
            block: block.clone(),
            neblock: *neblock,
            dict: dict.to_vec(),
        })
        .collect();
    let verdicts = c_verdicts(&blocks);
    for ((name, .., expected), (case, c)) in cases.iter().zip(blocks.iter().zip(&verdicts)) {
        assert_ne!(
            case.block.len(),
            case.neblock,
            "{name}: a stored stream, not LZ4"
        );
        let seen = match c {
            Lz4Verdict::Wrote(bytes) if bytes.len() == case.neblock => C::Fills,
            Lz4Verdict::Wrote(bytes) => C::Short(bytes.len()),
            Lz4Verdict::Refused(at) => C::Refuses(*at),
            Lz4Verdict::Crash => panic!("{name}: C crashed"),
        };
        match expected {
            C::OffsetZero => assert_eq!(seen, C::Fills, "{name}: C"),
            _ => assert_eq!(seen, *expected, "{name}: C"),
        }
        let known = agrees(case, c).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(known, *expected == C::OffsetZero, "{name}: offset 0");
    }
}

/// A xorshift generator: the random changes are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Data C compresses: runs, short repeats (bitshuffled-like), a counter, text-like and
/// random bytes, small and large.
fn inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for &len in &[13usize, 40, 100, 700, 4096, 20_000] {
        out.push((0..len).map(|i| (i / 64) as u8 & 0x80).collect()); // bit planes: runs
        out.push(
            (0..len)
                .map(|i| [0, 0, 1, 0, 3, 0, 0, 7][i % 8] ^ (i / 500) as u8)
                .collect(),
        );
        out.push(
            (0..len / 4)
                .flat_map(|i| (i as u32).to_le_bytes())
                .collect(),
        );
        out.push(
            (0..len)
                .map(|i| {
                    if i % 7 < 4 {
                        (i / 3) as u8
                    } else {
                        rng.next() as u8 % 16
                    }
                })
                .collect(),
        );
        out.push((0..len).map(|_| rng.next() as u8).collect());
    }
    out
}

/// Changes of `block`: cuts, one to three changed bytes, an inserted or removed byte,
/// and another output size.
fn mutate(rng: &mut Rng, case: &Case) -> Case {
    let mut c = case.clone();
    let len = c.block.len();
    match rng.below(8) {
        0 => c.block.truncate(rng.below(len)),
        1 => c.block.insert(rng.below(len + 1), rng.next() as u8),
        2 if len > 1 => {
            c.block.remove(rng.below(len));
        }
        3 => c.neblock = (c.neblock + rng.below(40)).saturating_sub(20).max(1),
        _ => {
            for _ in 0..=rng.below(3) {
                let at = rng.below(len);
                c.block[at] = match rng.below(4) {
                    0 => rng.next() as u8,
                    1 => c.block[at] ^ (1 << rng.below(8)),
                    2 => [0, 0x0f, 0xf0, 0xff][rng.below(4)],
                    _ => c.block[at].wrapping_add(1),
                };
            }
        }
    }
    c
}

#[test]
fn lz4_random_changes_of_c_blocks() {
    let total: usize = std::env::var("LZ4_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let dict: Vec<u8> = (0..3000u32).map(|i| (i * 7 / 5) as u8).collect();
    let mut bases = Vec::new();
    for src in inputs() {
        for (level, dict) in [(0, &[][..]), (9, &[][..]), (0, &dict[..])] {
            let block = c_block(&src, level, dict);
            if block.len() != src.len() {
                bases.push((
                    src.clone(),
                    Case {
                        block,
                        neblock: src.len(),
                        dict: dict.to_vec(),
                    },
                ));
            }
        }
    }
    // C's blocks as made decode to their input, in C and here.
    let cases: Vec<Case> = bases.iter().map(|(_, c)| c.clone()).collect();
    for ((src, case), c) in bases.iter().zip(c_verdicts(&cases)) {
        assert_eq!(c, Lz4Verdict::Wrote(src.clone()));
        assert_eq!(agrees(case, &c), Ok(false));
    }
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut zero, mut refused, mut short, mut filled) = (0, 0, 0, 0);
    for round in 0..total.div_ceil(5000) {
        let cases: Vec<Case> = (0..5000.min(total - round * 5000))
            .map(|i| mutate(&mut rng, &bases[i % bases.len()].1))
            .filter(|c| !c.block.is_empty() && c.block.len() != c.neblock)
            .collect();
        for (case, c) in cases.iter().zip(c_verdicts(&cases)) {
            match agrees(case, &c) {
                Ok(true) => zero += 1,
                Ok(false) => match c {
                    Lz4Verdict::Wrote(b) if b.len() == case.neblock => filled += 1,
                    Lz4Verdict::Wrote(_) => short += 1,
                    _ => refused += 1,
                },
                Err(e) => panic!(
                    "{e}: block {:02x?} into {} bytes, dictionary of {}",
                    case.block,
                    case.neblock,
                    case.dict.len()
                ),
            }
        }
    }
    eprintln!("C fills {filled}, writes fewer {short}, refuses {refused}; offset 0 {zero}");
    assert!(filled > 0 && short > 0 && refused > 0);
}

#[test]
fn lz4_errors_name_the_chunk_byte() {
    // A match 5 bytes back after 4 literals: C stops after the offset (stream byte 7),
    // which is chunk byte 47 (header 32, bstarts 4, csize 4).
    let case = Case {
        block: cat(&[&[0x44], b"abcd", &[5, 0, 0x50], b"efghi"]),
        neblock: 17,
        dict: Vec::new(),
    };
    assert_eq!(
        c_verdicts(std::slice::from_ref(&case)),
        [Lz4Verdict::Refused(7)]
    );
    let err = b2nd_meta::chunk::decode(
        &super::lz4_ref::chunk_of(&case),
        &b2nd_meta::chunk::DecodeBudget::default(),
    )
    .unwrap_err();
    assert_eq!(err.offset(), Some(47));
    assert_eq!(
        err.to_string(),
        "expected a match offset within the output and the dictionary, at most 4, found 5 \
         (byte 7 of the LZ4 stream) at byte 47"
    );
}
