//! Any bytes as a Blosc2 chunk: `chunk::decode_with_limit` is `Ok` or `Err`, never a
//! panic; an accepted chunk gives exactly its header's nbytes and lies inside the input;
//! an error's offset is inside the input; `chunk::decode_into` a buffer of the same
//! limit gives the same verdict and the same bytes. Seeds: chunks python-blosc2 wrote
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
}

fuzz_target!(|data: &[u8]| {
    let decoded = chunk::decode_with_limit(data, LIMIT);
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
        (a, b) => panic!("decode_with_limit {a:?}, decode_into {b:?}"),
    });
});
