//! Each fixture's shape, chunks, blocks and dtype as python reads them, and every slice
//! of it, raw and (for kinds with a Rust type) typed, against python's values: numpy's
//! indexing of python's full read (C-Blosc2's full-chunk decode).

use b2nd_meta::array::{Array, ArrayErrorKind, Selection};
use serde_json::Value;

use crate::{data, fixtures, open, u64s};

fn expected(producer: &str, fixture: &Value) -> Vec<u8> {
    std::fs::read(data(producer).join(fixture["values"].as_str().unwrap())).unwrap()
}

#[test]
fn every_slice_of_every_fixture_is_pythons() {
    let mut checked = 0;
    for (producer, fixture) in fixtures() {
        let id = fixture["id"].as_str().unwrap();
        let array = open(producer, &fixture).unwrap_or_else(|e| panic!("{producer}/{id}: {e}"));
        assert_eq!(array.shape(), u64s(&fixture["shape"]), "{id}");
        assert_eq!(array.chunkshape(), u64s(&fixture["chunks"]), "{id}");
        assert_eq!(array.blockshape(), u64s(&fixture["blocks"]), "{id}");
        assert_eq!(
            array.itemsize() as u64,
            fixture["itemsize"].as_u64().unwrap(),
            "{id}"
        );
        let values = expected(producer, &fixture);
        for slice in fixture["slices"].as_array().unwrap() {
            let spec = slice["spec"].as_str().unwrap();
            let sel: Selection = spec
                .parse()
                .unwrap_or_else(|e| panic!("{id} [{spec}]: {e}"));
            assert_eq!(
                array.shape_of(&sel).unwrap(),
                u64s(&slice["shape"]),
                "{id} [{spec}]"
            );
            let at = slice["offset"].as_u64().unwrap() as usize;
            let want = &values[at..at + slice["nbytes"].as_u64().unwrap() as usize];
            let got = array
                .read_bytes(&sel)
                .unwrap_or_else(|e| panic!("{producer}/{id} [{spec}]: {e}"));
            assert!(got == want, "{producer}/{id} [{spec}]: values differ");
            checked += 1;
        }
    }
    assert!(checked > 1500, "{checked} slices");
}

#[test]
fn dtype_is_the_stored_one() {
    for (producer, fixture) in fixtures() {
        let id = fixture["id"].as_str().unwrap();
        let array = open(producer, &fixture).unwrap();
        let python = fixture["dtype"].as_str().unwrap();
        // python's dtype.str; for structured dtypes python prints '|V<n>'.
        if !python.starts_with("|V") {
            assert_eq!(array.dtype().to_string(), python, "{producer}/{id}");
        } else {
            assert!(
                array.dtype().to_string().starts_with(['[', '{', '|']),
                "{id}"
            );
        }
    }
}

/// One element of python's bytes as `T`, in the dtype's byte order.
fn typed_case<T, const N: usize>(
    array: &Array,
    sel: &Selection,
    want: &[u8],
    big: bool,
    from: impl Fn([u8; N], bool) -> T,
) where
    T: b2nd_meta::array::Element + PartialEq + core::fmt::Debug,
{
    let expected: Vec<T> = want
        .chunks_exact(N)
        .map(|c| from(c.try_into().unwrap(), big))
        .collect();
    let got: Vec<T> = array.read(sel).unwrap();
    // NaN-safe: compare through the bytes the values came from.
    assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{sel}");
}

