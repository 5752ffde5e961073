//! Filter pipelines are refused where python-blosc2 4.14.1 (C-Blosc2 3.3.5) does not
//! read back what this crate writes: every pipeline of 1 to 3 of shuffle, bitshuffle,
//! delta and bytedelta on 1- to 8-byte integers, written with the check off and read by
//! python on 1 and 4 threads (tests/data/pipelines/pipelines.json, made by its
//! generate.py). Every pipeline accepted was read back exactly, by python and by us; a
//! pipeline python happened to read back is refused only by the delta rule, whose
//! failures are a race between C's threads (src/array/write/pipeline_check.rs).

use b2nd_meta::array::write::NewArray;
use b2nd_meta::array::ArrayErrorKind;
use b2nd_meta::blosc::{Filter, MAX_FILTERS};

use crate::cases::fixed_caches;
use crate::TempDir;

#[test]
fn pipelines_are_refused_where_python_does_not_read_back_its_own() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pipelines/pipelines.json"
    );
    let recorded: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let dir = TempDir::new("pipelines");
    let mut disagree = Vec::new();
    let mut refused = 0;
    for case in recorded["cases"].as_array().unwrap() {
        let mut filters = [(Filter::None, 0); MAX_FILTERS];
        for (slot, name) in case["filters"].as_array().unwrap().iter().enumerate() {
            filters[slot] = (Filter::from_name(name.as_str().unwrap()).unwrap(), 0);
        }
        let dtype = case["dtype"].as_str().unwrap();
        let created = NewArray::new(&[200, 200], dtype)
            .unwrap()
            .chunks(&[100, 200])
            .blocks(&[10, 200])
            .caches(fixed_caches())
            .filters(filters)
            .create(dir.0.join("p.b2nd"));
        let exact = case["exact"].as_bool().unwrap() && case["ours"].as_bool().unwrap();
        match created {
            Ok(_) if exact => {}
            Ok(_) => disagree.push(format!(
                "{} {dtype}: accepted, not read back",
                case["filters"]
            )),
            Err(e) if matches!(e.kind(), ArrayErrorKind::Pipeline { .. }) => {
                let by_delta_rule =
                    e.to_string().contains(": delta") || e.to_string().contains("delta filters");
                if exact && !by_delta_rule {
                    disagree.push(format!(
                        "{} {dtype}: refused, read back: {e}",
                        case["filters"]
                    ));
                }
                refused += 1;
            }
            Err(e) => panic!("{case}: {e}"),
        }
    }
    // Every case python could not read back, and the racy delta ones it could.
    assert!(refused >= 46, "{refused}");
    assert!(
        disagree.is_empty(),
        "{} cases:\n{}",
        disagree.len(),
        disagree.join("\n")
    );
}
