//! Stores and bundles: the embed map, the zip directory and the offsets of nested
//! frames. The first byte picks what the rest is: the whole input as a file (a frame
//! or a zip), or XOR patches (`u16` offset, byte) applied to a real python-blosc2
//! EmbedStore or `.b2z` bundle, or to one of issue 31's hostile stores (a 1.75 GiB
//! chunksize, two 1 GiB chunks, control characters in keys). Opening, listing and
//! reading every entry and every vlmeta value of every node give `Ok` or an error,
//! never a panic, and spend at most the container's decode budget; every node error
//! displays.
#![no_main]

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::container;
use libfuzzer_sys::fuzz_target;

const EMBED: &[u8] = include_bytes!("../../tests/data/containers/blosc2-4.14.1/embed_span.b2e");
const BUNDLE: &[u8] = include_bytes!("../../tests/data/containers/blosc2-4.14.1/dict.b2z");
const TREE: &[u8] = include_bytes!("../../tests/data/containers/blosc2-4.14.1/tree.b2z");
const HUGE: &[u8] = include_bytes!("../../tests/data/regression/issue31/embed_huge_chunksize.b2e");
const GIB: &[u8] = include_bytes!("../../tests/data/regression/issue31/embed_1gib_chunks.b2e");
const KEYS: &[u8] = include_bytes!("../../tests/data/regression/issue31/keys_control.b2z");

/// The decode budget of each input: what it may cost, whatever it claims.
const BUDGET: u64 = 64 << 20;

fn patched(base: &[u8], patches: &[u8]) -> Vec<u8> {
    let mut out = base.to_vec();
    for p in patches.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([p[0], p[1]])) % out.len();
        out[at] ^= p[2];
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = match mode % 7 {
        0 => rest.to_vec(),
        1 => patched(EMBED, rest),
        2 => patched(BUNDLE, rest),
        3 => patched(TREE, rest),
        4 => patched(HUGE, rest),
        5 => patched(GIB, rest),
        _ => patched(KEYS, rest),
    };
    let Ok(c) = container::open(b2nd_meta::frame::Source::bytes(bytes.to_vec()).budget(DecodeBudget::new(BUDGET))) else {
        return;
    };
    for node in c.nodes() {
        match c.node_info(&node.key) {
            Ok(info) => {
                for vl in info.trailer.iter().flat_map(|t| &t.vlmetalayers) {
                    let _ = vl.value_within(c.budget()).map_err(|e| e.to_string());
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    for entry in c.entries() {
        let _ = c.entry_info(entry).map_err(|e| e.to_string());
    }
    assert!(c.budget().spent() <= BUDGET);
});
