//! `show --human`.

use crate::run;

#[test]
fn human_view_is_compact_and_readable() {
    let out = run([
        "show",
        "--human",
        "tests/data/corpus/ndim2_i4.b2nd",
        "tests/data/corpus/ndim1_f8.b2nd",
        "tests/data/corpus/ndim0_i8.b2nd",
        "tests/data/corpus/user_meta.b2nd",
        "tests/data/corpus/sparse_2d.b2nd",
    ]);
    out.assert_ok();
    let text = &out.stdout;
    assert!(
        text.contains(
            "tests/data/corpus/ndim2_i4.b2nd: contiguous frame, 856 bytes, zstd level 5, typesize 4, \
             filters shuffle, split auto, 6 chunks, cratio 0.67x\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "  b2nd (b2nd-v1): shape (10, 7), chunks (4, 4), blocks (2, 2), dtype <i4 (int, 4 bytes)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("shape (10,), chunks (4,), blocks (2,)"),
        "{text}"
    );
    assert!(text.contains("shape (), chunks (), blocks ()"), "{text}");
    // User metalayers print their msgpack value (issue 14), as compact JSON.
    assert!(
        text.contains("  mine: {\"answer\":42,\"tag\":\"x\"} (15 bytes)\n"),
        "{text}"
    );
    assert!(text.contains("  other: [1,2,3] (4 bytes)\n"), "{text}");
    assert!(text.contains("sparse_2d.b2nd: sparse frame"), "{text}");
    assert!(
        !text.contains("\"layout\""),
        "no report JSON in the human view: {text}"
    );
}

/// A shape is a python tuple everywhere: a frame's metalayer and a store's node alike;
/// one of anything is singular.
#[test]
fn shapes_print_one_way_and_counts_agree_with_their_nouns() {
    let out = run([
        "show",
        "--human",
        "tests/data/arrays/blosc2-4.14.1/store_dict.b2z",
        "tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd",
    ]);
    out.assert_ok();
    let text = &out.stdout;
    assert!(
        text.starts_with(
            "tests/data/arrays/blosc2-4.14.1/store_dict.b2z: DictStore, 3 entries \
             (its embed store: 1056 bytes in 1 chunk, zstd)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  /dir/ext  NDArray  shape (30, 20)  dtype <i4  chunks (16, 8)\n"),
        "{text}"
    );
    assert!(!text.contains("shape ["), "{text}");
    assert!(
        !text.contains(" 1 chunks") && !text.contains(" 1 bytes"),
        "{text}"
    );
    assert!(text.contains("  b2nd (b2nd-v1): shape ("), "{text}");
}

/// `show -H --slice ...` prints what numpy's `print(arr)` prints (recorded by
/// tests/data/numpy_print/make.py): ints and bools right-aligned, floats in one
/// notation for the array, shortest digits, integer parts and fractions aligned.
#[test]
fn values_print_as_numpy_prints_them() {
    let cases: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(crate::common::data_path("numpy_print/cases.json")).unwrap(),
    )
    .unwrap();
    for case in cases["cases"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        let npy = crate::temp_path(&format!("print-{name}.npy"));
        let b2nd = crate::temp_path(&format!("print-{name}.b2nd"));
        std::fs::write(
            &npy,
            crate::common::unhex(case["npy_hex"].as_str().unwrap()),
        )
        .unwrap();
        let (npy_s, b2nd_s) = (npy.to_str().unwrap(), b2nd.to_str().unwrap());
        run(["import", npy_s, b2nd_s, "--force"]).assert_ok();
        let out = run(["show", "-H", "--slice", "...", b2nd_s]);
        out.assert_ok();
        let (_, values) = out.stdout.split_once('\n').unwrap();
        assert_eq!(
            values,
            format!("{}\n", case["print"].as_str().unwrap()),
            "{name}"
        );
        std::fs::remove_file(&npy).unwrap();
        std::fs::remove_file(&b2nd).unwrap();
    }
}
