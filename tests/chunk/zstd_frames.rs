//! Zstd frames the sweep does not reach, made by libzstd 1.5.6 itself (in blosc2-src)
//! or by hand from RFC 8878, inside a one-block chunk: what we decode is the input
//! libzstd compressed, or, for hand-made frames, what libzstd decodes them to; what
//! libzstd refuses we refuse. A walk over the frames' headers shows which block types,
//! literals and sequence modes the corpus holds, so that each is known to be decoded.

use std::ffi::{c_int, c_void};

use b2nd_meta::chunk;

use super::c_ref::{self, Params, NEVER_SPLIT, ZSTD};
use super::zstd_ref::{self, Stream, ZVerdict};

unsafe extern "C" {
    fn ZSTD_createCCtx() -> *mut c_void;
    fn ZSTD_freeCCtx(cctx: *mut c_void) -> usize;
    fn ZSTD_CCtx_setParameter(cctx: *mut c_void, param: c_int, value: c_int) -> usize;
    fn ZSTD_compress2(
        cctx: *mut c_void,
        dst: *mut c_void,
        dst_capacity: usize,
        src: *const c_void,
        src_size: usize,
    ) -> usize;
    fn ZSTD_compressBound(src_size: usize) -> usize;
    fn ZSTD_isError(code: usize) -> u32;
}

const LEVEL: c_int = 100; // ZSTD_c_compressionLevel
const CHECKSUM: c_int = 201; // ZSTD_c_checksumFlag

/// `src` compressed by libzstd at `level`, with the content checksum when `checksum`.
fn libzstd(src: &[u8], level: i32, checksum: bool) -> Vec<u8> {
    // SAFETY: a context of our own, buffers of the sizes given, freed before returning.
    unsafe {
        let cctx = ZSTD_createCCtx();
        assert!(!cctx.is_null());
        assert_eq!(ZSTD_isError(ZSTD_CCtx_setParameter(cctx, LEVEL, level)), 0);
        assert_eq!(
            ZSTD_isError(ZSTD_CCtx_setParameter(
                cctx,
                CHECKSUM,
                c_int::from(checksum)
            )),
            0
        );
        let mut out = vec![0u8; ZSTD_compressBound(src.len())];
        let n = ZSTD_compress2(
            cctx,
            out.as_mut_ptr().cast(),
            out.len(),
            src.as_ptr().cast(),
            src.len(),
        );
        ZSTD_freeCCtx(cctx);
        assert_eq!(ZSTD_isError(n), 0);
        out.truncate(n);
        out
    }
}

/// A chunk of one block whose one stream is `frame`, for `nbytes` bytes: the header of
/// a chunk C-Blosc2 made (zstd, no filter, typesize 1, not split) with `nbytes` and
/// the frame in place of its own.
fn chunk_of(frame: &[u8], nbytes: usize) -> Vec<u8> {
    let template: Vec<u8> = (0..4096).map(|i| (i / 7 % 251) as u8).collect();
    let c = c_ref::compress(&template, &Params::new(ZSTD, 1, 1, 0, 4096, NEVER_SPLIT));
    assert_eq!(c[2] & 0x02, 0, "C stored the template as it is");
    let mut chunk = c[..36].to_vec();
    chunk[4..8].copy_from_slice(&(nbytes as i32).to_le_bytes());
    chunk[8..12].copy_from_slice(&(nbytes as i32).to_le_bytes());
    chunk.extend_from_slice(&(frame.len() as i32).to_le_bytes());
    chunk.extend_from_slice(frame);
    let cbytes = chunk.len() as i32;
    chunk[12..16].copy_from_slice(&cbytes.to_le_bytes());
    chunk
}

/// What libzstd makes of `frame` for a block of `neblock` bytes (forked child).
fn libzstd_verdict(frame: &[u8], neblock: usize) -> ZVerdict {
    let s = Stream {
        at: 0,
        frame: frame.to_vec(),
        neblock,
        dict: None,
    };
    zstd_ref::decompress_all(&[s]).remove(0)
}

