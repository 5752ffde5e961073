//! The LZ4 block decoder on blocks written by C and blocks assembled by hand, one per
//! rule.

use super::*;
use alloc::vec;
use alloc::vec::Vec;

/// Decodes `src` (with `dict`) into `n` bytes: the bytes, or the refusal's rule and
/// input byte.
fn run(src: &[u8], dict: &[u8], n: usize) -> Result<Vec<u8>, (&'static str, u64)> {
    let mut dest = vec![0; n];
    match decompress(src, dict, &mut dest) {
        Ok(len) => Ok(dest[..len].to_vec()),
        Err(e) => Err((e.expected, e.at)),
    }
}

/// `x` repeated.
fn x(n: usize) -> Vec<u8> {
    vec![b'x'; n]
}

/// `head` then 12 'x's.
fn x12(head: &[u8]) -> Vec<u8> {
    cat(&[head, &x(12)])
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// Blocks written by the `lz4` 1.9 command line (C), taken out of their frames.
#[test]
fn blocks_from_c() {
    let periodic: Vec<u8> = (0..40).chain(0..40).chain(0..40).collect();
    let cases: [(&[u8], &[u8]); 3] = [
        (
            b"\x3fabc\x03\x00\x08\xa00123456789",
            b"abcabcabcabcabcabcabcabcabcabc0123456789",
        ),
        (
            b"\x6fhello \x06\x00\x00\x50ello!",
            b"hello hello hello hello hello!",
        ),
        (
            &cat(&[b"\xff\x19", &periodic[..40], b"\x28\x00\x38\x50#$%&'"]),
            &periodic,
        ),
    ];
    for (src, expected) in cases {
        assert_eq!(run(src, &[], expected.len()), Ok(expected.to_vec()));
    }
}

/// Hand-assembled blocks, one per rule: (block, dictionary, output length, result).
#[test]
fn edge_cases() {
    let ab_x12 = x12(b"\x22ab\x02\x00\xc0");
    // 'a', then 16 more from 1 back, then 8 literals.
    let a17 = b"\x1ca\x01\x00\x80xyzxyzxy".to_vec();
    type Case<'a> = (Vec<u8>, &'a [u8], usize, Result<Vec<u8>, (&'a str, u64)>);
    let cases: Vec<Case> = vec![
        // No output: one zero token and nothing else.
        (vec![0], b"", 0, Ok(vec![])),
        (
            vec![0, 0],
            b"",
            0,
            Err(("a stream of one zero byte, length", 0)),
        ),
        (vec![], b"", 1, Err(("a stream of at least", 0))),
        // Literals only, then a match overlapping what it writes.
        (b"\x50hello".to_vec(), b"", 5, Ok(b"hello".to_vec())),
        (ab_x12.clone(), b"", 20, Ok(x12(b"abababab"))),
        // 15 literals: a length byte 0 follows the token.
        (cat(&[b"\xf0\x00", &x(15)]), b"", 15, Ok(x(15))),
        // The last literals end the input exactly and fit the output.
        (b"\x50hello\x00".to_vec(), b"", 5, Err((LAST_END, 1))),
        (b"\x50hello".to_vec(), b"", 4, Err((LAST_FIT, 1))),
        // Offsets: 0 refused, past the output refused, into the dictionary.
        (x12(b"\x22ab\x00\x00\xc0"), b"", 20, Err((OFFSET_ZERO, 5))),
        (x12(b"\x22ab\x03\x00\xc0"), b"", 20, Err((OFFSET_WITHIN, 5))),
        (x12(b"\x01\x05\x00\xc0"), b"hello", 17, Ok(x12(b"hello"))),
        (
            x12(b"\x01\x06\x00\xc0"),
            b"hello",
            17,
            Err((OFFSET_WITHIN, 3)),
        ),
        // A match from the dictionary's tail into the output it writes.
        (x12(b"\x03\x02\x00\xc0"), b"hello", 19, Ok(x12(b"lololol"))),
        // A match ending within the last 5 bytes of the output.
        (a17.clone(), b"", 21, Err((MATCH_END, 4))),
        (a17, b"", 25, Ok(cat(&[&[b'a'; 17], b"xyzxyzxy"]))),
        // A literal run whose length bytes reach the last 15 input bytes.
        (
            cat(&[b"\xf0\xff", &x(10)]),
            b"",
            300,
            Err((LITERAL_BYTES, 1)),
        ),
    ];
    for (i, (src, dict, n, expected)) in cases.into_iter().enumerate() {
        assert_eq!(run(&src, dict, n), expected, "case {i}");
    }
    // The output one byte short of the match-and-literals block.
    assert_eq!(run(&ab_x12, &[], 19), Err((LAST_FIT, 6)));
}

#[test]
fn matches_repeat_their_offset() {
    for offset in 1..48 {
        for (len, room) in [4, 5, 16, 17, 40, 63, 64, 100]
            .iter()
            .flat_map(|&l| [(l, 0), (l, 40)])
        {
            let mut dest: Vec<u8> = (1..=offset as u8).collect();
            dest.resize(offset + len + room, 0);
            copy_match(&mut dest, offset, offset, len);
            let expected: Vec<u8> = (0..offset + len).map(|i| (i % offset) as u8 + 1).collect();
            assert_eq!(
                dest[..offset + len],
                expected,
                "offset {offset}, length {len}"
            );
            if offset < 16 {
                assert_eq!(PATTERN[offset].2 % offset, 0);
            }
        }
    }
}
