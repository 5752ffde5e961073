//! Stores whose chunks cost more than the file weighs: an EmbedStore of 374 bytes
//! whose chunksize (1.75 GiB) was taken as the decode limit (an abort), one of 499
//! bytes with two 1 GiB chunks (2.1 GB resident, 0.8 s a node), and one of 89 KB with
//! 100,000 nodes alternating between two 32 MiB chunks, each node decoding its chunk
//! again (67 minutes). Now a store's chunks are decoded once each, within the decode
//! budget and never past the decoder's 64 MiB a chunk.

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::container;

use crate::common::data_path;

const HUGE: &str = "regression/issue31/embed_huge_chunksize.b2e";
const GIB: &str = "regression/issue31/embed_1gib_chunks.b2e";
const ALTERNATING: &str = "regression/issue31/embed_alternating.b2e";

/// The error of every node of the store at `relative`, in key order.
fn node_errors(relative: &str) -> Vec<String> {
    let c = container::open(data_path(relative)).unwrap();
    c.entries()
        .iter()
        .map(|e| c.entry_info(e).unwrap_err().to_string())
        .collect()
}

#[test]
fn a_stores_chunksize_never_raises_the_per_chunk_limit() {
    let refused = "expected at most 67108864 decompressed bytes, found nbytes";
    let errors = node_errors(HUGE);
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].contains(&format!("{refused} 1879048192")),
        "{}",
        errors[0]
    );
    let errors = node_errors(GIB);
    assert_eq!(errors.len(), 8);
    assert!(
        errors
            .iter()
            .all(|e| e.contains(&format!("{refused} 1073741824"))),
        "{errors:?}"
    );
}

#[test]
fn a_stores_chunks_are_decoded_once_whatever_the_order_of_its_keys() {
    let budget = DecodeBudget::default();
    let c = container::open(
        b2nd_meta::frame::Source::path(data_path(ALTERNATING)).budget(budget.clone()),
    )
    .unwrap();
    let entries = c.entries();
    assert_eq!(entries.len(), 100_000);
    let map = budget.spent();
    for entry in entries {
        // Junk at both places (zeros after a counting pattern): not a frame.
        let e = c.entry_info(entry).unwrap_err();
        assert!(e.to_string().contains("not a Blosc2 frame"), "{e}");
    }
    // The two 32 MiB chunks, once each, and the index: not 100,000 of them.
    let data = budget.spent() - map;
    assert!((64 << 20..(64 << 20) + 4096).contains(&data), "{data}");
}

#[test]
fn a_budget_spent_makes_the_nodes_past_it_errors_that_say_so() {
    // The map takes 22 MB of it (100,000 entries of 7 values each, and its bytes).
    let budget = DecodeBudget::new(60 << 20);
    let c = container::open(
        b2nd_meta::frame::Source::path(data_path(ALTERNATING)).budget(budget.clone()),
    )
    .unwrap();
    let errors: Vec<String> = c.entries()[..4]
        .iter()
        .map(|e| c.entry_info(e).unwrap_err().to_string())
        .collect();
    // The first chunk fits what the map left, the second does not.
    assert!(errors[0].contains("not a Blosc2 frame"), "{}", errors[0]);
    assert!(
        errors[1].contains("decode budget of 62914560"),
        "{}",
        errors[1]
    );
    assert!(errors[2].contains("not a Blosc2 frame"), "{}", errors[2]);
    assert!(budget.spent() <= 60 << 20);
}

#[cfg(feature = "cli")]
#[test]
fn show_lists_the_hostile_stores_in_seconds() {
    use super::run::{b2nd_meta, MAX_TIME};
    for (relative, nodes, error) in [
        (HUGE, 1, "found nbytes 1879048192"),
        (GIB, 8, "found nbytes 1073741824"),
        (ALTERNATING, 100_000, "not a Blosc2 frame"),
    ] {
        let path = data_path(relative);
        let run = b2nd_meta(&["show".as_ref(), path.as_os_str()], &[]);
        // Every node listed, each an error (exit 1); 100,000 of them take 0.5 s in a
        // release build, up to 30 in a debug build on a loaded machine.
        run.within(&format!("show {relative}"), 1, MAX_TIME * 3);
        let stdout = run.stdout();
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 1 + nodes, "{relative}");
        assert!(lines[1..].iter().all(|l| l.contains(error)), "{}", lines[1]);
        assert_eq!(run.stderr.lines().count(), nodes, "{relative}");
    }
}

#[test]
fn a_store_chunk_that_does_not_decode_is_tried_once_for_all_its_nodes() {
    use b2nd_meta::frame::{self, ChunkIndex, ChunkLocation};
    // The store with its first chunk's first stream cut to one byte (csize 1): its
    // decode is spent from the budget, then fails.
    let mut bytes = std::fs::read(data_path(ALTERNATING)).unwrap();
    let header = frame::parse_header(&bytes).unwrap();
    let index = ChunkIndex::parse(&bytes, &header).unwrap();
    let ChunkLocation::Offset(at) = index.locations[0] else {
        panic!("{:?}", index.locations[0])
    };
    let at = at as usize;
    let bstart = u32::from_le_bytes(bytes[at + 32..at + 36].try_into().unwrap()) as usize;
    bytes[at + bstart..at + bstart + 4].copy_from_slice(&1i32.to_le_bytes());

    let budget = DecodeBudget::default();
    let c = container::open(b2nd_meta::frame::Source::bytes(bytes.to_vec()).budget(budget.clone()))
        .unwrap();
    let map = budget.spent();
    let errors: Vec<String> = c
        .entries()
        .iter()
        .map(|e| c.entry_info(e).unwrap_err().to_string())
        .collect();
    // Every node in the first chunk says why it does not decode (not that the budget
    // is spent); the second chunk decodes, once.
    let first = &errors[0];
    assert!(
        first.contains("data chunk 0") && !first.contains("budget"),
        "{first}"
    );
    assert!(
        errors.iter().step_by(2).all(|e| e == first),
        "{}",
        errors[2]
    );
    assert!(errors
        .iter()
        .skip(1)
        .step_by(2)
        .all(|e| e.contains("not a Blosc2 frame")));
    // The index: two offsets of 8 bytes, held as two locations of 16.
    assert_eq!(budget.spent() - map, 2 * (32 << 20) + 2 * (8 + 16));
}
