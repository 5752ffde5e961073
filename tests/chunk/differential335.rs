//! Our decoder against C-Blosc2 3.3.5 (what python-blosc2 4.14.1 runs; tests/chunk/c335.rs
//! loads it): chunks 3.3.5 compresses for every codec x filter pipeline x typesize x
//! blocksize x split (and with dictionaries), special chunks of every header, and their
//! cuts and single-byte changes. Never other bytes than C's, never `Ok` where C refuses;
//! every chunk C decodes and we refuse is in a class of [`KNOWN_REFUSALS`], with its
//! reason.
//!
//! CI runs `differential_335_small` (a fixed subset, seconds; .ci/run installs the wheel
//! and sets `B2ND_LIBBLOSC2_335`). The full sweep, by hand:
//! `B2ND_LIBBLOSC2_335=/path/to/libblosc2.so cargo test --release --all-features --test chunk differential_335_full -- --ignored --nocapture`

use std::collections::BTreeMap;

use super::c335::{self, CVerdict};
use super::c_ref::{ALWAYS_SPLIT, BLOSCLZ, DELTA, LZ4, LZ4HC, NEVER_SPLIT, SHUFFLE, ZSTD};
use super::differential::{class_of, counter, describe, float_ramp, mutations, pipelines};

/// `BLOSC_ZLIB` (3.3.5 has zlib compiled in; blosc2-src does not).
const ZLIB: u8 = 4;
/// `BLOSC_FILTER_INT_TRUNC`, a plugin 3.3.5 registers (`filters-registry.c`).
const INT_TRUNC: u8 = 36;

/// The pipelines of every typesize, and int_trunc's (3.x): alone, after shuffle and
/// beside delta, its meta (signed) the bits kept (3) or zeroed (-2, python's
/// `filters_meta=[-2]`).
fn pipelines_335(typesize: i32) -> Vec<([u8; 6], [u8; 6])> {
    let mut p = pipelines(typesize);
    for meta in [3u8, (-2i8) as u8] {
        p.push(([0, 0, 0, 0, 0, INT_TRUNC], [0, 0, 0, 0, 0, meta]));
        p.push(([INT_TRUNC, 0, 0, 0, 0, SHUFFLE], [meta, 0, 0, 0, 0, 0]));
        p.push(([INT_TRUNC, DELTA, 0, 0, 0, SHUFFLE], [meta, 0, 0, 0, 0, 0]));
    }
    p
}

/// Chunks C-Blosc2 3.3.5 decodes and we refuse, by the start of our message, each with
/// why.
const KNOWN_REFUSALS: &[(&str, &str)] = &[
    (
        "expected nbytes from N to N, found -",
        "C does not check for a negative nbytes (and writes nothing)",
    ),
    (
        "the chunk ends at byte",
        "C bounds streams by the buffer it is given, not by the chunk's cbytes",
    ),
    (
        "expected block N to start inside the chunk",
        "C bounds block starts by the buffer it is given, not by the chunk's cbytes",
    ),
    (
        "expected blocksize a multiple of typesize when blocks are split",
        "C decodes nbytes / typesize bytes per stream and leaves the rest of the block \
         unwritten (whatever the destination held)",
    ),
    (
        "the chunk is filtered with bytedelta_buggy (filter N)",
        "bytedelta_buggy (filter 34, the bytedelta before C-Blosc2's #524, kept for old \
         chunks): its output depends on C's SIMD width, and it leaves the bytes after the \
         last whole element unwritten (whatever the buffer held): not decoded",
    ),
    (
        "expected a match offset of at least N, found N (byte N of the LZN stream)",
        "LZ4 offset 0: C copies from the bytes it is writing (undefined contents)",
    ),
];

/// Verdicts of one kind of chunk.
#[derive(Default)]
struct Counts {
    same_bytes: usize,
    both_refuse: usize,
    different: Vec<String>,
    /// Same bytes wherever C writes; C leaves some unwritten (the destination keeps
    /// what it held): version-2 bitshuffled blocks' bytes after the last whole element.
    c_unwritten: usize,
    /// We decode, C refuses: C's code and an example, by C's code.
    ours_only: BTreeMap<i32, (usize, String)>,
    /// C decodes, we refuse: by our message's class.
    c_only: BTreeMap<String, (usize, String)>,
    c_crash: Vec<String>,
}

