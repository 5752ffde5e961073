//! Bad input: node offsets outside the data, embed maps that are not what python
//! writes, zip members pointing outside the file, a nested frame cut short. Each is a
//! clear error for that node, the other nodes still listed and read; memory bounded.
//! The hostile embed maps are written by C-Blosc2 (`blosc2_vlmeta_update` on the
//! python-written `embed_span.b2e`), so the frames around them are C's.

use b2nd_meta::container::{self, ContainerErrorKind, Location};
use serde_json::json;

use crate::c::Schunk;
use crate::data;

fn span() -> Vec<u8> {
    std::fs::read(data("blosc2-4.14.1").join("embed_span.b2e")).unwrap()
}

/// `embed_span.b2e` with its estore_metadata set to `metadata` by C.
fn with_metadata(metadata: &serde_json::Value) -> Vec<u8> {
    let mut s = Schunk::from_frame(&span());
    s.vlmeta_set(
        "estore_metadata",
        &rmp_serde::to_vec_named(metadata).unwrap(),
    );
    s.to_frame()
}

#[test]
fn entries_outside_the_data_fail_alone() {
    let frame = with_metadata(&json!({
        "embed_map": {
            "/first": {"offset": 0, "length": 269},
            "/far": {"offset": 1u64 << 40, "length": 10},
            "/overflow": {"offset": u64::MAX, "length": 2},
            "/tail": {"offset": 21000, "length": 500},
            "/cut": {"offset": 0, "length": 100},
            "/inside": {"offset": 300, "length": 100},
            "/negative": {"offset": -1, "length": 10},
            "/text": "not a map",
            "/half": {"offset": 5},
            "/remote": {"urlbase": "https://example.invalid/", "path": "a/b.b2nd"},
        },
        "current_offset": 21120,
    }));
    let c = container::open(b2nd_meta::frame::Source::bytes(frame.to_vec())).unwrap();
    let keys: Vec<String> = c.nodes().map(|n| n.key).collect();
    assert_eq!(keys.len(), 10, "{keys:?}");
    assert_eq!(c.node_info("/first").unwrap().kind.name(), "NDArray");
    for key in ["/far", "/overflow", "/tail"] {
        let e = c.node_info(key).unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ContainerErrorKind::NodeOutside {
                    available: 21120,
                    ..
                }
            ),
            "{key}: {e}"
        );
    }
    // A frame cut short inside the data, and one that does not start a frame.
    for key in ["/cut", "/inside"] {
        let e = c.node_info(key).unwrap_err();
        assert!(
            matches!(e.kind(), ContainerErrorKind::Frame(_)),
            "{key}: {e}"
        );
        assert!(e.offset().is_some(), "{key}: {e}");
    }
    for key in ["/negative", "/text", "/half"] {
        let e = c.node_info(key).unwrap_err();
        assert!(
            matches!(e.kind(), ContainerErrorKind::Unreadable { .. }),
            "{key}: {e}"
        );
    }
    let remote = c.nodes().find(|n| n.key == "/remote").unwrap();
    assert!(matches!(remote.location, Location::Remote { .. }));
    assert!(matches!(
        c.node_info("/remote").unwrap_err().kind(),
        ContainerErrorKind::Remote { .. }
    ));
}

#[test]
fn a_map_that_is_not_python_s_lists_nothing_and_says_why() {
    for metadata in [
        json!({"embed": {}}),
        json!([1, 2]),
        json!({"embed_map": [1]}),
        json!("x"),
    ] {
        let c = container::open(b2nd_meta::frame::Source::bytes(with_metadata(&metadata))).unwrap();
        assert_eq!(c.nodes().count(), 0, "{metadata}");
        assert!(
            c.notes.iter().any(|n| n.contains("embed map")),
            "{metadata}: {:?}",
            c.notes
        );
    }
    // Not msgpack at all.
    let mut s = Schunk::from_frame(&span());
    s.vlmeta_set("estore_metadata", b"\xc1\xc1");
    let c = container::open(b2nd_meta::frame::Source::bytes(s.to_frame())).unwrap();
    assert_eq!(c.nodes().count(), 0);
    assert!(!c.notes.is_empty());
}

