//! This crate against NumPy: every case of tests/data/dtype/numpy.json.

use std::sync::OnceLock;

use b2nd_meta::dtype::{DatetimeUnit, Kind};
use serde::Deserialize;

use crate::{at, parse, parse_err};

/// tests/data/dtype/numpy.json, written by tests/data/dtype/generate.py.
#[derive(Deserialize)]
pub struct Expectations {
    numpy: String,
    pub table: Vec<Case>,
    numpy_rejects: Vec<Rejected>,
    deliberately_rejected: Vec<Deliberate>,
    accepted_past_numpy_limits: Vec<Rejected>,
}

/// NumPy's reading of one input.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    input: String,
    /// What python-blosc2 stores for NumPy's reading of `input`.
    pub canonical: String,
    /// Whether NumPy reads `canonical` back to the same dtype and string.
    stable: bool,
    itemsize: u64,
    /// `Kind::name()`: NumPy's kind, 'V' split into struct, subarray and void.
    kind: String,
    /// NumPy's `dtype.byteorder`, with '=' resolved to '<'.
    order: char,
    #[serde(default)]
    aligned: bool,
    /// `np.datetime_data(dtype)` for datetime and timedelta dtypes.
    datetime: Option<(String, u32)>,
    /// Bytes for 'S', characters for 'U'.
    string_len: Option<u64>,
    /// Canonical string of the element dtype, and the shape.
    subarray: Option<(String, Vec<u64>)>,
    #[serde(default)]
    fields: Vec<F>,
}

/// Expected field, from NumPy's `dtype.fields`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct F {
    name: String,
    title: Option<String>,
    offset: u64,
    /// Itemsize of the field's full dtype (subarray included).
    itemsize: u64,
    /// Subarray shape, `[]` for scalar fields.
    shape: Vec<u64>,
    /// Canonical string of the field's full dtype.
    dtype: String,
}

/// A string python-blosc2 cannot read, and NumPy's error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rejected {
    input: String,
    #[allow(dead_code)]
    numpy_error: String,
}

/// A string NumPy reads but this crate refuses, and what NumPy stores for it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deliberate {
    input: String,
    #[allow(dead_code)]
    numpy_reads: String,
}

pub fn expectations() -> &'static Expectations {
    static DATA: OnceLock<Expectations> = OnceLock::new();
    DATA.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dtype/numpy.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

fn kind_named(name: &str) -> Kind {
    match name {
        "bool" => Kind::Bool,
        "int" => Kind::Int,
        "uint" => Kind::UInt,
        "float" => Kind::Float,
        "complex" => Kind::Complex,
        "bytes" => Kind::Bytes,
        "unicode" => Kind::Unicode,
        "void" => Kind::Void,
        "datetime" => Kind::Datetime,
        "timedelta" => Kind::Timedelta,
        "object" => Kind::Object,
        "struct" => Kind::Struct,
        "subarray" => Kind::Subarray,
        _ => panic!("unknown kind {name:?} in numpy.json"),
    }
}

fn unit_name(unit: DatetimeUnit) -> &'static str {
    unit.as_str()
}

#[test]
fn the_expectations_are_numpy_2_4_6s() {
    let data = expectations();
    assert_eq!(data.numpy, "2.4.6");
    assert_eq!(data.table.len(), 247);
    assert_eq!(data.numpy_rejects.len(), 136);
    assert_eq!(data.deliberately_rejected.len(), 37);
    assert_eq!(data.accepted_past_numpy_limits.len(), 4);
}

#[test]
fn numpy_table_parses_to_numpy_values() {
    for row in &expectations().table {
        let dt = parse(&row.input);
        let ctx = &row.input;
        assert_eq!(dt.to_string(), row.canonical, "display of {ctx:?}");
        assert_eq!(dt.itemsize(), row.itemsize, "itemsize of {ctx:?}");
        assert_eq!(dt.kind(), kind_named(&row.kind), "kind of {ctx:?}");
        assert_eq!(
            dt.byte_order().as_char(),
            row.order,
            "byte order of {ctx:?}"
        );
        assert_eq!(dt.is_aligned_struct(), row.aligned, "aligned of {ctx:?}");
        assert_eq!(
            dt.datetime_unit().map(|(u, m)| (unit_name(u), m)),
            row.datetime.as_ref().map(|(u, m)| (u.as_str(), *m)),
            "datetime unit of {ctx:?}"
        );
        assert_eq!(dt.string_len(), row.string_len, "string length of {ctx:?}");
        assert_eq!(
            dt.subarray()
                .map(|(base, shape)| (base.to_string(), shape.to_vec())),
            row.subarray.clone(),
            "subarray of {ctx:?}"
        );
        if kind_named(&row.kind) == Kind::Struct {
            let fields = dt.fields().expect("struct has fields");
            assert_eq!(fields.len(), row.fields.len(), "field count of {ctx:?}");
            for (got, want) in fields.iter().zip(&row.fields) {
                assert_eq!(got.name(), want.name, "field name in {ctx:?}");
                assert_eq!(
                    got.title(),
                    want.title.as_deref(),
                    "title of {:?} in {ctx:?}",
                    want.name
                );
                assert_eq!(
                    got.offset(),
                    want.offset,
                    "offset of {:?} in {ctx:?}",
                    want.name
                );
                assert_eq!(
                    got.dtype().itemsize(),
                    want.itemsize,
                    "size of {:?} in {ctx:?}",
                    want.name
                );
                assert_eq!(
                    got.shape(),
                    want.shape,
                    "shape of {:?} in {ctx:?}",
                    want.name
                );
                assert_eq!(
                    got.dtype().to_string(),
                    want.dtype,
                    "dtype of {:?} in {ctx:?}",
                    want.name
                );
            }
        } else {
            assert!(dt.fields().is_none(), "{ctx:?} has no fields");
            assert!(row.fields.is_empty());
        }
    }
}

#[test]
fn numpy_canonical_strings_round_trip() {
    for row in &expectations().table {
        let again = parse(&row.canonical);
        assert_eq!(
            again.to_string(),
            row.canonical,
            "round trip of {:?}",
            row.canonical
        );
        if row.stable {
            // NumPy's equality ignores the aligned flag, which `str(dtype)`
            // drops below the top level; compare what NumPy compares.
            let first = parse(&row.input);
            assert_eq!(again.itemsize(), first.itemsize(), "{:?}", row.input);
            assert_eq!(
                again.fields().map(<[_]>::len),
                first.fields().map(<[_]>::len),
                "{:?}",
                row.input
            );
            if !row.input.contains("'aligned'") {
                assert_eq!(
                    again, first,
                    "{:?} and its canonical form differ",
                    row.input
                );
            }
        }
    }
}

#[test]
fn numpy_rejects_are_rejected() {
    let data = expectations();
    let deliberate = data.deliberately_rejected.iter().map(|c| &c.input);
    for input in data
        .numpy_rejects
        .iter()
        .map(|c| &c.input)
        .chain(deliberate)
    {
        let err = parse_err(input);
        assert!(
            at(&err) <= input.len(),
            "{input:?}: offset {} past the end",
            at(&err)
        );
        assert!(
            input.is_char_boundary(at(&err)),
            "{input:?}: offset inside a character"
        );
    }
}

#[test]
fn sizes_past_numpy_limits_are_accepted() {
    for case in &expectations().accepted_past_numpy_limits {
        let input = &case.input;
        assert!(parse(input).itemsize() > i32::MAX as u64, "{input:?}");
    }
}