/// Verdicts by kind of chunk ("compressed", "special", ...).
#[derive(Default)]
struct Tally(BTreeMap<&'static str, Counts>);

impl Tally {
    /// Compares our verdict on each chunk with C's; `label` names where they came from.
    fn compare(&mut self, kind: &'static str, label: &str, chunks: &[Vec<u8>], original: &[u8]) {
        self.compare_labelled(kind, &|_| label.to_string(), chunks, original);
    }

    /// [`Tally::compare`] with a label per chunk (`label(i)`), C asked once for all.
    fn compare_labelled(
        &mut self,
        kind: &'static str,
        label: &dyn Fn(usize) -> String,
        chunks: &[Vec<u8>],
        original: &[u8],
    ) {
        let counts = self.0.entry(kind).or_default();
        let verdicts = c335::decompress_all(chunks);
        for (i, (bytes, c)) in chunks.iter().zip(verdicts).enumerate() {
            let what = || match original {
                [] => format!("{} {:02x?}", label(i), &bytes[..bytes.len().min(40)]),
                _ => format!("{} {}", label(i), describe(original, bytes)),
            };
            match (super::into::decode_both(bytes), c) {
                (Ok(a), CVerdict::Ok(b)) if a == b => counts.same_bytes += 1,
                (Ok(a), CVerdict::Ok(b)) if same_where_c_writes(bytes, &a, &b) => {
                    counts.c_unwritten += 1
                }
                (Ok(_), CVerdict::Ok(_)) => counts.different.push(what()),
                (Err(_), CVerdict::Err(_)) => counts.both_refuse += 1,
                (Ok(_), CVerdict::Err(rc)) => {
                    let entry = counts.ours_only.entry(rc).or_insert((0, what()));
                    entry.0 += 1;
                }
                (Err(e), CVerdict::Ok(_)) => {
                    let entry = counts.c_only.entry(class_of(&e)).or_insert((0, what()));
                    entry.0 += 1;
                }
                (_, CVerdict::Crash) => counts.c_crash.push(what()),
            }
        }
    }

    fn report_and_check(&self) {
        for (kind, c) in &self.0 {
            let ours: usize = c.ours_only.values().map(|v| v.0).sum();
            let theirs: usize = c.c_only.values().map(|v| v.0).sum();
            eprintln!(
                "{kind}: same bytes {}, both refuse {}, different bytes {}, ours only {ours}, \
                 C only {theirs}, C crashed {}, same where C writes (it leaves bytes \
                 unwritten) {}",
                c.same_bytes,
                c.both_refuse,
                c.different.len(),
                c.c_crash.len(),
                c.c_unwritten,
            );
            for (class, (n, example)) in &c.c_only {
                eprintln!("  C decodes, we refuse ({n}): {class} (e.g. {example})");
            }
            for (rc, (n, example)) in &c.ours_only {
                eprintln!("  we decode, C refuses with {rc} ({n}), e.g. {example}");
            }
            for what in c.c_crash.iter().take(5) {
                eprintln!("  C crashed on {what}");
            }
        }
        for (kind, c) in &self.0 {
            assert!(
                c.different.is_empty(),
                "{kind}: different bytes: {:?}",
                c.different
            );
            assert!(
                c.ours_only.is_empty(),
                "{kind}: Ok where C refuses: {:?}",
                c.ours_only
            );
            for class in c.c_only.keys() {
                assert!(
                    KNOWN_REFUSALS.iter().any(|(k, _)| class.starts_with(k)),
                    "{kind}: C decodes what we refuse, in a class not listed: {class}"
                );
            }
        }
    }
}

/// Whether ours (`a`) equals C's (`b`) at every byte C writes: asked again into 0x00
/// and into 0xff bytes, the bytes that differ between the two are those C leaves
/// unwritten. (`b` itself is no guide there: C's children keep one destination from
/// chunk to chunk, so an unwritten byte holds whatever an earlier chunk left.) Only
/// chunks of format version 2 (c-blosc 1.x) with bitshuffle: C-Blosc2 3.3.5 no longer
/// copies a block's bytes after its last whole element there (c-blosc 1.18 on wrote
/// them as they are, as ours reads them; tests/chunk/cblosc1.rs).
fn same_where_c_writes(chunk: &[u8], a: &[u8], b: &[u8]) -> bool {
    let flags = chunk.get(2).copied().unwrap_or(0);
    let bitshuffled = flags & 0x05 == 0x04
        || flags & 0x05 == 0x05 && chunk.get(16..22).is_some_and(|f| f.contains(&2));
    if chunk.first() != Some(&2) || !bitshuffled || a.len() != b.len() {
        return false;
    }
    let asked = |fill| match c335::decompress_filled(&[chunk.to_vec()], fill).pop() {
        Some(CVerdict::Ok(bytes)) if bytes.len() == a.len() => Some(bytes),
        _ => None,
    };
    let (Some(zeros), Some(ones)) = (asked(0x00), asked(0xff)) else {
        return false;
    };
    (0..a.len()).all(|i| zeros[i] != ones[i] || a[i] == zeros[i] && b[i] == zeros[i])
}

#[test]
fn bytes_c_leaves_unwritten_are_not_compared_whatever_its_destination_held() {
    if !c335::present("bytes_c_leaves_unwritten_are_not_compared") {
        return;
    }
    // C's answer into 0xff bytes stands for one into a destination an earlier chunk left.
    let (chunk, c_ones) = super::cblosc1::with_unwritten_bytes();
    let ours =
        b2nd_meta::chunk::decode(&chunk, &b2nd_meta::chunk::DecodeBudget::default()).unwrap();
    assert_ne!(ours, c_ones);
    assert!(same_where_c_writes(&chunk, &ours, &c_ones));
    let written = (0..ours.len()).find(|&i| ours[i] == c_ones[i]).unwrap();
    let mut wrong = ours.clone();
    wrong[written] ^= 1;
    assert!(!same_where_c_writes(&chunk, &wrong, &c_ones));
}

/// What C-Blosc2 3.3.5 compresses: the codecs, typesizes, blocksizes and levels.
struct Grid<'a> {
    codecs: &'a [u8],
    typesizes: &'a [i32],
    blocksizes: &'a [i32],
    clevels: &'a [u8],
}