#[test]
fn typed_reads_convert_the_byte_order() {
    let mut checked = 0;
    for (producer, fixture) in fixtures() {
        let id = fixture["id"].as_str().unwrap();
        let dtype = fixture["dtype"].as_str().unwrap();
        let array = open(producer, &fixture).unwrap();
        let values = expected(producer, &fixture);
        let big = dtype.starts_with('>');
        for slice in fixture["slices"].as_array().unwrap().iter().take(4) {
            let sel: Selection = slice["spec"].as_str().unwrap().parse().unwrap();
            let at = slice["offset"].as_u64().unwrap() as usize;
            let want = &values[at..at + slice["nbytes"].as_u64().unwrap() as usize];
            match &dtype[1..] {
                "b1" => typed_case(&array, &sel, want, big, |b: [u8; 1], _| b[0] != 0),
                "i1" => typed_case(&array, &sel, want, big, |b: [u8; 1], _| b[0] as i8),
                "u1" => typed_case(&array, &sel, want, big, |b: [u8; 1], _| b[0]),
                "i2" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        i16::from_be_bytes(b)
                    } else {
                        i16::from_le_bytes(b)
                    }
                }),
                "u2" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        u16::from_be_bytes(b)
                    } else {
                        u16::from_le_bytes(b)
                    }
                }),
                "i4" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        i32::from_be_bytes(b)
                    } else {
                        i32::from_le_bytes(b)
                    }
                }),
                "u4" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        u32::from_be_bytes(b)
                    } else {
                        u32::from_le_bytes(b)
                    }
                }),
                "i8" | "M8[ns]" | "M8[D]" | "M8[ms]" | "m8[s]" | "m8[us]" => {
                    typed_case(&array, &sel, want, big, |b, g| {
                        if g {
                            i64::from_be_bytes(b)
                        } else {
                            i64::from_le_bytes(b)
                        }
                    })
                }
                "u8" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        u64::from_be_bytes(b)
                    } else {
                        u64::from_le_bytes(b)
                    }
                }),
                "f4" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        f32::from_be_bytes(b)
                    } else {
                        f32::from_le_bytes(b)
                    }
                }),
                "f8" => typed_case(&array, &sel, want, big, |b, g| {
                    if g {
                        f64::from_be_bytes(b)
                    } else {
                        f64::from_le_bytes(b)
                    }
                }),
                "c8" => typed_case(&array, &sel, want, big, |b: [u8; 8], g| {
                    let f = |h: [u8; 4]| {
                        if g {
                            f32::from_be_bytes(h)
                        } else {
                            f32::from_le_bytes(h)
                        }
                    };
                    [f(b[..4].try_into().unwrap()), f(b[4..].try_into().unwrap())]
                }),
                "c16" => typed_case(&array, &sel, want, big, |b: [u8; 16], g| {
                    let f = |h: [u8; 8]| {
                        if g {
                            f64::from_be_bytes(h)
                        } else {
                            f64::from_le_bytes(h)
                        }
                    };
                    [f(b[..8].try_into().unwrap()), f(b[8..].try_into().unwrap())]
                }),
                _ => continue,
            }
            checked += 1;
        }
        let _ = id;
    }
    assert!(checked > 300, "{checked} typed reads");
}

/// The message of reading fixture `id` as `T`.
fn mismatch<T: b2nd_meta::array::Element>(id: &str) -> String {
    let array = Array::open(data("blosc2-4.14.1").join(format!("{id}.b2nd"))).unwrap();
    let err = array.read::<T>(&Selection::all()).unwrap_err();
    assert!(matches!(err.kind(), ArrayErrorKind::TypeMismatch { .. }));
    let prefix = format!("{}: ", array.label().display());
    err.to_string().strip_prefix(&prefix).unwrap().to_string()
}

#[test]
fn a_type_the_dtype_is_not_is_refused_with_both_names() {
    let cases = [
        (
            mismatch::<u32>("dtype_le_i4"),
            "expected a dtype u32 can hold, found <i4",
        ),
        (
            mismatch::<i64>("dtype_le_f8"),
            "expected a dtype i64 can hold, found <f8",
        ),
        (
            mismatch::<u8>("dtype_S5"),
            "expected a dtype u8 can hold, found |S5",
        ),
        (
            mismatch::<f64>("dtype_struct_simple"),
            "expected a dtype f64 can hold, found [('a', '<i4'), ('b', '<f8')]",
        ),
        (
            mismatch::<f32>("dtype_le_f2"),
            "expected a dtype f32 can hold, found <f2",
        ),
        (
            mismatch::<bool>("dtype_u1"),
            "expected a dtype bool can hold, found |u1",
        ),
        (
            mismatch::<[f32; 2]>("dtype_le_c16"),
            "expected a dtype [f32; 2] can hold, found <c16",
        ),
        (
            mismatch::<i32>("dtype_le_M8_ns"),
            "expected a dtype i32 can hold, found <M8[ns]",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
}

#[test]
fn thread_counts_give_the_same_values() {
    let path = data("blosc2-4.14.1").join("edge_many_chunks.b2nd");
    let one = Array::open(&path).unwrap().with_threads(1);
    let want = one.read_bytes(&Selection::all()).unwrap();
    for threads in [2, 3, 8, 64] {
        let many = Array::open(&path).unwrap().with_threads(threads);
        for spec in ["...", "::-1, 3:40:3", "7", "..., 13", "None, 5:55, ::7"] {
            let sel: Selection = spec.parse().unwrap();
            assert_eq!(
                many.read_bytes(&sel).unwrap(),
                one.read_bytes(&sel).unwrap(),
                "{threads} {spec}"
            );
        }
        assert_eq!(many.read_bytes(&Selection::all()).unwrap(), want);
    }
}

#[test]
fn rows_concatenate_to_the_read() {
    for (producer, fixture) in fixtures() {
        let array = open(producer, &fixture).unwrap();
        for slice in fixture["slices"].as_array().unwrap() {
            let sel: Selection = slice["spec"].as_str().unwrap().parse().unwrap();
            let whole = array.read_bytes(&sel).unwrap();
            // Pieces of any size: one (16 MiB), one block's share, a few bytes.
            for cap in [16 << 20, 1, 64] {
                let mut rows = Vec::new();
                array
                    .read_rows_sized(&sel, cap, |b| {
                        rows.extend_from_slice(b);
                        Ok::<_, b2nd_meta::array::ArrayError>(())
                    })
                    .unwrap();
                assert_eq!(rows, whole, "{sel} in pieces of {cap} bytes");
            }
        }
    }
}
