//! `chunk::decode_range_into` of every block (`..`) with a block mask: on every chunk
//! python-blosc2 and c-blosc 1.x wrote (tests/data/chunks), on chunks C cuts into many
//! blocks for every pipeline (delta included) and on special and memcpyed chunks, each wanted block holds exactly the
//! whole decode's bytes and every other byte stays as it was; a chunk the whole decode
//! refuses is refused the same with every block wanted. Against C-Blosc2 3.3.5's
//! `blosc2_set_maskout` when the library is here.

use b2nd_meta::chunk::{self, ChunkHeader};

use super::c335::{self, CVerdict};
use super::c_ref::{
    self, Params, ALWAYS_SPLIT, BITSHUFFLE, BLOSCLZ, DELTA, LZ4, NEVER_SPLIT, ZSTD,
};
use super::differential::pipelines;
use super::differential335::special;

/// What the bytes of blocks not wanted are before (and after) the masked decode.
pub(super) const GUARD: u8 = 0xa5;

/// Chunks of many blocks: 4109 bytes (a leftover block) cut into blocks of 64 to 1000
/// bytes, by C-Blosc2 2.15.3, for every pipeline and split; memcpyed and special ones.
pub(super) fn many_block_chunks() -> Vec<Vec<u8>> {
    let data: Vec<u8> = (0..4109u32).map(|i| (i * 7 / 5 + (i >> 6)) as u8).collect();
    let mut out = Vec::new();
    for codec in [BLOSCLZ, LZ4, ZSTD] {
        for typesize in [1, 2, 4, 8] {
            for (filters, metas) in pipelines(typesize) {
                for blocksize in [64, 256, 1000] {
                    for split in [ALWAYS_SPLIT, NEVER_SPLIT] {
                        let mut p = Params::new(codec, 5, typesize, 0, blocksize, split);
                        p.filters = filters;
                        p.filters_meta = metas;
                        out.extend(c_ref::try_compress(&data, &p));
                    }
                }
            }
        }
    }
    // clevel 0: memcpyed, in blocks of 256.
    out.extend(c_ref::try_compress(
        &data,
        &Params::new(ZSTD, 0, 1, 0, 256, ALWAYS_SPLIT),
    ));
    out.push(special(5, 0x05, 4, 4096, 256, 2, &[])); // NaNs
    out.push(special(5, 0x05, 1, 4100, 300, 3, &[1, 2, 3, 4])); // a value, a leftover block
    out.push(special(5, 0x05, 2, 4109, 1000, 1, &[])); // zeros
    out.push(
        c_ref::try_compress(
            &data,
            &Params::new(LZ4, 5, 4, BITSHUFFLE, 4109, ALWAYS_SPLIT),
        )
        .unwrap(),
    );
    out.push(
        c_ref::try_compress(&data, &Params::new(LZ4, 5, 4, DELTA, 512, ALWAYS_SPLIT)).unwrap(),
    );
    out
}

/// Masks over `nblocks` blocks: none, all, the first, the last, and pseudo-random ones.
pub(super) fn masks(nblocks: usize, seed: u64) -> Vec<Vec<bool>> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut out = vec![
        vec![false; nblocks],
        vec![true; nblocks],
        (0..nblocks).map(|i| i == 0).collect(),
        (0..nblocks).map(|i| i + 1 == nblocks).collect(),
    ];
    for _ in 0..4 {
        out.push(
            (0..nblocks)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x.is_multiple_of(3)
                })
                .collect(),
        );
    }
    out
}

/// Our masked decode into a destination of guard bytes.
fn masked(chunk: &[u8], mask: &[bool], nbytes: usize) -> Result<Vec<u8>, chunk::ChunkError> {
    let mut dest = vec![GUARD; nbytes];
    let n = chunk::decode_range_into(chunk, .., |b| mask[b], &mut dest)?;
    assert_eq!(n, nbytes);
    Ok(dest)
}

/// The whole decode's bytes where `mask` wants a block, guard bytes elsewhere.
fn expected(header: &ChunkHeader, whole: &[u8], mask: &[bool]) -> Vec<u8> {
    let mut out = vec![GUARD; whole.len()];
    for (block, &want) in mask.iter().enumerate() {
        let span = header.block_span(block).unwrap();
        if want {
            out[span.clone()].copy_from_slice(&whole[span]);
        }
    }
    out
}

#[test]
fn wanted_blocks_hold_the_whole_decode_and_the_rest_stays() {
    let mut chunks = super::python::all_chunks();
    chunks.extend(super::cblosc1::chunk_bytes());
    chunks.extend(many_block_chunks());
    let (mut decoded, mut multi) = (0, 0);
    for (i, chunk) in chunks.iter().enumerate() {
        let Ok(header) = ChunkHeader::parse(chunk) else {
            continue;
        };
        let nbytes = header.nbytes as usize;
        let whole = match chunk::decode(chunk, &chunk::DecodeBudget::default()) {
            Ok(whole) => whole,
            Err(e) => {
                let all = masked(chunk, &vec![true; header.nblocks()], nbytes).unwrap_err();
                assert_eq!(
                    (all.offset(), all.kind()),
                    (e.offset(), e.kind()),
                    "chunk {i}"
                );
                continue;
            }
        };
        decoded += 1;
        multi += usize::from(header.nblocks() > 1);
        for mask in masks(header.nblocks(), i as u64) {
            let got = masked(chunk, &mask, nbytes).unwrap_or_else(|e| panic!("chunk {i}: {e}"));
            assert!(
                got == expected(&header, &whole, &mask),
                "chunk {i}, mask {mask:?}"
            );
        }
    }
    eprintln!("{decoded} chunks decoded, {multi} of several blocks");
    assert!(multi >= 500, "{multi} chunks of several blocks");
}

#[test]
fn masks_as_c_3_3_5_maskout() {
    if !c335::present("masks_as_c_3_3_5_maskout") {
        return;
    }
    let mut items = Vec::new();
    let mut ours = Vec::new();
    for (i, chunk) in many_block_chunks().iter().enumerate() {
        let header = ChunkHeader::parse(chunk).unwrap();
        let delta = header
            .filters
            .iter()
            .any(|(f, _)| *f == b2nd_meta::blosc::Filter::Delta);
        for mask in masks(header.nblocks(), i as u64) {
            // C undoes delta against the first block in the destination, whether it
            // decoded it or not: with the first block masked out, it reads whatever was
            // there (here guard bytes). Ours decodes the first block aside.
            if delta && !mask[0] && mask.iter().any(|&w| w) {
                continue;
            }
            ours.push((i, masked(chunk, &mask, header.nbytes as usize).unwrap()));
            items.push((chunk.clone(), mask.iter().map(|w| !w).collect()));
        }
    }
    let compared = items.len();
    for ((c, (i, ours)), (_, skip)) in c335::decompress_masked(&items, GUARD)
        .into_iter()
        .zip(ours)
        .zip(&items)
    {
        assert_eq!(c, CVerdict::Ok(ours), "chunk {i}, blocks skipped {skip:?}");
    }
    assert!(compared > 1000, "{compared}");
}
