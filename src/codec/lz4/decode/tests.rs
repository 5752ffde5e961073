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

/// A block whose first literals (`lead` bytes) are followed by `sequences` (literal
/// length, match length, offset back from the output's end, as far as it reaches), then
/// 8 last literals: literal bytes from `bytes`.
fn block_after_lead(lead: usize, sequences: &[(usize, usize, usize)], bytes: &[u8]) -> Vec<u8> {
    let mut block = Vec::new();
    let mut next = bytes.iter().copied().cycle();
    let mut out = 0;
    let length = |block: &mut Vec<u8>, mut more: usize| {
        while more >= 255 {
            block.push(255);
            more -= 255;
        }
        block.push(more as u8);
    };
    let mut literals = |block: &mut Vec<u8>, n: usize| block.extend(next.by_ref().take(n));
    let sequences = core::iter::once((lead, 4, 1)).chain(sequences.iter().copied());
    for (lit, len, back) in sequences {
        let (lit_nibble, len_nibble) = (lit.min(15), (len - 4).min(15));
        block.push((lit_nibble << 4 | len_nibble) as u8);
        if lit_nibble == 15 {
            length(&mut block, lit - 15);
        }
        literals(&mut block, lit);
        out += lit;
        let offset = back.clamp(1, out.min(65_535));
        block.extend_from_slice(&(offset as u16).to_le_bytes());
        if len_nibble == 15 {
            length(&mut block, len - 4 - 15);
        }
        out += len;
    }
    block.push(8 << 4);
    literals(&mut block, 8);
    block
}

/// The first literals stay in the block, by whole rows (64 bytes here), until a match
/// reads them: (sequences after the first 200 literals, what is left in the block).
#[test]
fn first_literals_stay_until_a_match_reads_them() {
    let noise: Vec<u8> = (0..=255u8).map(|b| b.wrapping_mul(151)).collect();
    // Enough input after them for C's fast loop (32 bytes), where they are left.
    let more = [(20, 30, 30); 2];
    let cases = [
        (
            [&[(0, 200, 8)][..], &more].concat(),
            Lead { at: 2, len: 192 },
        ),
        ([&[(0, 200, 250)][..], &more].concat(), Lead::default()),
        (
            [&more[..], &[(0, 200, 8), (3, 100, 600)]].concat(),
            Lead::default(),
        ),
        (vec![(20, 30, 30); 20], Lead { at: 2, len: 192 }),
        (vec![(20, 30, 40); 20], Lead::default()),
        (vec![(0, 4, 1)], Lead::default()),
    ];
    for (sequences, expected) in cases {
        let block = block_after_lead(200, &sequences, &noise);
        let n = 212
            + sequences
                .iter()
                .map(|&(lit, len, _)| lit + len)
                .sum::<usize>();
        let whole = run(&block, &[], n).expect("a block C decodes");
        let mut dest = vec![0xee; n];
        let (len, lead) = decompress_in::<true>(&block, &[], &mut dest, 64).expect("decoded");
        assert_eq!((len, lead), (n, expected), "{sequences:?}");
        dest[..lead.len].copy_from_slice(&block[lead.at..lead.at + lead.len]);
        assert_eq!(dest, whole, "{sequences:?}");
    }
}

proptest::proptest! {
    /// The first literals left in the block by whole rows, put back, give the bytes
    /// (or the refusal) of the whole decode, whether or not a match reads them: on
    /// blocks assembled after a long first run of literals, each byte maybe changed.
    #[test]
    fn first_literals_left_in_place_as_decoded(
        lead in 15usize..400,
        row in proptest::sample::select(vec![1usize, 8, 16, 64, 100]),
        sequences in proptest::collection::vec((0usize..40, 4usize..300, 1usize..600), 0..30),
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..64),
        change in proptest::option::of((proptest::prelude::any::<usize>(), proptest::prelude::any::<u8>())),
        dict_len in proptest::sample::select(vec![0usize, 40]),
    ) {
        let mut block = block_after_lead(lead, &sequences, &bytes);
        if let Some((at, b)) = change {
            let at = at % block.len();
            block[at] = b;
        }
        let dict = vec![0x5a; dict_len];
        let n = lead + 8 + sequences.iter().map(|&(lit, len, _)| lit + len).sum::<usize>() + 4;
        let mut whole = vec![0; n];
        let expected = decompress_in::<false>(&block, &dict, &mut whole, 0);
        let mut dest = vec![0xee; n];
        let got = decompress_in::<true>(&block, &dict, &mut dest, row);
        match (expected, got) {
            (Ok((len, _)), Ok((got_len, lead))) => {
                proptest::prop_assert_eq!(got_len, len);
                proptest::prop_assert_eq!(lead.len % row, 0);
                dest[..lead.len].copy_from_slice(&block[lead.at..lead.at + lead.len]);
                proptest::prop_assert_eq!(&dest[..len], &whole[..len]);
            }
            (Err(e), Err(g)) => proptest::prop_assert_eq!((e.expected, e.at), (g.expected, g.at)),
            (e, g) => proptest::prop_assert!(false, "{:?} against {:?}", e.map(|r| r.0), g.map(|r| r.0)),
        }
    }
}
