//! Array values (`b2nd_meta::array`): every slice of every array python-blosc2 wrote
//! (tests/data/arrays/, from tests/data/arrays/generate.py) against python's values;
//! random slices against the same slice of the full read, taken by a plain walk over
//! the elements; boxes of arrays C-Blosc2 wrote against C's read of them; the selection
//! syntax; the `.npy` header against numpy's; bad input.

#[path = "../c_ffi/b2nd.rs"]
mod c_b2nd;
mod c_boxes;
#[path = "../common/mod.rs"]
mod common;
mod errors;
mod fixtures;
mod npy;
mod props;
mod selection;

use std::path::PathBuf;

use b2nd_meta::array::Array;
use serde_json::Value;

/// The producers whose fixtures the tests read.
pub const PRODUCERS: [&str; 3] = ["blosc2-4.14.1", "blosc2-3.0.0", "blosc2-2.7.1"];

/// The fixtures folder of a producer.
pub fn data(producer: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/arrays")
        .join(producer)
}

/// A producer's manifest.
pub fn manifest(producer: &str) -> Value {
    let path = data(producer).join("manifest.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Every fixture of every producer, with its producer.
pub fn fixtures() -> Vec<(&'static str, Value)> {
    PRODUCERS
        .iter()
        .flat_map(|p| {
            let m = manifest(p);
            m["fixtures"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| (*p, f.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Opens a fixture's array (a store's node when it names a key).
pub fn open(producer: &str, fixture: &Value) -> Result<Array, b2nd_meta::array::ArrayError> {
    let path = data(producer).join(fixture["path"].as_str().unwrap());
    match fixture["key"].as_str() {
        Some(key) => Array::open_key(path, key),
        None => Array::open(path),
    }
}

/// A JSON array of integers.
pub fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}
