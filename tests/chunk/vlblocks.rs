//! Chunks of variable-length blocks that python-blosc2 4.14.1 (C-Blosc2 3.3.5) wrote
//! (tests/data/chunks/vlblocks.py: its BatchArray's chunks, and `vlcompress` for every
//! codec x pipeline x typesize, with dictionaries) decode to what C-Blosc2 3.3.5's
//! `blosc2_decompress` gave; each block alone through the block mask gives its bytes.

use std::path::Path;

use b2nd_meta::chunk::{self, ChunkHeader};

/// One chunk of the fixture, and C's bytes (`None`: C refused it).
pub(super) struct VlChunk {
    pub label: String,
    pub bytes: Vec<u8>,
    pub c: Option<Vec<u8>>,
}

/// The chunks of tests/data/chunks/vlblocks.bin.zlib.
pub(super) fn vl_chunks() -> Vec<VlChunk> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chunks/vlblocks.bin.zlib");
    let body = miniz_oxide::inflate::decompress_to_vec_zlib(&std::fs::read(path).unwrap()).unwrap();
    let mut b = &body[..];
    let mut take = |n: usize| {
        let (head, rest) = b.split_at(n);
        b = rest;
        head
    };
    assert_eq!(take(8), b"B2VLCHNK");
    let count = u32::from_le_bytes(take(4).try_into().unwrap());
    let mut out = Vec::new();
    for _ in 0..count {
        let n = u16::from_le_bytes(take(2).try_into().unwrap()) as usize;
        let label = String::from_utf8(take(n).to_vec()).unwrap();
        let n = u32::from_le_bytes(take(4).try_into().unwrap()) as usize;
        let bytes = take(n).to_vec();
        let c = match take(1)[0] {
            0 => None,
            _ => {
                let n = u32::from_le_bytes(take(4).try_into().unwrap()) as usize;
                Some(take(n).to_vec())
            }
        };
        out.push(VlChunk { label, bytes, c });
    }
    out
}

/// Where each block lies in the decoded chunk, from the format: the header's
/// `blocksize` field counts the blocks, each bstarts entry points at the block's
/// decompressed length.
fn spans(chunk: &[u8]) -> Vec<std::ops::Range<usize>> {
    let i32_at = |at: usize| i32::from_le_bytes(chunk[at..at + 4].try_into().unwrap()) as usize;
    let mut offset = 0;
    (0..i32_at(8))
        .map(|block| {
            let len = i32_at(i32_at(32 + 4 * block));
            offset += len;
            offset - len..offset
        })
        .collect()
}

#[test]
fn vl_block_chunks_decode_as_c_3_3_5() {
    let chunks = vl_chunks();
    let mut delta_past_first = 0;
    for VlChunk { label, bytes, c } in &chunks {
        let ours = super::into::decode_both(bytes);
        match (ours, c) {
            (Ok(ours), Some(c)) => assert!(&ours == c, "{label}: other bytes than C's"),
            (Err(_), None) => {}
            (ours, c) => panic!("{label}: ours {ours:?}, C {:?}", c.as_ref().map(Vec::len)),
        }
        let header = ChunkHeader::parse(bytes).unwrap();
        let spans = spans(bytes);
        assert_eq!(header.nblocks(), spans.len(), "{label}");
        delta_past_first += usize::from(
            label.contains("DELTA") && spans.iter().skip(1).any(|s| s.len() > spans[0].len()),
        );
        // Each block alone, the others left as they were.
        let Some(c) = c else { continue };
        for (block, span) in spans.iter().enumerate() {
            let mut dest = vec![0xa5; c.len()];
            chunk::decode_range_into(bytes, .., |b| b == block, &mut dest).unwrap();
            assert_eq!(
                dest[span.clone()],
                c[span.clone()],
                "{label}: block {block}"
            );
            assert!(dest[..span.start]
                .iter()
                .chain(&dest[span.end..])
                .all(|&b| b == 0xa5));
        }
    }
    let refused = chunks.iter().filter(|c| c.c.is_none()).count();
    eprintln!(
        "{} chunks, {refused} refused by C, {delta_past_first} delta past the first block",
        chunks.len()
    );
    assert!(chunks.len() > 900, "{} chunks", chunks.len());
    // Delta over blocks longer than the first (C reads on past it) is covered.
    assert!(delta_past_first > 50, "{delta_past_first}");
}
