//! `chunk::decode_range_into` (blocks of a range into a buffer of that range) and
//! `chunk::Parts` (a chunk read in parts, as C-Blosc2 reads a chunk of a frame on disk):
//! on every chunk python-blosc2, c-blosc 1.x and C-Blosc2 wrote (tests/data/chunks, and
//! C-made chunks of many blocks for every pipeline, delta included), each range and mask
//! gives the whole decode's bytes where wanted and leaves the rest; the parts read are
//! only the prefix and the blocks `needed` names; a block's streams never run past its
//! own bytes.

use b2nd_meta::chunk::{self, ChunkErrorKind, ChunkHeader, Parts, EXTENDED_HEADER_LEN};

use super::mask::{many_block_chunks, masks, GUARD};

/// Every chunk the decoder is checked on, and its whole decode when it has one.
fn chunks() -> Vec<(Vec<u8>, ChunkHeader, Vec<u8>)> {
    let mut all = super::python::all_chunks();
    all.extend(super::cblosc1::chunk_bytes());
    all.extend(super::vlblocks::vl_chunks().into_iter().map(|vl| vl.bytes));
    all.extend(many_block_chunks());
    all.into_iter()
        .filter_map(|c| {
            let header = ChunkHeader::parse(&c).ok()?;
            let whole = chunk::decode(&c, &chunk::DecodeBudget::default()).ok()?;
            Some((c, header, whole))
        })
        .collect()
}

/// Where each block's decoded bytes are (variable-length blocks: from the decode of
/// each alone).
fn spans(chunk: &[u8], header: &ChunkHeader) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    for block in 0..header.nblocks() {
        let span = match header.block_span(block) {
            Some(span) => span,
            None => {
                let mut one = vec![0u8; header.nbytes as usize];
                let len =
                    chunk::decode_range_into(chunk, block..block + 1, |_| true, &mut one).unwrap();
                at..at + len
            }
        };
        at = span.end;
        out.push(span);
    }
    out
}

/// The ranges a chunk of `n` blocks is asked for: all, each end, the middle.
fn ranges(n: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = vec![0..n, 0..1.min(n), n.saturating_sub(1)..n, n / 3..n - n / 3];
    out.retain(|r| !r.is_empty());
    out
}

/// The whole decode's bytes of `range` where `mask` wants a block, guard bytes elsewhere.
fn expected(
    spans: &[std::ops::Range<usize>],
    whole: &[u8],
    range: &std::ops::Range<usize>,
    mask: &[bool],
) -> Vec<u8> {
    let base = spans[range.start].start;
    let mut out = vec![GUARD; spans[range.end - 1].end - base];
    for block in range.clone().filter(|&b| mask[b]) {
        let s = &spans[block];
        out[s.start - base..s.end - base].copy_from_slice(&whole[s.clone()]);
    }
    out
}

/// The prefix as a reader of a frame gets it: the header, then as much as
/// `Parts::prefix_len` asks, until it asks no more.
fn prefix(chunk: &[u8]) -> &[u8] {
    let mut len = EXTENDED_HEADER_LEN.min(chunk.len());
    loop {
        let next = Parts::prefix_len(&chunk[..len]).unwrap();
        if next <= len {
            return &chunk[..next];
        }
        len = next;
    }
}

