//! Stores and bundles: the embed map, the zip directory and the offsets of nested
//! frames. The first byte picks what the rest is: the whole input as a file (a frame
//! or a zip), or XOR patches (`u16` offset, byte) applied to a real python-blosc2
//! EmbedStore or `.b2z` bundle. Opening, listing and reading every entry give `Ok` or
//! an error, never a panic; every node error displays.
#![no_main]

use b2nd_meta::container;
use libfuzzer_sys::fuzz_target;

const EMBED: &[u8] = include_bytes!("../../tests/data/containers/blosc2-4.14.1/embed_span.b2e");
const BUNDLE: &[u8] = include_bytes!("../../tests/data/containers/blosc2-4.14.1/dict.b2z");
const TREE: &[u8] = include_bytes!("../../tests/data/containers/blosc2-4.14.1/tree.b2z");

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
    let bytes = match mode % 4 {
        0 => rest.to_vec(),
        1 => patched(EMBED, rest),
        2 => patched(BUNDLE, rest),
        _ => patched(TREE, rest),
    };
    let Ok(c) = container::open_bytes(&bytes) else {
        return;
    };
    for node in c.nodes() {
        if let Err(e) = c.node_info(&node.key) {
            let _ = e.to_string();
        }
    }
    for entry in c.entries() {
        let _ = c.entry_info(entry).map_err(|e| e.to_string());
    }
});
