//! Changing an array in place (issue 45, `Array::open_rw`) against numpy and
//! python-blosc2 4.14.1: tests/data/edit/, from its committed generate.py. Every
//! scenario there (a base python wrote, then writes, resizes and appends) is applied
//! here by the library to a copy of the base, and must read back as numpy computed it
//! (expected/<name>.npy, byte for byte), with the base's user metalayers and vlmeta.
//! generate.py applied the same ops with the command line and had python-blosc2 read
//! the result, go on editing it and read it again: every verdict must be true.

use std::path::{Path, PathBuf};

use b2nd_meta::array::{Array, ArrayRw, NpyHeader, Selection};
use serde_json::Value;

use crate::TempDir;

/// What python-blosc2 gives applying a shrink-then-grow scenario to the base itself.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Own {
    /// Not a shrink-then-grow scenario: not asked.
    NotAsked,
    /// numpy's zeros: the shrink ended on a chunk edge (C dropped the whole chunks).
    Zeros,
    /// The old values again: C-Blosc2 keeps a shrunk chunk's tail, we zero it.
    Stale,
}
use Own::*;

/// Every scenario of tests/data/edit/manifest.json, in its order.
#[rustfmt::skip]
const SCENARIOS: &[(&str, Own)] = &[
    // writes: arr[SPEC] = values, broadcast as numpy broadcasts
    ("i4_write_exact", NotAsked),               // a[3:11] = 8 values, across chunks
    ("i4_write_scalar_all", NotAsked),          // a[...] = -7
    ("i4_write_step", NotAsked),                // a[1:29:4] = 7 values
    ("i4_write_negative_step", NotAsked),       // a[27:2:-5] = 5 values
    ("i4_write_int", NotAsked),                 // a[5] = 555
    ("i4_write_negative_int", NotAsked),        // a[-1] = -1
    ("i4_write_one_value_list", NotAsked),      // a[10:20] = [4]
    ("i4s_write_exact", NotAsked),              // sparse: a[6:18] = 12 values
    ("i4s_write_negative_step", NotAsked),      // sparse: a[::-3] = 10 values
    ("f8_write_block", NotAsked),               // a[2:20, 3:17] = (18, 14) values
    ("f8_write_row_broadcast", NotAsked),       // a[::7] = a row of 20
    ("f8_write_column", NotAsked),              // a[:, 5] = 30 values
    ("f8_write_column_broadcast", NotAsked),    // a[10:14, :] = (4, 1) values
    ("f8_write_negative_steps", NotAsked),      // a[25:5:-4, ::-3] = (5, 7) values
    ("f8_write_nan_last_column", NotAsked),     // a[..., -1] = nan
    ("f8_write_ints", NotAsked),                // a[-2, 3] = 1e300
    ("u1_write_mixed", NotAsked),               // a[1:6, ::2, 1] = (5, 3) values
    ("u1_write_row_broadcast", NotAsked),       // a[..., 0] = a row of 6
    ("u1_write_ellipsis_middle", NotAsked),     // a[-1, ..., 2] = 200
    ("be_write_step", NotAsked),                // >i2: a[1:9:3, 2:] = (3, 5) values
    ("struct_write_exact", NotAsked),           // a[4:9] = 5 records
    ("struct_write_scalar", NotAsked),          // a[::5] = one record
    ("bool_write", NotAsked),                   // a[::2] = True, then a[3:9] = 6 x False
    ("c16_write_step", NotAsked),               // a[1:8:2] = 4 complex
    ("m8_write", NotAsked),                     // a[2:7] = 5 datetimes
    // resizes: the overlapping region kept, every added cell zero
    ("i4_grow", NotAsked),                      // 29 -> 45, past the grid of 4 chunks of 8
    ("i4_shrink", NotAsked),                    // 29 -> 13
    ("i4_shrink_inside_chunk_grow", Stale),     // 29 -> 13 -> 29: C shows 13..16 again
    ("i4_shrink_on_chunk_edge_grow", Zeros),    // 29 -> 16 -> 29
    ("i4_shrink_to_one_grow", Stale),           // 29 -> 1 -> 10
    ("i4_to_empty_grow", Zeros),                // 29 -> 0 -> 20: a frame without data between
    ("i4s_to_empty_grow", Zeros),               // sparse: 29 -> 0 -> 12
    ("f8_to_empty_append", NotAsked),           // (30, 20) -> (0, 20), then 3 rows appended
    ("i4s_grow", NotAsked),                     // sparse: 29 -> 40
    ("i4s_shrink_grow", Stale),                 // sparse: 29 -> 11 -> 35
    ("f8_grow_axis0", NotAsked),                // (30, 20) -> (40, 20)
    ("f8_grow_axis1", NotAsked),                // (30, 20) -> (30, 27)
    ("f8_grow_both", NotAsked),                 // (30, 20) -> (49, 33)
    ("f8_shrink", NotAsked),                    // (30, 20) -> (17, 9)
    ("f8_shrink_one_grow_other", NotAsked),     // (30, 20) -> (12, 25)
    ("f8_shrink_grow", Stale),                  // (30, 20) -> (17, 9) -> (30, 20)
    ("u1_grow_each_axis", NotAsked),            // (7, 6, 5) -> (10, 6, 5) -> (10, 9, 5) -> (10, 9, 7)
    ("u1_shrink_grow", Stale),                  // (7, 6, 5) -> (2, 5, 3) -> (7, 6, 5)
    ("be_resize", NotAsked),                    // >i2: (10, 7) -> (13, 3)
    ("struct_grow", NotAsked),                  // 20 -> 25: zero records
    ("bool_shrink_grow", Stale),                // 17 -> 7 -> 17
    ("c16_grow", NotAsked),                     // 9 -> 14
    ("m8_shrink_grow", Stale),                  // 11 -> 9 -> 15: the epoch, not NaT
    // appends: np.concatenate along an axis
    ("i4_append", NotAsked),                    // 5 values
    ("i4s_append", NotAsked),                   // sparse: 12 values
    ("f8_append_axis0", NotAsked),              // (3, 20) rows
    ("f8_append_axis1", NotAsked),              // (30, 4) columns
    ("u1_append_axis0", NotAsked),              // (1, 6, 5)
    ("u1_append_axis2", NotAsked),              // (7, 6, 2)
    ("be_append_axis1", NotAsked),              // >i2: (10, 2)
    ("struct_append", NotAsked),                // 2 records
    ("bool_append", NotAsked),                  // 3 values
    ("c16_append", NotAsked),                   // 2 complex
    ("m8_append", NotAsked),                    // 3 datetimes
    // every codec and value-changing filter, special chunks, 0-d, 8-d, an empty axis
    ("i8d_write", NotAsked),                    // blosclz + delta: a[5:30:2] = 13 values
    ("i8d_grow_append", NotAsked),              // blosclz + delta: 45; append 3
    ("i4bd_write_shrink_grow", Stale),          // lz4hc + bytedelta, sparse: box = 9; (3, 5); (7, 10)
    ("f4tp_write_append", NotAsked),            // zlib + trunc_prec: a[::7] = 0.75; append 2
    ("zeros_write_box", NotAsked),              // special zero chunks: a[3:6, 9:12] = 2.5
    ("zeros_grow", NotAsked),                   // special zero chunks: (25, 17)
    ("i4_0d_write", NotAsked),                  // 0-d: a[...] = 42
    ("u2_8d_write", NotAsked),                  // 8-d: a[1, ..., 0] = 7
    ("u2_8d_grow", NotAsked),                   // 8-d: the last axis 4 -> 6
    ("i4_empty_grow_write", NotAsked),          // (0, 6) -> (5, 6); a[1:3] = 7
    ("i4_empty_append", NotAsked),              // (0, 6): append 2 rows
    // combinations, one commit each, in sequence
    ("i4_write_grow_append_write", NotAsked),   // a[::3] = 3; 37; append 2; a[-8:] = 8 values
    ("i4_shrink_write_grow", Stale),            // 13; a[10:] = 1; 30
    ("i4s_append_write_negative", NotAsked),    // sparse: append 5; a[::-2] = 0
    ("f8_grow_write_append_shrink", NotAsked),  // (35, 24); a[28:, 18:] = 6.5; append (35, 2) on axis 1; (33, 25)
    ("u1_append_resize_write", NotAsked),       // append (7, 2, 5) on axis 1; (5, 8, 6); a[:, -1, :] = 1
    ("f8r_write_two_chunks", NotAsked),          // f8_rows: a[10:30] = 20 rows (2 chunks whole)
    ("f8r_write_chunk_row_broadcast", NotAsked), // a[20:30] = one row
    ("f8r_write_chunk_zeros", NotAsked),         // a[0:10] = 0 (a zero chunk)
    ("f8r_write_chunk_reversed", NotAsked),      // a[29:9:-1] = 20 rows
    ("f8r_append_chunk_and_part", NotAsked),     // append 15 rows (a chunk and a half)
    ("f8r_grow_then_write_new", NotAsked),       // 60 rows; a[45:55, 2:] = 3
    ("f8r_write_columns_of_chunks", NotAsked),   // a[10:20, ::2] = (10, 6)
    ("be_write_shrink_append", NotAsked),       // >i2: a[...] = -1; (6, 7); append a row
];

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/edit")
}