#[test]
fn ranges_and_parts_hold_the_whole_decode() {
    let (mut cases, mut parted) = (0, 0);
    for (i, (chunk, header, whole)) in chunks().iter().enumerate() {
        let n = header.nblocks();
        let spans = spans(chunk, header);
        let prefix = prefix(chunk);
        let parts = Parts::new(prefix).unwrap_or_else(|e| panic!("chunk {i}: {e}"));
        for range in ranges(n) {
            for mask in masks(n, i as u64) {
                let want = expected(&spans, whole, &range, &mask);
                let mut dest = vec![GUARD; want.len()];
                let len = chunk::decode_range_into(chunk, range.clone(), |b| mask[b], &mut dest)
                    .unwrap_or_else(|e| panic!("chunk {i} {range:?}: {e}"));
                assert_eq!(len, want.len(), "chunk {i} {range:?}");
                assert!(dest == want, "chunk {i} {range:?} {mask:?}");
                // In parts: only the blocks `needed` names are given.
                let needed: Vec<usize> = parts.needed(range.clone(), |b| mask[b]).collect();
                let stored = |b: usize| {
                    let extent = parts.extent(b)?;
                    assert!(needed.contains(&b), "chunk {i}: block {b} read, not needed");
                    chunk.get(extent)
                };
                let mut dest = vec![GUARD; want.len()];
                parts
                    .decode_into(range.clone(), |b| mask[b], stored, &mut dest)
                    .unwrap_or_else(|e| panic!("chunk {i} {range:?} in parts: {e}"));
                assert!(dest == want, "chunk {i} {range:?} {mask:?} in parts");
                cases += 1;
                parted += usize::from(!parts.is_whole());
            }
        }
        // A destination short of the range is refused before anything is written.
        if whole.len() > 1 {
            let mut short = vec![GUARD; whole.len() - 1];
            assert!(chunk::decode_range_into(chunk, 0..n, |_| true, &mut short).is_err());
            assert!(short.iter().all(|&b| b == GUARD), "chunk {i}");
        }
    }
    eprintln!("{cases} ranges, {parted} read in parts");
    assert!(parted > 5000, "{parted}");
}

/// A chunk of two blocks of 8 bytes stored as they are (not split: one stream each,
/// typesize 8):
/// block 0 at 40, block 1 at `second`; `cbytes` 64 + `extra`.
fn two_blocks(second: u8, csize0: u8, extra: u8) -> Vec<u8> {
    let cbytes = 64 + extra;
    let mut c = vec![5, 1, 0x35, 8, 16, 0, 0, 0, 8, 0, 0, 0, cbytes, 0, 0, 0];
    c.extend([0; 16]);
    c.extend([40, 0, 0, 0, second, 0, 0, 0]);
    c.extend([csize0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    c.resize(usize::from(second), 0);
    c.extend([8, 0, 0, 0, 9, 10, 11, 12, 13, 14, 15, 16]);
    c.resize(usize::from(cbytes), 0);
    c
}

#[test]
fn a_block_read_on_its_own_ends_at_the_next_start() {
    // (chunk, block, error of the parts read or None; the whole chunk decodes)
    let cases: [(Vec<u8>, usize, Option<&str>); 4] = [
        (two_blocks(52, 8, 0), 0, None),
        (two_blocks(52, 8, 0), 1, None),
        // Block 1 starts inside block 0's stream: block 0's own bytes end at 48.
        (two_blocks(48, 8, 0), 0, Some("the block's stored bytes end at byte 48 (the next block's start), 4 byte(s) short of a compressed stream at byte 44")),
        // A block's bytes longer than blocksize + 4 x typesize (8 + 32): C refuses it.
        (two_blocks(52, 8, 40), 1, Some("expected a block's stored length (to the next block's start) from 1 to blocksize + 4 x typesize (a block read on its own), found 52 at byte 36")),
    ];
    for (chunk, block, error) in cases {
        let whole = chunk::decode(&chunk, &chunk::DecodeBudget::default());
        let parts = Parts::new(prefix(&chunk)).unwrap();
        let mut dest = [0u8; 8];
        let got = parts.decode_into(
            block..block + 1,
            |_| true,
            |b| chunk.get(parts.extent(b)?),
            &mut dest,
        );
        match error {
            None => {
                got.unwrap();
                assert_eq!(dest[..], whole.unwrap()[block * 8..block * 8 + 8]);
            }
            Some(message) => assert_eq!(got.unwrap_err().to_string(), message),
        }
    }
    // A block not given is refused, never read from elsewhere.
    let chunk = two_blocks(52, 8, 0);
    let parts = Parts::new(prefix(&chunk)).unwrap();
    let err = parts
        .decode_into(1..2, |_| true, |_| None, &mut [0u8; 8])
        .unwrap_err();
    assert!(
        matches!(err.kind(), ChunkErrorKind::InvalidField { found: 0, .. }),
        "{err}"
    );
}