/// A pseudo-random byte stream.
fn noise(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// Text-like bytes: words of a small vocabulary in a skewed order, so that literals
/// compress with Huffman codes and matches come at all distances.
fn words(len: usize, seed: u32) -> Vec<u8> {
    const VOCABULARY: [&str; 12] = [
        "the ",
        "blosc ",
        "chunk ",
        "of ",
        "zstd ",
        "frame ",
        "and ",
        "literal ",
        "offset ",
        "sequence ",
        "a ",
        "huffman ",
    ];
    let mut out = Vec::with_capacity(len);
    for (i, r) in noise(len, seed).into_iter().enumerate() {
        if out.len() >= len {
            break;
        }
        let w = VOCABULARY[usize::from(r) % 4 + usize::from(r >> 4) % 9 * usize::from(i % 3 == 0)];
        out.extend_from_slice(w.as_bytes());
        if r % 17 == 0 {
            out.push(b'0' + r % 10);
        }
    }
    out.truncate(len);
    out
}

/// Block types (raw, RLE, compressed), literals types (raw, RLE, Huffman, treeless),
/// sequence modes (predefined, RLE, FSE, repeat) of the three codes: counts.
#[derive(Default, Debug)]
struct Seen {
    blocks: [usize; 3],
    literals: [usize; 4],
    modes: [usize; 4],
    checksums: usize,
}

/// Walks the frame's headers (RFC 8878 3.1.1): where its blocks are, their literals
/// and sequences section headers.
fn walk(frame: &[u8], seen: &mut Seen) {
    let fhd = frame[4];
    let single = fhd & 0x20 != 0;
    let fcs = [usize::from(single), 2, 4, 8][usize::from(fhd >> 6)];
    let mut at = 5 + usize::from(!single) + [0, 1, 2, 4][usize::from(fhd & 3)] + fcs;
    loop {
        let h = u32::from_le_bytes([frame[at], frame[at + 1], frame[at + 2], 0]);
        let (last, kind, size) = (h & 1 != 0, (h >> 1 & 3) as usize, (h >> 3) as usize);
        seen.blocks[kind] += 1;
        at += 3;
        if kind == 2 {
            let b = &frame[at..at + size];
            let lt = usize::from(b[0] & 3);
            seen.literals[lt] += 1;
            let sf = b[0] >> 2 & 3;
            let le = |n: usize| {
                b[..n]
                    .iter()
                    .rev()
                    .fold(0usize, |v, &x| v << 8 | usize::from(x))
            };
            let lits = match (lt, sf) {
                (0, 1) => 2 + (le(2) >> 4),
                (0, 3) => 3 + (le(3) >> 4),
                (0, _) => 1 + usize::from(b[0] >> 3),
                (1, 1) => 3,
                (1, 3) => 4,
                (1, _) => 2,
                (_, 2) => 4 + (le(4) >> 18),
                (_, 3) => 5 + (le(5) >> 22),
                _ => 3 + (le(3) >> 14 & 0x3ff),
            };
            let s = &b[lits..];
            let count_len = match s[0] {
                0..=127 => 1,
                255 => 3,
                _ => 2,
            };
            if s[0] != 0 {
                let m = s[count_len];
                for table in 0..3 {
                    seen.modes[usize::from(m >> (6 - 2 * table) & 3)] += 1;
                }
            }
        }
        at += if kind == 1 { 1 } else { size };
        if last {
            break;
        }
    }
    if fhd & 0x04 != 0 {
        seen.checksums += 1;
    }
}

#[test]
fn libzstd_frames_of_every_kind_decode_to_their_input() {
    let mut seen = Seen::default();
    // Multi-block frames (blocks of 128 KiB): text-like bytes at levels from the fastest
    // to the strongest; pieces of 60,000 random bytes without zeros, each after a zero
    // (the literals all zeros, their lengths all 1); a block of noise (stored raw), then
    // a block of one byte (an RLE block, which libzstd never makes first).
    let random: Vec<u8> = noise(60_000, 7).into_iter().map(|b| b | 1).collect();
    let mut copies = random.clone();
    for r in noise(60_000, 8).chunks(3) {
        let at = usize::from(u16::from_le_bytes([r[0], r[1]])) % 59_700;
        copies.push(0);
        copies.extend_from_slice(&random[at..at + 20 + usize::from(r[2])]);
    }
    let mut mixed = noise(131_072, 3);
    mixed.extend(std::iter::repeat_n(7u8, 140_000));
    mixed.extend(noise(140_000, 5));
    for (name, src, level, checksum) in [
        ("words", words(400_000, 1), 1, false),
        ("words", words(300_000, 2), 19, true),
        ("words", words(260_000, 4), 9, false),
        ("words", words(200_000, 6), -5, true),
        ("copies", copies, 3, false),
        ("mixed", mixed, 3, true),
    ] {
        let frame = libzstd(&src, level, checksum);
        walk(&frame, &mut seen);
        let decoded = chunk::decode(
            &chunk_of(&frame, src.len()),
            &chunk::DecodeBudget::default(),
        )
        .unwrap_or_else(|e| panic!("{name} at level {level}: {e}"));
        assert!(decoded == src, "{name} at level {level}");
    }
    eprintln!("{seen:?}");
    assert!(seen.blocks.iter().all(|&n| n > 0), "{seen:?}");
    // libzstd's choices leave out RLE literals and RLE codes here: made by hand below.
    assert!([0, 2, 3].iter().all(|&t| seen.literals[t] > 0), "{seen:?}");
    assert!([0, 2, 3].iter().all(|&m| seen.modes[m] > 0), "{seen:?}");
    assert!(seen.checksums > 0, "{seen:?}");
}

/// A frame by hand: magic, descriptor (single segment, 1-byte content size, checksum
/// flag as given), then `blocks`, then the checksum bytes.
fn frame(content: u8, checksum: Option<[u8; 4]>, blocks: &[&[u8]]) -> Vec<u8> {
    let mut f = vec![
        0x28,
        0xb5,
        0x2f,
        0xfd,
        0x20 | if checksum.is_some() { 4 } else { 0 },
        content,
    ];
    for b in blocks {
        f.extend_from_slice(b);
    }
    f.extend(checksum.into_iter().flatten());
    f
}

/// A frame by hand with a window of 1 KiB and no content size, then `blocks`.
fn windowed(blocks: &[&[u8]]) -> Vec<u8> {
    let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00];
    for b in blocks {
        f.extend_from_slice(b);
    }
    f
}

