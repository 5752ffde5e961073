//! Our decoder against C-Blosc2 2.15.3's `blosc2_decompress` (in forked children) on
//! chunks C compresses for every codec x filter pipeline x typesize x blocksize x split,
//! and on their cuts and single-byte changes: never other bytes than C's, never `Ok`
//! where C refuses, and every chunk C decodes but we refuse in a class listed here with
//! C's reason.
//!
//! CI runs `differential_small` (a fixed subset, seconds). The full sweep:
//! `cargo test --release --all-features --test chunk differential_full -- --ignored --nocapture`
//! (about 4 minutes; `SWEEP_CODECS=zstd` sweeps the zstd chunks alone, about 1 minute;
//! `SWEEP_CODECS=lz4` the LZ4 and LZ4HC chunks alone).
//!
//! A zstd chunk that ours and C decode to different bytes, or that only C refuses, is
//! asked of libzstd directly (tests/chunk/zstd_ref.rs) and reported with libzstd's
//! reason: there must be none, in the small sweep and in the full one (our decoder,
//! src/codec/zstd/, follows libzstd 1.5.6 stream by stream).
//!
//! The reference is C-Blosc2 3.3.5 (tests/chunk/differential335.rs); this test keeps
//! 2.15.3, which blosc2-src links in, for what needs no wheel: libzstd's verdict on
//! every zstd stream. Where 2.15.3 and 3.3.5 decode differently, the chunk is counted
//! under the class, not compared: see [`version_difference`].

use std::collections::BTreeMap;

use b2nd_meta::chunk;

use super::c_ref::{
    self, CVerdict, Params, ALWAYS_SPLIT, BITSHUFFLE, BLOSCLZ, DELTA, LZ4, LZ4HC, NEVER_SPLIT,
    SHUFFLE, TRUNC_PREC, ZSTD,
};
use super::zstd_ref;

/// Differences between C-Blosc2 2.15.3 (the reference linked here) and C-Blosc2 3.x
/// (python-blosc2 4.x), where this decoder follows 3.x: the chunk is not compared.
fn version_difference(chunk: &[u8]) -> Option<&'static str> {
    if chunk.first().is_some_and(|&v| v > 6) {
        return Some("a chunk format version above 6: 2.15.3 refuses it, 3.3.5 reads it as 6");
    }
    let extended = chunk.get(2).is_some_and(|f| f & 0x05 == 0x05);
    if !extended || chunk.len() < 32 {
        return None;
    }
    if chunk[30] & 0x01 != 0 {
        return Some("variable-length blocks (blosc2_flags2 bit 0): 2.15.3 ignores the flag");
    }
    if (chunk[31] >> 4) & 7 != 0 {
        return Some(
            "a special chunk: 3.3.5's rules (a value's width from cbytes, zeros of any \
             length, none with variable-length blocks) are not 2.15.3's; differential335.rs",
        );
    }
    let typesize = chunk[3];
    let nbytes = i32::from_le_bytes(chunk[4..8].try_into().unwrap());
    let blocksize = i32::from_le_bytes(chunk[8..12].try_into().unwrap());
    if nbytes > 0 && blocksize > nbytes {
        return Some("blocksize over nbytes: 2.15.3 refuses it, 3.x caps it at nbytes");
    }
    let filters = &chunk[16..22];
    let metas = &chunk[24..30];
    if filters.iter().any(|&f| f >= 32) {
        return Some("a plugin filter: blosc2-src is built without plugins, C refuses it");
    }
    for (slot, &f) in filters.iter().enumerate() {
        if f == SHUFFLE && metas[slot] != 0 && metas[slot] != typesize {
            return Some("shuffle meta: 2.15.3 ignores it, 3.x groups bytes by it");
        }
        // Delta undone before another filter: 2.15.3 reads a stale buffer.
        if f == DELTA
            && filters[..slot]
                .iter()
                .any(|&g| !matches!(g, 0 | DELTA | TRUNC_PREC))
        {
            return Some("delta undone before another filter: 2.15.3 reads a stale buffer");
        }
    }
    let codec = chunk[2] >> 5;
    if chunk[31] & 0x01 != 0 && codec == 1 {
        return Some("an LZ4 chunk with a dictionary: 2.15.3 ignores the dictionary");
    }
    None
}

