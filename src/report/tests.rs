//! The report's own checks of what it computes, beyond its doc examples.

use core::cell::Cell;

use crate::meta::dtype_format::tests::PARSES;

#[test]
fn a_report_parses_the_dtype_once_per_file() {
    // What `b2nd-meta show` prints: the dtype, the validation with the frame's
    // typesize and the header checks all use the one parsed dtype.
    for (file, dtype) in [
        ("ndim2_i4.b2nd", "<i4"),
        ("dtype_struct_nested.b2nd", "[('a', '<i4')"),
    ] {
        let path = std::format!("{}/tests/data/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
        PARSES.with(|n| n.set(0));
        let report = crate::report::Report::of_path(&path).unwrap();
        assert_eq!(PARSES.with(Cell::get), 1, "{file}");
        let array = report.array.unwrap();
        assert!(
            array.dtype.str.starts_with(dtype),
            "{file}: {:?}",
            array.dtype
        );
        assert!(array.problems.is_empty(), "{file}: {:?}", array.problems);
    }
}