fn manifest() -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    manifest["scenarios"].as_array().unwrap().clone()
}

/// A .npy file's header and its data in C order.
fn npy(rel: &str) -> (NpyHeader, Vec<u8>) {
    let bytes = std::fs::read(data_dir().join(rel)).unwrap();
    let header = NpyHeader::read(&mut &bytes[..]).unwrap();
    let data = bytes[header.data_offset as usize..].to_vec();
    assert_eq!(data.len() as u128, header.nbytes(), "{rel}");
    let data = header.c_order(data);
    (header, data)
}

/// Copies a frame file, or a sparse frame's directory.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// The user metalayers (name, content) and the vlmeta (name, msgpack) of a frame.
type UserMeta = (Vec<(String, Vec<u8>)>, Vec<(String, Vec<u8>)>);

fn user_meta(path: &Path) -> UserMeta {
    let frame = b2nd_meta::frame::open(path).unwrap();
    let metalayers = frame
        .header
        .metalayers
        .iter()
        .filter(|m| m.name != "b2nd")
        .map(|m| (m.name.clone(), m.content.clone()))
        .collect();
    let vlmeta = frame
        .vlmeta_names()
        .unwrap()
        .into_iter()
        .map(|name| {
            let bytes = frame.vlmeta_bytes(&name).unwrap();
            (name, bytes)
        })
        .collect();
    (metalayers, vlmeta)
}