/// Verdicts counted by class.
#[derive(Default)]
struct Tally {
    same_bytes: usize,
    both_refuse: usize,
    /// Chunks C compressed whose C decompression differs from the input (data).
    c_not_roundtrip: Vec<String>,
    different_bytes: Vec<String>,
    /// zstd chunks without a dictionary that C decodes only after a chunk with one.
    c_stale_dict: usize,
    /// zstd chunks decoded to different bytes, or refused by C only: label and chunk.
    zstd_different: Vec<(String, Vec<u8>)>,
    zstd_lenient: Vec<(String, Vec<u8>)>,
    ours_ok_c_refuses: Vec<String>,
    c_ok_we_refuse: BTreeMap<String, usize>,
    c_crash: usize,
    version: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn compare(&mut self, label: &str, chunks: &[Vec<u8>], original: &[u8]) {
        let verdicts = c_ref::decompress_all(chunks);
        for (bytes, c) in chunks.iter().zip(verdicts) {
            let i = describe(original, bytes);
            let ours = super::into::decode_both(bytes);
            if let Some(class) = version_difference(bytes) {
                *self.version.entry(class).or_default() += 1;
                continue;
            }
            match (ours, c) {
                (Ok(a), CVerdict::Ok(b)) if a == b => self.same_bytes += 1,
                (Ok(_), CVerdict::Ok(_)) if bytes.get(2).is_some_and(|f| f >> 5 == 4) => self
                    .zstd_different
                    .push((format!("{label} {i}"), bytes.clone())),
                (Ok(_), CVerdict::Ok(_)) => self.different_bytes.push(format!("{label} {i}")),
                (Err(_), CVerdict::Err(_)) => self.both_refuse += 1,
                (Ok(_), CVerdict::Err(rc)) if bytes.get(2).is_some_and(|f| f >> 5 == 4) => self
                    .zstd_lenient
                    .push((format!("{label} {i}: C {rc}"), bytes.clone())),
                (Ok(_), CVerdict::Err(rc)) => {
                    self.ours_ok_c_refuses.push(format!("{label} {i}: C {rc}"))
                }
                (Err(e), CVerdict::Ok(_))
                    if matches!(e.kind(), chunk::ChunkErrorKind::ZstdHeader { .. })
                        && stale_dictionary(bytes) =>
                {
                    self.c_stale_dict += 1
                }
                (Err(e), CVerdict::Ok(_)) => {
                    *self.c_ok_we_refuse.entry(class_of(&e)).or_default() += 1;
                }
                (_, CVerdict::Crash) => self.c_crash += 1,
            }
        }
    }

    fn report_and_check(&self) {
        eprintln!(
            "same bytes {}, both refuse {}, C crashed {}, C's output differs from its input {:?}",
            self.same_bytes, self.both_refuse, self.c_crash, self.c_not_roundtrip
        );
        eprintln!("version differences (not compared): {:#?}", self.version);
        eprintln!("C decodes, we refuse: {:#?}", self.c_ok_we_refuse);
        eprintln!(
            "zstd chunks C decodes only with the previous chunk's dictionary: {}",
            self.c_stale_dict
        );
        let mut zstd = BTreeMap::<String, usize>::new();
        for (kind, cases) in [
            ("decoded differently", &self.zstd_different),
            ("refused by C only", &self.zstd_lenient),
        ] {
            for (label, chunk) in cases {
                eprintln!("zstd {kind}: {label}");
                *zstd
                    .entry(format!("{kind}: {}", zstd_reason(chunk)))
                    .or_default() += 1;
            }
        }
        eprintln!("zstd cases by libzstd's reason: {zstd:#?}");
        eprintln!(
            "zstd: {} decoded differently, {} refused by libzstd only",
            self.zstd_different.len(),
            self.zstd_lenient.len()
        );
        assert!(zstd.is_empty(), "zstd cases: {zstd:#?}");
        assert!(
            self.different_bytes.is_empty(),
            "different bytes: {:?}",
            self.different_bytes
        );
        assert!(
            self.ours_ok_c_refuses.is_empty(),
            "Ok where C refuses: {:?}",
            self.ours_ok_c_refuses
        );
        for class in self.c_ok_we_refuse.keys() {
            assert!(
                KNOWN_REFUSALS.iter().any(|k| class.starts_with(k)),
                "C decodes what we refuse, in a class not listed: {class}"
            );
        }
    }
}

