//! The zstd decoder on frames written by C and frames assembled by hand, one per rule.

use super::*;
use alloc::vec;
use alloc::vec::Vec;

/// Decodes `src` into `n` bytes: the bytes written, or the refusal's field, rule,
/// value and byte.
fn run(src: &[u8], n: usize) -> Result<Vec<u8>, (&'static str, &'static str, u64, u64)> {
    let mut dest = vec![0; n];
    match Zstd::new(None)
        .expect("no dictionary")
        .decompress((src, src), &mut dest)
    {
        Ok(len) => Ok(dest[..len].to_vec()),
        Err(e) => Err((e.field, e.expected, e.found, e.at)),
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// Frames written by the `zstd` 1.5 command line (C): raw, RLE-literal and
/// compressed blocks (Huffman literals, FSE sequences), with and without checksum.
#[test]
fn frames_from_c() {
    let text: &[u8] = b"It was the best of times, it was the worst of times, it was the age \
        of wisdom, it was the age of foolishness, it was the epoch of belief.";
    let periodic: Vec<u8> = (0..40).chain(0..40).chain(0..40).collect();
    let raw: Vec<u8> = (0..20).map(|i| (i * 97 + 13) as u8).collect();
    let cases: [(&str, &[u8]); 10] = [
        ("28b52ffd045829000068656c6c6fa36d9f88", b"hello"),
        ("28b52ffd2000010000", b""),
        ("28b52ffd240001000099e9d851", b""),
        (
            "28b52ffd00686d00003868656c6c6f20210100a94b11",
            b"hello hello hello hello hello!",
        ),
        (
            "28b52ffd04686d00003868656c6c6f20210100a94b115f599ac8",
            b"hello hello hello hello hello!",
        ),
        (
            "28b52ffd00689d000068616263303132333435363738390100866e08",
            b"abcabcabcabcabcabcabcabcabcabc0123456789",
        ),
        (
            "28b52ffd0068850100840200\
             0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627\
             0100e885aa32",
            &periodic,
        ),
        ("28b52ffd004845000010616101003f012c", &[b'a'; 100]),
        (
            "28b52ffd0048a100000d6ecf3091f253b41576d73899fa5bbc1d7edf40",
            &raw,
        ),
        (
            "28b52ffd006835020052840d11b0eb00a4a72850cd2a2e254dc5e2985004019fe9c4a84645\
             d9f70b6d2655546a369f51fd339abe34d8ab7446b5db131f39ef78762204005cc9884b7f9f\
             60dcf01c03",
            text,
        ),
    ];
    for (src, expected) in cases {
        assert_eq!(
            run(&hex(src), expected.len()),
            Ok(expected.to_vec()),
            "{src}"
        );
    }
}

/// Hand-assembled frames, one per rule: (stream, output length, result). Most have
/// the single-segment header `20 05` (5 bytes of content, the window too).
#[test]
fn edge_cases() {
    const MAGIC: &str = "the zstd magic number";
    const BLOCK: &str = "block header";
    let raw = [hex("28b52ffd2005290000"), b"hello".to_vec()].concat();
    let h = |s: &str, tail: &[u8]| [hex(s), tail.to_vec()].concat();
    type Case<'a> = (
        Vec<u8>,
        usize,
        Result<&'a [u8], (&'a str, &'a str, u64, u64)>,
    );
    let cases: [Case; 16] = [
        // Raw, RLE, and compressed blocks of raw or RLE literals and no sequences
        // (the compressed one in a 1 KiB window: the block is larger than 5 bytes).
        (raw.clone(), 5, Ok(b"hello")),
        (h("28b52ffd20052b000061", b""), 5, Ok(b"aaaaa")),
        (h("28b52ffd00003d000028", b"hello\x00"), 5, Ok(b"hello")),
        (h("28b52ffd20051d0000296100", b""), 5, Ok(b"aaaaa")),
        // A skippable frame is skipped; frames follow one another.
        (h("502a4d1802000000abcd", &raw), 5, Ok(b"hello")),
        (
            h("", &[&raw[..], &hex("28b52ffd20052b000061")].concat()),
            10,
            Ok(b"helloaaaaa"),
        ),
        // Headers refused.
        (
            h("28b52f", b""),
            5,
            Err(("frame header", "a zstd frame of at least 5 bytes", 3, 0)),
        ),
        (
            h("28b52ffe2005290000", b"hello"),
            5,
            Err(("frame header", MAGIC, 0xfe2f_b528, 0)),
        ),
        (
            h("28b52ffd2805290000", b"hello"),
            5,
            Err(("frame header descriptor", "reserved bit 3 clear", 0x28, 4)),
        ),
        (
            h("28b52ffd00f8010000", b""),
            5,
            Err(("window descriptor", "a window log of at most 31", 41, 5)),
        ),
        (
            h("28b52ffd210705290000", b"hello"),
            5,
            Err((
                "frame header",
                "no dictionary id or the chunk dictionary's",
                7,
                5,
            )),
        ),
        // Blocks refused: type 3, past the stream, past the output, past the window.
        (
            h("28b52ffd20052f0000", b""),
            5,
            Err((BLOCK, "block type 0, 1 or 2", 3, 6)),
        ),
        (
            h("28b52ffd2005290000", b"hell"),
            5,
            Err((BLOCK, "a block within the stream", 5, 6)),
        ),
        (
            raw.clone(),
            4,
            Err((BLOCK, "a raw block within the output", 5, 6)),
        ),
        (
            h("28b52ffd20053d000028", b"hello\x00"),
            5,
            Err((
                BLOCK,
                "a compressed block of at most the window and 128 KiB",
                7,
                6,
            )),
        ),
        // Bytes after the last frame.
        (
            h("", &[&raw[..], b"xyz"].concat()),
            5,
            Err(("stream", "no bytes after the last frame", 3, 14)),
        ),
    ];
    for (i, (src, n, expected)) in cases.into_iter().enumerate() {
        assert_eq!(run(&src, n), expected.map(<[u8]>::to_vec), "case {i}");
    }
}

/// The frame's content size and checksum are checked against the output.
#[test]
fn content_size_and_checksum() {
    let frame = |descriptor: &str, tail: &[u8]| {
        [
            &hex("28b52ffd"),
            &hex(descriptor),
            &hex("290000"),
            &b"hello"[..],
            tail,
        ]
        .concat()
    };
    // XXH64("hello") = 0x26c7827d889f6da3: its low 32 bits, little-endian.
    assert_eq!(
        run(&frame("2405", b"\xa3\x6d\x9f\x88"), 5),
        Ok(b"hello".to_vec())
    );
    assert_eq!(
        run(&frame("2405", b"\xa3\x6d\x9f\x89"), 5),
        Err((
            "content checksum",
            "the output's XXH64 (low 32 bits)",
            0x899f_6da3,
            14
        ))
    );
    assert_eq!(
        run(&frame("2405", b"\xa3\x6d"), 5),
        Err(("content checksum", "4 bytes", 2, 14))
    );
    assert_eq!(
        run(&frame("2006", b""), 6),
        Err((
            "frame header",
            "a frame content size equal to the frame's output",
            6,
            5
        ))
    );
}