/// How the values of a write or an append are given to the library.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Given {
    /// In memory (`write_bytes`, `append_bytes`).
    Bytes,
    /// Read from the `.npy` file at its data's offset (`write_from_at`,
    /// `append_from_at`); Fortran-order inputs in memory.
    File,
}

/// The `.npy` of an op as a file to read values from, when `given` says so and its
/// data is in C order.
fn npy_file(rel: &str, given: Given) -> Option<(NpyHeader, std::fs::File)> {
    let path = data_dir().join(rel);
    let header = NpyHeader::read(&mut std::io::BufReader::new(
        std::fs::File::open(&path).unwrap(),
    ))
    .unwrap();
    let c_order = !header.fortran_order || header.shape.len() < 2;
    (given == Given::File && c_order).then(|| (header, std::fs::File::open(&path).unwrap()))
}

/// Applies one op of the manifest with the library.
fn apply(
    array: &mut ArrayRw,
    op: &Value,
    given: Given,
) -> Result<(), b2nd_meta::array::ArrayError> {
    let input = || npy(op["input"].as_str().unwrap());
    let file = || npy_file(op["input"].as_str().unwrap(), given);
    match op["op"].as_str().unwrap() {
        "write" => {
            let sel = Selection::parse(op["slice"].as_str().unwrap())?;
            if let Some((header, file)) = file() {
                return array.write_from_at(&sel, &file, header.data_offset, &header.shape);
            }
            let (header, data) = input();
            assert_eq!(header.dtype, *array.array().dtype());
            array.write_bytes(&sel, &data, &header.shape)
        }
        "resize" => {
            let shape: Vec<u64> = op["shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_u64().unwrap())
                .collect();
            array.resize(&shape)
        }
        "append" => {
            let axis = op["axis"].as_u64().unwrap() as usize;
            if let Some((header, file)) = file() {
                let len = header.nbytes() as u64;
                return array.append_from_at(axis, &file, header.data_offset, len);
            }
            let (header, data) = input();
            assert_eq!(header.dtype, *array.array().dtype());
            array.append_bytes(axis, &data)
        }
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn the_table_lists_every_scenario_of_the_manifest() {
    let names: Vec<String> = manifest()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    let table: Vec<&str> = SCENARIOS.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, table);
}

#[test]
fn every_scenario_applied_by_the_library_reads_as_numpy_computed() {
    let tmp = TempDir::new("edit-scenarios");
    let mut failed = Vec::new();
    let scenarios = manifest();
    let each = [Given::Bytes, Given::File]
        .into_iter()
        .flat_map(|g| scenarios.iter().zip(SCENARIOS).map(move |s| (g, s)));
    for (given, (scenario, (name, _))) in each {
        let base = data_dir().join(scenario["base"].as_str().unwrap());
        let path = tmp.0.join(format!("{name}-{given:?}.b2nd"));
        copy(&base, &path);
        let mut array = Array::open_rw(path.as_path()).unwrap();
        let name = format!("{name} (values as {given:?})");
        for op in scenario["ops"].as_array().unwrap() {
            if let Err(e) = apply(&mut array, op, given) {
                failed.push(format!("{name}: {op}: {e}"));
            }
        }
        let (header, want) = npy(scenario["expected"].as_str().unwrap());
        // What the last commit left, then the file opened again.
        for array in [array.array(), &Array::open(path.as_path()).unwrap()] {
            assert_eq!(array.shape(), &header.shape[..], "{name}");
            assert_eq!(*array.dtype(), header.dtype, "{name}");
            if array.read_bytes(&Selection::all()).unwrap() != want {
                failed.push(format!("{name}: the values differ from numpy's"));
            }
        }
        if user_meta(&path) != user_meta(&base) {
            failed.push(format!("{name}: user metalayers or vlmeta changed"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn python_blosc2_read_every_scenario_the_command_line_applied_and_went_on() {
    for (scenario, &(name, own)) in manifest().iter().zip(SCENARIOS) {
        for verdict in ["reads_expected", "meta_kept", "python_continues"] {
            assert_eq!(scenario[verdict], true, "{name}: {verdict}");
        }
        assert_eq!(scenario.get("python_error"), None, "{name}");
        let python_own = match own {
            NotAsked => Value::Null,
            Zeros => Value::Bool(true),
            Stale => Value::Bool(false),
        };
        assert_eq!(
            scenario
                .get("python_own_result_equals_expected")
                .cloned()
                .unwrap_or(Value::Null),
            python_own,
            "{name}: python-blosc2's own result"
        );
    }
}
