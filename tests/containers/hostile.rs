//! Memory on hostile stores: an EmbedStore written by C-Blosc2 whose data is mostly
//! special zero chunks (stored nowhere: a few bytes of index each), and whose embed map
//! claims nodes of a GiB and more over them. Listing reads each node's header and
//! trailer only, and takes a bounded number of bytes from special chunks: the largest
//! allocation stays a few MiB however much the store claims.

use b2nd_meta::container::{self, ContainerErrorKind};
use b2nd_meta::frame::{parse_header, ChunkIndex, ChunkLocation};
use serde_json::json;

use crate::c::Schunk;
use crate::c_ffi::c_serialize;
use crate::common::alloc;

/// What a listing of these stores may allocate at once: the 1 MiB a node may take from
/// special chunks (container::read_at's allowance), as the trailer's buffer grows to
/// it, with room for the chunk index.
const PEAK_LIMIT: usize = 4 << 20;

/// xorshift noise: incompressible, so C stores it as it is.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n.div_ceil(8))
        .flat_map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.to_le_bytes()
        })
        .take(n)
        .collect()
}

/// The header of a frame C writes for a small int64 array, claiming `frame_len` bytes.
fn header_claiming(frame_len: u64) -> Vec<u8> {
    let mut s = Schunk::new();
    s.meta_add("b2nd", &c_serialize(&[512], &[512], &[512], "<i8", 0));
    s.append(&noise(4096, 7));
    let frame = s.to_frame();
    let header = parse_header(&frame).unwrap();
    let mut bytes = frame[..header.info.header_len as usize].to_vec();
    // frame_len: the uint64 (0xcf) at byte 15, big-endian.
    assert_eq!(bytes[15], 0xcf);
    bytes[16..24].copy_from_slice(&frame_len.to_be_bytes());
    bytes
}

/// An EmbedStore (C's frame, marked `b2embed`) of `data`'s chunks with `map` for its
/// estore_metadata.
fn store(chunks: &[Vec<u8>], zeros: (usize, usize), map: serde_json::Value) -> Vec<u8> {
    let mut s = Schunk::new();
    s.meta_add(
        "b2embed",
        &rmp_serde::to_vec_named(&json!({"version": 1})).unwrap(),
    );
    let (first, rest) = chunks.split_first().unwrap();
    s.append(first);
    // Zero chunks: C stores each as a special value in its offsets index.
    let zero = vec![0u8; zeros.1];
    for _ in 0..zeros.0 {
        s.append(&zero);
    }
    for c in rest {
        s.append(c);
    }
    s.vlmeta_set(
        "estore_metadata",
        &rmp_serde::to_vec_named(&json!({"embed_map": map, "current_offset": 0})).unwrap(),
    );
    s.to_frame()
}

#[test]
fn a_node_claiming_256_mib_over_zero_chunks_costs_a_few_mib() {
    const CHUNK: usize = 64 << 10;
    const ZEROS: usize = 4 << 10; // 4 Ki chunks of 64 KiB: 256 MiB of zeros.
    const TAIL: usize = 4096;
    let len = (CHUNK + ZEROS * CHUNK + TAIL) as u64;
    // The node: a valid header claiming the whole range, 1 GiB of zeros, and a last
    // chunk ending with a trailer length that reaches back into the zeros.
    let header = header_claiming(len);
    let mut first = header.clone();
    first.extend(noise(CHUNK - header.len(), 11));
    let mut tail = noise(TAIL, 13);
    let trailer_len = (len - 87).min(i32::MAX as u64) as u32;
    let fixed = [
        &[0xce][..],
        &trailer_len.to_be_bytes(),
        &[0xd8, 0],
        &[0; 16],
    ]
    .concat();
    tail[TAIL - 23..].copy_from_slice(&fixed);
    let frame = store(
        &[first, tail],
        (ZEROS, CHUNK),
        json!({
            "/huge": {"offset": 0, "length": len},
            "/zeros": {"offset": CHUNK as u64, "length": (ZEROS * CHUNK) as u64},
        }),
    );
    assert!(frame.len() < 1 << 20, "{}", frame.len());
    // The store is what it claims: its data is mostly zero chunks stored nowhere.
    let store_header = parse_header(&frame).unwrap();
    let index = ChunkIndex::parse(&frame, &store_header).unwrap();
    let special = index
        .locations
        .iter()
        .filter(|l| matches!(l, ChunkLocation::Special(_)))
        .count();
    assert!(special >= ZEROS - 1, "{special} special chunks");

    let (result, stats) = alloc::measure(|| {
        let c = container::open(b2nd_meta::frame::Source::bytes(frame.to_vec())).unwrap();
        let huge = c
            .node_info("/huge")
            .map(|i| i.trailer.err().map(|e| e.to_string()));
        let zeros = c.node_info("/zeros").map(|i| i.kind);
        (huge, zeros)
    });
    assert!(
        stats.peak < PEAK_LIMIT,
        "largest allocation {} bytes",
        stats.peak
    );
    // The huge node's header reads; its trailer does not, for a reason.
    let (huge, zeros) = result;
    let problems = huge.unwrap();
    let said = format!("{problems:?}");
    assert!(said.contains("special chunks"), "{said}");
    // A node of zeros is no frame: an error at its first byte.
    let e = zeros.unwrap_err();
    assert!(matches!(e.kind(), ContainerErrorKind::Frame(_)), "{e}");
    assert!(e.offset().is_some(), "{e}");
}

#[test]
fn special_chunks_of_a_gib_each_are_never_expanded() {
    // C fills the store with 4 special zero chunks of 256 MiB each.
    let mut s = Schunk::new();
    s.meta_add(
        "b2embed",
        &rmp_serde::to_vec_named(&json!({"version": 1})).unwrap(),
    );
    s.fill_special(1 << 30, 1, 256 << 20);
    s.vlmeta_set(
        "estore_metadata",
        &rmp_serde::to_vec_named(&json!({
            "embed_map": {
                "/start": {"offset": 0, "length": 1u64 << 30},
                "/across": {"offset": (256u64 << 20) - 10, "length": 4096},
                "/end": {"offset": (1u64 << 30) - 2000, "length": 2000},
            },
            "current_offset": 1u64 << 30,
        }))
        .unwrap(),
    );
    let frame = s.to_frame();
    assert!(frame.len() < 4096, "{}", frame.len());
    let (errors, stats) = alloc::measure(|| {
        let c = container::open(b2nd_meta::frame::Source::bytes(frame.to_vec())).unwrap();
        ["/start", "/across", "/end"].map(|k| c.node_info(k).map(|_| ()).unwrap_err())
    });
    assert!(
        stats.peak < PEAK_LIMIT,
        "largest allocation {} bytes",
        stats.peak
    );
    for e in errors {
        // Zeros are not a frame: the first byte says so.
        assert!(matches!(e.kind(), ContainerErrorKind::Frame(_)), "{e}");
        assert!(e.offset().is_some(), "{e}");
    }
}
