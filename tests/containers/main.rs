//! Containers and stores (`b2nd_meta::container`): every kind python-blosc2 writes,
//! compared with python's own view of it (tests/data/containers/*/<fixture>.json, from
//! tests/data/containers/generate.py); the chunk index and byte-range reads against
//! C-Blosc2; what listing reads; bad input.

mod bad;
mod bounds;
mod c;
#[path = "../c_ffi/mod.rs"]
mod c_ffi;
mod chunk_index;
mod cli;
#[path = "../common/mod.rs"]
mod common;
mod hostile;
mod python;
mod store_vlmeta;
mod write;

/// Counts allocations, for the memory bounds of `hostile`.
#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

use std::path::PathBuf;

/// The fixtures folder of a producer.
pub fn data(producer: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/containers")
        .join(producer)
}

/// python's view of a fixture.
pub fn view(producer: &str, fixture: &str) -> serde_json::Value {
    let path = data(producer).join(format!("{fixture}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}
