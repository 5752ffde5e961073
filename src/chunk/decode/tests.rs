//! The filter pipeline as a chunk runs it, on hand-assembled chunks (the filters
//! themselves are tested in `filters/`).
use super::{decode_with_limit, DEFAULT_MAX_NBYTES};
use alloc::vec;
use alloc::vec::Vec;

/// A chunk of one unsplit block per `blocks` entry, each stored as it is (a stream
/// as long as the block), with the filters and their metas of the six slots.
fn chunk(typesize: u8, filters: [u8; 6], metas: [u8; 6], blocks: &[&[u8]]) -> Vec<u8> {
    let blocksize = blocks[0].len() as u32;
    let nbytes: u32 = blocks.iter().map(|b| b.len() as u32).sum();
    let starts = 32 + 4 * blocks.len() as u32;
    let cbytes = starts + blocks.iter().map(|b| 4 + b.len() as u32).sum::<u32>();
    // Version 5, LZ4 1; extended header and no split, BloscLZ.
    let mut c = vec![5, 1, 0x15, typesize];
    for n in [nbytes, blocksize, cbytes] {
        c.extend(n.to_le_bytes());
    }
    c.extend(filters);
    c.extend([0, 0]);
    c.extend(metas);
    c.extend([0, 0]);
    let mut at = starts;
    for b in blocks {
        c.extend(at.to_le_bytes());
        at += 4 + b.len() as u32;
    }
    for b in blocks {
        c.extend((b.len() as u32).to_le_bytes());
        c.extend_from_slice(b);
    }
    c
}

/// The pipeline as a chunk runs it (last slot first), by hand: (typesize, filters,
/// metas, stored blocks, decoded).
#[test]
fn pipelines_by_hand() {
    const NO_META: [u8; 6] = [0; 6];
    type Case<'a> = (u8, [u8; 6], [u8; 6], &'a [&'a [u8]], &'a [u8]);
    let cases: [Case; 8] = [
        // Truncation of precision needs no undoing.
        (1, [0, 0, 0, 0, 0, 4], NO_META, &[b"abcd"], b"abcd"),
        (
            4,
            [0, 0, 0, 0, 1, 4],
            NO_META,
            &[&[1, 9, 2, 9, 3, 9, 4, 9]],
            &[1, 2, 3, 4, 9, 9, 9, 9][..],
        ),
        // Shuffle of the typesize, or of the slot's meta.
        (
            2,
            [0, 0, 0, 0, 0, 1],
            NO_META,
            &[&[1, 3, 2, 4]],
            &[1, 2, 3, 4],
        ),
        (
            4,
            [0, 0, 0, 0, 0, 1],
            [0, 0, 0, 0, 0, 2],
            &[&[1, 3, 2, 4]],
            &[1, 2, 3, 4],
        ),
        // Shuffle then delta, undone as delta then unshuffle.
        (
            2,
            [0, 0, 0, 0, 1, 3],
            NO_META,
            &[&[1, 3, 3, 7]],
            &[1, 2, 3, 4],
        ),
        // Delta in a later block XORs with the first block's decoded bytes.
        (
            1,
            [0, 0, 0, 0, 0, 3],
            NO_META,
            &[&[1, 1, 1, 1], &[1, 2, 3, 4]],
            &[1, 0, 1, 0, 0, 2, 2, 4],
        ),
        // Bitshuffle: the bit rows of 8 elements, the rest copied (format 3+).
        (
            1,
            [0, 0, 0, 0, 0, 2],
            NO_META,
            &[&[2, 0, 0, 0, 0, 0, 0, 1, 0xaa]],
            &[0x80, 1, 0, 0, 0, 0, 0, 0, 0xaa],
        ),
        // Bytedelta after shuffle (its meta the element size: C-Blosc2 3.3.5 takes
        // 0 for a super-chunk's typesize, which a lone chunk has not).
        (
            2,
            [0, 0, 0, 0, 1, 35],
            [0, 0, 0, 0, 0, 2],
            &[&[1, 1, 1, 5, 0xff, 2]],
            &[1, 5, 2, 4, 3, 6],
        ),
    ];
    for (i, (typesize, filters, metas, blocks, expected)) in cases.into_iter().enumerate() {
        let decoded =
            decode_with_limit(&chunk(typesize, filters, metas, blocks), DEFAULT_MAX_NBYTES);
        assert_eq!(decoded.as_deref(), Ok(expected), "case {i}");
    }
}