/// Chunks C decodes and we refuse, each with C's reason (our message's start):
const KNOWN_REFUSALS: &[&str] = &[
    // C bounds streams and block starts by the buffer it is given, not by the chunk's
    // cbytes: it reads past the end the chunk declares.
    "the chunk ends at byte",
    "expected block N to start inside the chunk",
    // C decodes nbytes / typesize bytes per stream and leaves the rest of the block
    // unwritten (whatever the destination held).
    "expected blocksize a multiple of typesize when blocks are split",
    // C does not check for a negative nbytes, and writes past a destination of that size.
    "expected nbytes from N to N, found -",
    // libzstd 1.5.7 (C-Blosc2 3.3.5's, which this decoder follows) refuses Huffman
    // weights whose FSE stream is too short for both initial states; 1.5.6 read the
    // missing bits as zeros.
    "expected FSE-coded Huffman weights holding both initial states",
    // LZ4 offset 0: C copies from the bytes it is writing (undefined contents).
    "expected a match offset of at least N, found N (byte N of the LZN stream)",
];

/// Whether C decodes the zstd chunk `chunk`, which has no dictionary, only because a
/// chunk with one came before it in the same child: C-Blosc2 2.15.3 sets
/// `context->use_dict` for a chunk with a dictionary and never clears it, so later
/// chunks are decoded with that dictionary (`ZSTD_decompress_usingDDict`) and may
/// reach into it. Asked again of C alone, such a chunk is refused.
fn stale_dictionary(chunk: &[u8]) -> bool {
    let zstd_without_dict = chunk.len() >= 32 && chunk[2] >> 5 == 4 && chunk[31] & 0x01 == 0;
    zstd_without_dict
        && matches!(
            c_ref::decompress_all(std::slice::from_ref(&chunk.to_vec()))[0],
            CVerdict::Err(_)
        )
}

/// libzstd's reason for a zstd chunk that C refuses or decodes to other bytes: the
/// first stream libzstd refuses or decodes otherwise than we do, and whether a block
/// of its frame holds literals in 4 Huffman streams.
fn zstd_reason(chunk: &[u8]) -> String {
    let streams = zstd_ref::streams(chunk);
    let verdicts = zstd_ref::decompress_all(&streams);
    for (stream, verdict) in streams.iter().zip(&verdicts) {
        let reason = match verdict {
            zstd_ref::ZVerdict::Err(name) => format!("libzstd: {name}"),
            zstd_ref::ZVerdict::Crash => "libzstd crashed".to_string(),
            zstd_ref::ZVerdict::Ok(_) => continue,
        };
        let literals = if zstd_ref::has_four_huffman_streams(&stream.frame) {
            "in a frame with 4 Huffman streams"
        } else {
            "in a frame without 4 Huffman streams"
        };
        return format!("{reason}, {literals}");
    }
    "no stream explains it".to_string()
}

/// How `bytes` differs from `original`: a cut or a changed byte.
pub(super) fn describe(original: &[u8], bytes: &[u8]) -> String {
    if bytes.len() < original.len() {
        return format!("cut to {}", bytes.len());
    }
    match original.iter().zip(bytes).position(|(a, b)| a != b) {
        Some(at) => format!("byte {at} {:#04x} -> {:#04x}", original[at], bytes[at]),
        None => "as made".to_string(),
    }
}

/// Our error, without the offsets and figures that differ chunk to chunk.
pub(super) fn class_of(e: &chunk::ChunkError) -> String {
    let text = e.to_string();
    // Each run of digits becomes one N.
    let mut class = String::new();
    for c in text.chars() {
        if !c.is_ascii_digit() {
            class.push(c);
        } else if !class.ends_with('N') {
            class.push('N');
        }
    }
    class
}

/// A float64 ramp with noise.
pub(super) fn float_ramp(len: usize) -> Vec<u8> {
    let mut x = 12345u32;
    (0..len / 8)
        .flat_map(|i| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let noise = f64::from(x >> 16) / 65536.0 * 1e-3;
            (i as f64 * 0.25 + noise).to_le_bytes()
        })
        .collect()
}

/// An int32 counter.
pub(super) fn counter(len: usize) -> Vec<u8> {
    (0..len as i32 / 4).flat_map(i32::to_le_bytes).collect()
}

/// The filter pipelines: none, each filter alone, and the pairs python users write.
pub(super) fn pipelines(typesize: i32) -> Vec<([u8; 6], [u8; 6])> {
    let mut p = vec![
        ([0, 0, 0, 0, 0, 0], [0; 6]),
        ([0, 0, 0, 0, 0, SHUFFLE], [0; 6]),
        ([0, 0, 0, 0, 0, BITSHUFFLE], [0; 6]),
        ([0, 0, 0, 0, 0, DELTA], [0; 6]),
        ([DELTA, 0, 0, 0, 0, SHUFFLE], [0; 6]),
        ([DELTA, 0, 0, 0, 0, BITSHUFFLE], [0; 6]),
        ([SHUFFLE, BITSHUFFLE, 0, 0, 0, 0], [0; 6]),
    ];
    if typesize == 4 || typesize == 8 {
        // Truncation keeps 10 bits of mantissa, then shuffles.
        p.push(([TRUNC_PREC, 0, 0, 0, 0, SHUFFLE], [10, 0, 0, 0, 0, 0]));
    }
    p
}

