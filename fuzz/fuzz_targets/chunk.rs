//! Any bytes as a Blosc2 chunk: `chunk::decode` (a per-chunk limit) is `Ok` or `Err`, never a
//! panic; an accepted chunk gives exactly its header's nbytes and lies inside the input;
//! an error's offset is inside the input; `chunk::decode_into` a buffer of the same
//! limit gives the same verdict and the same bytes; so does `chunk::decode_range_into`
//! of every block with every block wanted, and with a mask drawn from the input each wanted block
//! holds the decode's bytes and the others keep the destination's. Seeds: chunks python-blosc2 wrote
//! with every codec, filter pipeline, typesize, clevel and dictionary
//! (fuzz/build_seeds.py).
#![no_main]

use std::cell::RefCell;

use b2nd_meta::chunk;
use libfuzzer_sys::fuzz_target;

/// Small enough for libFuzzer's malloc limit, large enough for every seed.
const LIMIT: u32 = 4 << 20;

thread_local! {
    /// `decode_into`'s destination, allocated once.
    static DEST: RefCell<Vec<u8>> = RefCell::new(vec![0; LIMIT as usize]);
    /// `decode_range_into`'s destination, allocated once.
    static MASKED: RefCell<Vec<u8>> = RefCell::new(vec![0; LIMIT as usize]);
}

fuzz_target!(|data: &[u8]| {
    let decoded = chunk::decode(data, &chunk::DecodeBudget::unlimited().with_max_chunk(LIMIT));
    match &decoded {
        Ok(out) => {
            let header = chunk::ChunkHeader::parse(data).expect("a decoded chunk has a header");
            assert_eq!(out.len(), header.nbytes as usize);
            assert!(header.cbytes as usize <= data.len());
        }
        Err(e) => {
            if let Some(offset) = e.offset() {
                assert!(offset <= data.len() as u64, "{e}");
            }
        }
    }
    DEST.with_borrow_mut(|dest| match (&decoded, chunk::decode_into(data, dest)) {
        (Ok(out), Ok(n)) => assert_eq!(&dest[..n], &out[..]),
        (Err(a), Err(b)) => {
            assert_eq!(a.offset(), b.offset());
            assert_eq!(a.kind(), b.kind());
        }
        (a, b) => panic!("decode {a:?}, decode_into {b:?}"),
    });
    check_masks(data, &decoded);
});

/// `chunk::decode_range_into` of every block (`..`) with every block wanted gives the whole decode's verdict
/// and bytes; with a mask drawn from the input, each wanted block holds the whole
/// decode's bytes and every other byte keeps the guard (fixed-size blocks; for
/// variable-length blocks, each byte is the decode's or the guard).
fn check_masks(data: &[u8], decoded: &Result<Vec<u8>, chunk::ChunkError>) {
    const GUARD: u8 = 0xa5;
    MASKED.with_borrow_mut(|dest| {
        let len = decoded.as_ref().map_or(LIMIT as usize, Vec::len);
        let dest = &mut dest[..len];
        if decoded.is_ok() {
            dest.fill(GUARD);
        }
        match (decoded, chunk::decode_range_into(data, .., |_| true, dest)) {
            (Ok(out), Ok(n)) => assert_eq!((n, &dest[..n]), (out.len(), &out[..])),
            (Err(a), Err(b)) => {
                assert_eq!(a.offset(), b.offset());
                // The limit is the destination's length.
                if !matches!(a.kind(), chunk::ChunkErrorKind::TooLarge { .. }) {
                    assert_eq!(a.kind(), b.kind());
                }
            }
            (a, b) => panic!("decode {a:?}, decode_range_into {b:?}"),
        }
        let Ok(out) = decoded else { return };
        let header = chunk::ChunkHeader::parse(data).expect("a decoded chunk has a header");
        let seed = data
            .iter()
            .fold(0x9e37_79b9u32, |h, &b| h.rotate_left(5) ^ u32::from(b));
        let wanted = |block: usize| (seed >> (block % 31)) & 1 == 1;
        dest.fill(GUARD);
        let n = chunk::decode_range_into(data, .., wanted, dest).expect("the whole decode succeeded");
        assert_eq!(n, out.len());
        // Variable-length blocks have no span in the header (nblocks may be millions:
        // nothing is collected).
        if header.nblocks() > 0 && header.block_span(0).is_none() {
            assert!(dest.iter().zip(out).all(|(&d, &o)| d == o || d == GUARD));
            return;
        }
        for block in 0..header.nblocks() {
            let span = header.block_span(block).expect("a fixed-size block");
            if wanted(block) {
                assert_eq!(dest[span.clone()], out[span], "block {block}");
            } else {
                assert!(dest[span].iter().all(|&b| b == GUARD), "block {block}");
            }
        }
    });
}