/// The chunks 3.3.5 makes of `data`, with their labels.
fn c_chunks(data: &[u8], grid: &Grid<'_>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for &codec in grid.codecs {
        for &typesize in grid.typesizes {
            for (filters, metas) in pipelines_335(typesize) {
                for &blocksize in grid.blocksizes {
                    for split in [ALWAYS_SPLIT, NEVER_SPLIT] {
                        for &clevel in grid.clevels {
                            let mut p = c335::cparams(codec, clevel, typesize, blocksize, split);
                            p.filters = filters;
                            p.filters_meta = metas;
                            let label = format!(
                                "codec {codec} clevel {clevel} typesize {typesize} \
                                 blocksize {blocksize} split {split} filters {filters:?} \
                                 meta {metas:?}"
                            );
                            if let Some(chunk) = c335::compress(data, &p) {
                                out.push((label, chunk));
                            }
                        }
                    }
                }
            }
        }
        // Dictionaries: zstd, LZ4 and LZ4HC in 3.x.
        if [ZSTD, LZ4, LZ4HC].contains(&codec) {
            for &typesize in grid.typesizes {
                let mut p = c335::cparams(codec, 5, typesize, 0, ALWAYS_SPLIT);
                p.use_dict = 1;
                if let Some(chunk) = c335::compress(data, &p) {
                    out.push((format!("codec {codec} typesize {typesize} dict"), chunk));
                }
            }
        }
    }
    out
}