/// The chunks C makes for one data set, with their labels.
fn c_chunks(
    data: &[u8],
    codecs: &[u8],
    typesizes: &[i32],
    blocksizes: &[i32],
    clevels: &[u8],
) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for &codec in codecs {
        for &typesize in typesizes {
            for (filters, metas) in pipelines(typesize) {
                for &blocksize in blocksizes {
                    for split in [ALWAYS_SPLIT, NEVER_SPLIT] {
                        for &clevel in clevels {
                            let mut p = Params::new(codec, clevel, typesize, 0, blocksize, split);
                            p.filters = filters;
                            p.filters_meta = metas;
                            let label = format!("{p:?}");
                            if let Some(chunk) = c_ref::try_compress(data, &p) {
                                out.push((label, chunk, data.to_vec()));
                            }
                        }
                    }
                }
            }
        }
    }
    // Dictionaries: ZSTD only in 2.15.3.
    for &typesize in typesizes.iter().filter(|_| codecs.contains(&ZSTD)) {
        let mut p = Params::new(ZSTD, 5, typesize, SHUFFLE, 0, ALWAYS_SPLIT);
        p.use_dict = true;
        if let Some(chunk) = c_ref::try_compress(data, &p) {
            out.push((format!("{p:?}"), chunk, data.to_vec()));
        }
    }
    out
}

/// Cuts and single-byte changes of `chunk`; `every` thins the positions past the
/// header and first streams (1: all of them).
pub(super) fn mutations(chunk: &[u8], every: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for len in (0..chunk.len()).filter(|&l| l < 64 || l % every == 0) {
        out.push(chunk[..len].to_vec());
    }
    for at in (0..chunk.len()).filter(|&a| a < 64 || a % every == 0) {
        let values: &[u8] = if at < 32 {
            &[0, 1, 2, 3, 4, 0x10, 0x20, 0x35, 0x7f, 0x80, 0xff]
        } else {
            &[0, 0xff]
        };
        let mut tried = Vec::new();
        for &v in values
            .iter()
            .chain([chunk[at] ^ 1, chunk[at] ^ 0x80].iter())
        {
            if v != chunk[at] && !tried.contains(&v) {
                tried.push(v);
                let mut m = chunk.to_vec();
                m[at] = v;
                out.push(m);
            }
        }
    }
    out
}

/// The sweep; `SWEEP_CODECS=zstd` limits it to zstd chunks, `SWEEP_CODECS=lz4` to LZ4
/// and LZ4HC chunks.
fn sweep(len: usize, typesizes: &[i32], blocksizes: &[i32], clevels: &[u8], every: usize) {
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    for (name, data) in [("float ramp", float_ramp(len)), ("counter", counter(len))] {
        let codecs: &[u8] = match std::env::var("SWEEP_CODECS").as_deref() {
            Ok("zstd") => &[ZSTD],
            Ok("lz4") => &[LZ4, LZ4HC],
            _ => &[BLOSCLZ, LZ4, LZ4HC, ZSTD],
        };
        let made = c_chunks(&data, codecs, typesizes, blocksizes, clevels);
        let originals: Vec<Vec<u8>> = made.iter().map(|(_, c, _)| c.clone()).collect();
        let verdicts = c_ref::decompress_all(&originals);
        for ((label, _, src), verdict) in made.iter().zip(&verdicts) {
            // Truncation of precision is lossy by design.
            if verdict != &CVerdict::Ok(src.clone()) && !label.contains("filters: [4,") {
                tally.c_not_roundtrip.push(format!("{name} {label}"));
            }
        }
        for chunk in &originals {
            tally.compare(name, std::slice::from_ref(chunk), chunk);
        }
        for (label, chunk, _) in &made {
            tally.compare(&format!("{name} {label}"), &mutations(chunk, every), chunk);
        }
    }
    eprintln!("{:?}", started.elapsed());
    tally.report_and_check();
}

#[test]
fn differential_small() {
    sweep(512, &[1, 8], &[0], &[5], 127);
}

#[test]
#[ignore = "minutes: the full sweep"]
fn differential_full() {
    sweep(4096, &[1, 2, 4, 8, 16], &[0, 256, 4096], &[1, 5, 9], 17);
}