/// The central directory entry of `name` in a zip: its offset.
fn central_entry(zip: &[u8], name: &str) -> usize {
    (0..zip.len() - 46)
        .find(|&i| {
            zip[i..i + 4] == *b"PK\x01\x02" && {
                let n = u16::from_le_bytes([zip[i + 28], zip[i + 29]]) as usize;
                zip.get(i + 46..i + 46 + n) == Some(name.as_bytes())
            }
        })
        .unwrap()
}

#[test]
fn zip_members_pointing_outside_the_file_fail_alone() {
    let zip = std::fs::read(data("blosc2-4.14.1").join("dict.b2z")).unwrap();
    let at = central_entry(&zip, "dir1/big.b2nd");
    // Local header offset past the end; then a compressed size past the end; then a
    // size that cuts the frame short.
    let mut far = zip.clone();
    far[at + 42..at + 46].copy_from_slice(&(zip.len() as u32 + 100).to_le_bytes());
    let mut long = zip.clone();
    long[at + 20..at + 24].copy_from_slice(&(zip.len() as u32).to_le_bytes());
    let mut short = zip.clone();
    short[at + 20..at + 24].copy_from_slice(&120u32.to_le_bytes());
    for (what, bytes) in [("far", far), ("long", long), ("short", short)] {
        let c = container::open(b2nd_meta::frame::Source::bytes(bytes.to_vec()))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        let keys: Vec<String> = c.nodes().map(|n| n.key).collect();
        for key in ["/dir1/dir2/sc", "/objs", "/tiny", "/batches"] {
            assert!(keys.contains(&key.to_string()), "{what}: {keys:?}");
            c.node_info(key)
                .unwrap_or_else(|e| panic!("{what} {key}: {e}"));
        }
        assert!(keys.contains(&"/dir1/big".to_string()), "{what}: {keys:?}");
        let e = c.node_info("/dir1/big").unwrap_err();
        assert!(e.to_string().contains("byte"), "{what}: {e}");
    }
}

#[test]
fn a_compressed_embed_member_is_refused_as_python_does() {
    let mut zip = std::fs::read(data("blosc2-4.14.1").join("dict.b2z")).unwrap();
    let at = central_entry(&zip, "embed.b2e");
    zip[at + 10..at + 12].copy_from_slice(&8u16.to_le_bytes());
    let e = container::open(b2nd_meta::frame::Source::bytes(zip.to_vec())).unwrap_err();
    assert!(
        matches!(e.kind(), ContainerErrorKind::Compressed { method: 8, .. }),
        "{e}"
    );
    // A compressed leaf is left out, with a note.
    let mut zip = std::fs::read(data("blosc2-4.14.1").join("dict.b2z")).unwrap();
    let at = central_entry(&zip, "dir1/big.b2nd");
    zip[at + 10..at + 12].copy_from_slice(&8u16.to_le_bytes());
    let c = container::open(b2nd_meta::frame::Source::bytes(zip.to_vec())).unwrap();
    assert!(c.nodes().all(|n| n.key != "/dir1/big"));
    assert!(
        c.notes.iter().any(|n| n.contains("compressed")),
        "{:?}",
        c.notes
    );
}

/// Every byte of a small bundle flipped, and every prefix: open and list give Ok or an
/// error, never a panic, and each node read is Ok or an error naming a byte or a node.
#[test]
fn mutation_sweep_over_a_bundle_and_a_store() {
    for file in ["dict.b2z", "embed_one.b2e"] {
        let bytes = std::fs::read(data("blosc2-4.14.1").join(file)).unwrap();
        let step = if std::env::var_os("B2ND_FULL_SWEEP").is_some() {
            1
        } else {
            7
        };
        for i in (0..bytes.len()).step_by(step) {
            for mutated in [flip(&bytes, i), bytes[..i].to_vec()] {
                if let Ok(c) = container::open(b2nd_meta::frame::Source::bytes(mutated.to_vec())) {
                    for e in c.entries() {
                        let _ = c.entry_info(e).map_err(|e| e.to_string());
                    }
                }
            }
        }
    }
}

fn flip(bytes: &[u8], i: usize) -> Vec<u8> {
    let mut m = bytes.to_vec();
    m[i] ^= 0xa5;
    m
}
