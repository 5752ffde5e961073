//! The chunk and block shapes python-blosc2 chooses (`tests/data/array_defaults/defaults.json`,
//! from its committed `generate.py`, with the cache sizes python read on the machine
//! that ran it).

use b2nd_meta::array::write::{chunks_and_blocks, Caches, Platform};

#[test]
fn chunks_and_blocks_are_python_blosc2s() {
    let json = include_str!("../data/array_defaults/defaults.json");
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["python_blosc2"], "4.14.1");
    let size = |key: &str| v[key].as_u64();
    let caches = Caches {
        platform: match (v["machine"].as_str(), v["system"].as_str()) {
            (Some("x86_64"), _) => Platform::X86_64,
            (Some(m), Some("Darwin")) if m.contains("arm") => Platform::AppleArm,
            _ => Platform::Other,
        },
        l1_data: size("l1_data_cache_size"),
        l2: size("l2_cache_size"),
        l3: size("l3_cache_size"),
    };
    let dims = |x: &serde_json::Value| -> Option<Vec<u64>> {
        x.as_array()
            .map(|a| a.iter().map(|d| d.as_u64().unwrap()).collect())
    };
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() > 100);
    for case in cases {
        let shape = dims(&case["shape"]).unwrap();
        let itemsize = case["itemsize"].as_u64().unwrap();
        let chunks = dims(&case["chunks_given"]);
        let blocks = dims(&case["blocks_given"]);
        let ours = chunks_and_blocks(
            &shape,
            itemsize,
            chunks.as_deref(),
            blocks.as_deref(),
            &caches,
        );
        match (&ours, case.get("error")) {
            (Ok((c, b)), None) => {
                assert_eq!(Some(c.clone()), dims(&case["chunks"]), "{case}");
                assert_eq!(Some(b.clone()), dims(&case["blocks"]), "{case}");
            }
            (Err(_), Some(_)) => {}
            _ => panic!("ours {ours:?}, python {case}"),
        }
    }
}