/// A special chunk's 32-byte header and its value bytes.
pub(super) fn special(
    version: u8,
    flags: u8,
    typesize: u8,
    nbytes: i32,
    blocksize: i32,
    special: u8,
    value: &[u8],
) -> Vec<u8> {
    let mut h = vec![version, 1, flags, typesize];
    h.extend(nbytes.to_le_bytes());
    h.extend(blocksize.to_le_bytes());
    h.extend((32 + value.len() as i32).to_le_bytes());
    h.extend([
        0,
        0,
        0,
        0,
        0,
        SHUFFLE,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        special << 4,
    ]);
    h.extend(value);
    h
}

/// Special chunks over every field that matters: format version, memcpyed flag,
/// typesize, nbytes, blocksize, the special value and the value's width; `every` thins
/// them (1: all).
fn special_chunks(every: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0usize;
    for version in [2, 4, 5, 6, 7, 0xff] {
        for flags in [0x05, 0x07, 0x15, 0x25] {
            for typesize in [1u8, 2, 3, 4, 8, 16] {
                for nbytes in [0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 48, 64, 100, 1000] {
                    for blocksize in [1, 2, 3, 4, 8, 16, 24, 64, 1 << 20] {
                        for kind in 1..=7u8 {
                            let widths: &[usize] = if kind == 3 {
                                &[0, 1, 2, 3, 4, 8, 16]
                            } else {
                                &[0, 2]
                            };
                            for &width in widths {
                                i += 1;
                                if !i.is_multiple_of(every) {
                                    continue;
                                }
                                let value: Vec<u8> = (0..width as u8).map(|b| 0xa0 | b).collect();
                                out.push(special(
                                    version, flags, typesize, nbytes, blocksize, kind, &value,
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// How much of the sweep runs: every `made`-th chunk C makes is changed, at every
/// `bytes`-th position past its first 64 bytes; every `special`-th special chunk; every
/// `fixtures`-th chunk of the c-blosc 1.x and variable-length block fixtures.
struct Thinning {
    made: usize,
    bytes: usize,
    special: usize,
    fixtures: usize,
}

fn sweep(grid: &Grid<'_>, len: usize, thin: &Thinning) {
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    for (name, data) in [("float ramp", float_ramp(len)), ("counter", counter(len))] {
        let made = c_chunks(&data, grid);
        let chunks: Vec<Vec<u8>> = made.iter().map(|(_, c)| c.clone()).collect();
        let label = |i: usize| format!("{name} {} as made", made[i].0);
        tally.compare_labelled("compressed", &label, &chunks, &[]);
        for (label, chunk) in made.iter().step_by(thin.made) {
            let label = format!("{name} {label}");
            let changed = mutations(chunk, thin.bytes);
            tally.compare("compressed, changed", &label, &changed, chunk);
        }
    }
    let specials = special_chunks(thin.special);
    tally.compare("special", "special", &specials, &[]);
    // c-blosc 1.x's (format version 2, tests/data/chunks/cblosc1.py).
    let c1: Vec<Vec<u8>> = super::cblosc1::chunk_bytes();
    tally.compare("c-blosc 1.x", "c-blosc 1.x", &c1, &[]);
    for chunk in c1.iter().step_by(thin.fixtures) {
        let changed = mutations(chunk, thin.bytes);
        tally.compare("c-blosc 1.x, changed", "c-blosc 1.x", &changed, chunk);
    }
    // Variable-length blocks: python-blosc2 4.14.1's (tests/data/chunks/vlblocks.py).
    let vls = super::vlblocks::vl_chunks();
    let chunks: Vec<Vec<u8>> = vls.iter().map(|vl| vl.bytes.clone()).collect();
    tally.compare_labelled(
        "variable-length blocks",
        &|i| vls[i].label.clone(),
        &chunks,
        &[],
    );
    for vl in vls.iter().step_by(thin.fixtures) {
        let changed = mutations(&vl.bytes, thin.bytes);
        tally.compare(
            "variable-length blocks, changed",
            &vl.label,
            &changed,
            &vl.bytes,
        );
    }
    eprintln!("{:?}", started.elapsed());
    tally.report_and_check();
}

#[test]
fn differential_335_small() {
    if !c335::present("differential_335_small") {
        return;
    }
    let grid = Grid {
        codecs: &[BLOSCLZ, LZ4, ZLIB, ZSTD],
        typesizes: &[1, 8],
        blocksizes: &[0],
        clevels: &[5],
    };
    let thin = Thinning {
        made: 6,
        bytes: 127,
        special: 61,
        fixtures: 97,
    };
    sweep(&grid, 512, &thin);
}

#[test]
#[ignore = "minutes: the full sweep against C-Blosc2 3.3.5"]
fn differential_335_full() {
    if !c335::present("differential_335_full") {
        return;
    }
    let grid = Grid {
        codecs: &[BLOSCLZ, LZ4, LZ4HC, ZLIB, ZSTD],
        typesizes: &[1, 2, 4, 8, 16],
        blocksizes: &[0, 256, 4096],
        clevels: &[1, 5, 9],
    };
    let thin = Thinning {
        made: 1,
        bytes: 17,
        special: 1,
        fixtures: 1,
    };
    sweep(&grid, 4096, &thin);
}

/// Shuffled blocks whose streams are stored as they are (incompressible bytes) or zeros
/// (the unshuffle reads both where they are) beside compressed ones, for every
/// element size the unshuffle reads by rows: decoded to the bytes C-Blosc2 3.3.5 was
/// given.
#[test]
fn shuffled_streams_stored_as_they_are() {
    if !c335::present("shuffled_streams_stored_as_they_are") {
        return;
    }
    let mut x = 7u32;
    for typesize in [2, 4, 8, 16] {
        // Each element: a noise byte, a counter byte, then zeros.
        let data: Vec<u8> = (0..8192 * typesize)
            .map(|i| match i % typesize {
                0 => {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (x >> 16) as u8
                }
                1 => (i / typesize / 64) as u8,
                _ => 0,
            })
            .collect();
        for codec in [BLOSCLZ, LZ4] {
            let p = c335::cparams(codec, 5, typesize as i32, 0, ALWAYS_SPLIT);
            let chunk = c335::compress(&data, &p).expect("C compresses");
            let field = |at: usize| u32::from_le_bytes(chunk[at..at + 4].try_into().unwrap());
            // The first block's streams: the noise bytes' stored as they are, the
            // zeros' (from the third byte on) of csize 0.
            let (blocksize, mut at) = (field(8) as usize, field(32) as usize);
            let csizes: Vec<i32> = (0..typesize)
                .map(|_| {
                    let csize = field(at) as i32;
                    at += 4 + csize.max(0) as usize + usize::from(csize < 0);
                    csize
                })
                .collect();
            assert_eq!(
                csizes[0] as usize,
                blocksize / typesize,
                "{codec} x {typesize}"
            );
            assert!(typesize == 2 || csizes[2..].contains(&0), "{csizes:?}");
            let decoded = super::into::decode_both(&chunk);
            assert!(decoded.as_ref() == Ok(&data), "{codec} x {typesize}");
        }
    }
}

/// zstd blocks whose literals are Huffman-coded in 4 streams: the fast loop reads the
/// streams where they are in the chunk when 128 KiB and 8 bytes of it follow their
/// start, else from a copy. A 1 MiB float ramp (C 3.3.5, clevel 5, shuffle, blocks
/// split by byte, as the bench's; about 450 KiB in all) has both (12 blocks take the
/// loop, 10 of them in place): its bytes as C's, with `decode` and `decode_into`.
#[test]
fn zstd_huffman_streams_where_they_are_and_copied() {
    if !c335::present("zstd_huffman_streams_where_they_are_and_copied") {
        return;
    }
    let data = float_ramp(1 << 20);
    let p = c335::cparams(ZSTD, 5, 8, 0, ALWAYS_SPLIT);
    let chunk = c335::compress(&data, &p).expect("C compresses");
    assert!(chunk.len() > 300 << 10, "{} bytes", chunk.len());
    let decoded = super::into::decode_both(&chunk);
    assert!(decoded.as_ref() == Ok(&data));
}