#[test]
fn hand_made_frames_decode_or_fail_as_libzstd() {
    // Block headers: last flag, type (0 raw, 1 RLE, 2 compressed), size << 3.
    let raw = |last: u32, data: &[u8]| {
        let h = last | (data.len() as u32) << 3;
        let mut b = h.to_le_bytes()[..3].to_vec();
        b.extend_from_slice(data);
        b
    };
    let rle = |last: u32, n: u32, byte: u8| {
        let h = last | 1 << 1 | n << 3;
        let mut b = h.to_le_bytes()[..3].to_vec();
        b.push(byte);
        b
    };
    let hello = raw(0, b"hello, ");
    let zs = rle(0, 5, b'z');
    let world = raw(1, b"world");
    let cases: Vec<(&str, Vec<u8>, usize, bool)> = vec![
        (
            "raw, RLE, raw",
            frame(17, None, &[&hello, &zs, &world]),
            17,
            true,
        ),
        (
            "one empty raw block",
            frame(0, None, &[&raw(1, b"")]),
            0,
            false,
        ),
        (
            "content size 16 for 17 bytes",
            frame(16, None, &[&hello, &zs, &world]),
            17,
            false,
        ),
        ("no last block", frame(17, None, &[&hello, &zs]), 17, false),
        (
            "an RLE block past the output",
            frame(17, None, &[&hello, &rle(1, 11, b'z')]),
            17,
            false,
        ),
        (
            "reserved block type",
            frame(0, None, &[&[0x07, 0, 0]]),
            0,
            false,
        ),
        (
            "a wrong checksum",
            frame(17, Some([1, 2, 3, 4]), &[&hello, &zs, &world]),
            17,
            false,
        ),
        (
            "a missing checksum",
            frame(17, Some([1, 2, 3, 4]), &[&hello, &zs, &world])[..30].to_vec(),
            17,
            false,
        ),
        (
            "a compressed block of raw literals, no sequences",
            windowed(&[&[0x2d, 0, 0, 0x18, b'a', b'b', b'c', 0]]),
            3,
            true,
        ),
        (
            "a compressed block larger than the window (the content)",
            frame(3, None, &[&[0x2d, 0, 0, 0x18, b'a', b'b', b'c', 0]]),
            3,
            false,
        ),
    ];
    for (name, f, n, decodes) in cases {
        let ours = chunk::decode(&chunk_of(&f, n.max(1)), &chunk::DecodeBudget::default());
        match libzstd_verdict(&f, n.max(1)) {
            ZVerdict::Ok(bytes) if bytes.len() == n.max(1) => {
                assert!(decodes, "{name}: libzstd decodes it");
                assert_eq!(ours.as_deref().ok(), Some(&bytes[..]), "{name}: {ours:?}")
            }
            verdict => {
                assert!(!decodes, "{name}: libzstd {verdict:?}");
                assert!(ours.is_err(), "{name}: libzstd {verdict:?}, ours {ours:?}")
            }
        }
    }
    // RLE literals ("aaa") and one sequence whose three codes are RLE (literal length
    // code 3, offset code 2 with 2 bits 00: offset 1, match length code 0: 3).
    let f = windowed(&[&[0x45, 0, 0, 0x19, b'a', 1, 0x54, 3, 2, 0, 0x04]]);
    assert_eq!(libzstd_verdict(&f, 6), ZVerdict::Ok(b"aaaaaa".to_vec()));
    assert_eq!(
        chunk::decode(&chunk_of(&f, 6), &chunk::DecodeBudget::default()).unwrap(),
        b"aaaaaa"
    );
    // The right checksum, from libzstd's own frame of the same bytes.
    let good = libzstd(b"hello, zzzzzworld", 1, true);
    let sum: [u8; 4] = good[good.len() - 4..].try_into().unwrap();
    let f = frame(17, Some(sum), &[&hello, &zs, &world]);
    assert_eq!(
        libzstd_verdict(&f, 17),
        ZVerdict::Ok(b"hello, zzzzzworld".to_vec())
    );
    assert_eq!(
        chunk::decode(&chunk_of(&f, 17), &chunk::DecodeBudget::default()).unwrap(),
        b"hello, zzzzzworld"
    );
}
