//! python-blosc2 (4.14.1, 3.0.0, 2.7.1) reading, and working on, the arrays we wrote:
//! tests/data/array_write/python.json and python-4.14.1/, from its committed
//! generate.py. The files python read are tests/data/array_write/written/, which the
//! writer must still write byte for byte; what python read must be what we wrote, and
//! what it read after its own writes (an element, two more rows after a resize, an
//! append, a vlmeta entry) what those writes make of it, computed here. python-blosc2
//! 4.14.1 must read and work on every array; what the older ones refuse is listed.

use std::path::{Path, PathBuf};

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::blosc::Filter;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cases::{self, Case};
use crate::TempDir;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/array_write")
}

fn sha(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn itemsize(case: &Case) -> usize {
    b2nd_meta::dtype::Dtype::parse(case.dtype)
        .unwrap()
        .itemsize() as usize
}

/// Writes `case` at `path` as the fixtures were written (2 threads in the header).
fn write(case: &Case, path: &Path) -> Vec<u8> {
    let data = cases::data(case, itemsize(case));
    case.params(2).write(path, &data).unwrap();
    data
}

#[test]
#[ignore = "run by tests/data/array_write/generate.py, with B2ND_WRITE_FIXTURES"]
fn write_fixture_files() {
    let out = PathBuf::from(std::env::var("B2ND_WRITE_FIXTURES").expect("B2ND_WRITE_FIXTURES"));
    for case in cases::fixtures() {
        write(&case, &out.join(format!("{}.b2nd", case.name)));
    }
}

/// A file's bytes, or a directory's files (name, bytes), sorted.
fn contents(path: &Path) -> Vec<(String, Vec<u8>)> {
    if path.is_file() {
        return vec![(String::new(), std::fs::read(path).unwrap())];
    }
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(path)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn the_files_python_read_are_what_the_writer_writes() {
    let dir = TempDir::new("fixtures");
    for case in cases::fixtures() {
        // zlib at level 5 (every zlib fixture) is our own deflate's in both builds.
        let name = format!("{}.b2nd", case.name);
        write(&case, &dir.0.join(&name));
        let committed = data_dir().join("written").join(&name);
        assert!(
            contents(&dir.0.join(&name)) == contents(&committed),
            "{name}: the writer now writes other bytes: rerun tests/data/array_write/generate.py"
        );
    }
}

fn fixtures() -> Value {
    let text = std::fs::read_to_string(data_dir().join("python.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// What our reader reads of `case` as written (the values written, but for truncated
/// precision).
fn values(case: &Case) -> Vec<u8> {
    let path = data_dir()
        .join("written")
        .join(format!("{}.b2nd", case.name));
    Array::open(&path)
        .unwrap()
        .read_bytes(&Selection::all())
        .unwrap()
}

/// Bugs of older python-blosc2 that its own files of the same parameters show too
/// (checked by hand): their values are not compared.
const KNOWN: [(&str, &str, &str); 5] = [
    (
        "2.7.1",
        "dtype_S300",
        "C-Blosc2 2.x misreads 3.x's chunks of items over 255 bytes",
    ),
    (
        "3.0.0",
        "dtype_S300",
        "C-Blosc2 2.x misreads 3.x's chunks of items over 255 bytes",
    ),
    (
        "2.7.1",
        "dtype_be_i4",
        "2.7.1 byte-swaps the elements it sets in big-endian arrays",
    ),
    (
        "2.7.1",
        "dtype_be_u2",
        "2.7.1 byte-swaps the elements it sets in big-endian arrays",
    ),
    (
        "2.7.1",
        "dtype_be_f8",
        "2.7.1 byte-swaps the elements it sets in big-endian arrays",
    ),
];

fn known(version: &str, name: &str) -> bool {
    KNOWN.iter().any(|(v, n, _)| *v == version && *n == name)
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

#[test]
fn python_blosc2_reads_the_arrays_we_wrote() {
    let fixtures = fixtures();
    let versions = fixtures["versions"].as_object().unwrap();
    assert_eq!(versions.len(), 3);
    for (version, v) in versions {
        for case in cases::fixtures() {
            let name = &case.name;
            let got = &v["cases"][name];
            let Some(read) = got.get("read") else {
                assert_ne!(
                    version, "4.14.1",
                    "{name}: python-blosc2 4.14.1 failed: {}",
                    got["error"]
                );
                continue;
            };
            let array =
                Array::open(data_dir().join("written").join(format!("{name}.b2nd"))).unwrap();
            let dims = |s: &[u64]| s.iter().map(|&d| d as i64).collect::<Vec<_>>();
            assert_eq!(ints(&read["shape"]), dims(&case.shape), "{version} {name}");
            assert_eq!(
                ints(&read["chunks"]),
                dims(array.chunkshape()),
                "{version} {name}"
            );
            assert_eq!(
                ints(&read["blocks"]),
                dims(array.blockshape()),
                "{version} {name}"
            );
            if let Some(c) = &case.chunks {
                assert_eq!(ints(&read["chunks"]), dims(c), "{version} {name}");
            }
            let dtype = b2nd_meta::dtype::Dtype::parse(case.dtype).unwrap();
            assert_eq!(read["dtype"], dtype.to_string(), "{version} {name}");
            assert_eq!(read["typesize"], dtype.itemsize(), "{version} {name}");
            assert_eq!(read["codec"], case.codec.id().unwrap(), "{version} {name}");
            assert_eq!(read["clevel"], case.clevel, "{version} {name}");
            let filters: Vec<i64> = case
                .filters
                .iter()
                .map(|(f, _)| i64::from(f.id()))
                .collect();
            // python-blosc2 writes bytedelta's meta 0 as the type size (blosc2_ext.pyx).
            let metas: Vec<i64> = case
                .filters
                .iter()
                .map(|(f, m)| match (f, m) {
                    (Filter::ByteDelta, 0) => dtype.itemsize() as i64,
                    (_, m) => i64::from(*m),
                })
                .collect();
            assert_eq!(ints(&read["filters"]), filters, "{version} {name}");
            assert_eq!(ints(&read["filters_meta"]), metas, "{version} {name}");
            assert_eq!(read["splitmode"], case.splitmode.id(), "{version} {name}");
            for (meta, json) in &case.meta {
                assert_eq!(
                    &read["meta"][meta], json,
                    "{version} {name}: metalayer {meta}"
                );
            }
            for (meta, json) in &case.vlmeta {
                assert_eq!(
                    &read["vlmeta"][meta], json,
                    "{version} {name}: vlmeta {meta}"
                );
            }
            let ours = values(&case);
            if !case.lossy() {
                assert!(
                    ours == cases::data(&case, itemsize(&case)),
                    "{name}: our reader"
                );
            }
            if !known(version, name) {
                assert_eq!(
                    read["values_sha256"],
                    sha(&ours),
                    "{version} {name}: python's values"
                );
            }
        }
    }
}

/// The array's bytes after python's `steps`, from the values written.
fn after(case: &Case, steps: &[String], mut bytes: Vec<u8>) -> (Vec<u64>, Vec<u8>) {
    let size = itemsize(case);
    let n = bytes.len() / size;
    let mut shape = case.shape.clone();
    let original = bytes.clone();
    let mid = original
        .get(n / 2 * size..)
        .unwrap_or_default()
        .get(..size)
        .unwrap_or_default()
        .to_vec();
    for step in steps {
        match step.as_str() {
            "set_last" => bytes[(n - 1) * size..].copy_from_slice(&mid),
            // New positions read as zeros until written.
            "resize2" => {
                let row: u64 = shape[1..].iter().product();
                shape[0] += 2;
                bytes.resize(bytes.len() + 2 * row as usize * size, 0);
            }
            "fill_new" => {
                let row: u64 = shape[1..].iter().product();
                let at = bytes.len() - 2 * row as usize * size;
                for element in bytes[at..].chunks_exact_mut(size) {
                    element.copy_from_slice(&mid);
                }
            }
            "append5" => {
                shape[0] += 5;
                bytes.extend_from_slice(&original[..5 * size]);
            }
            "vlmeta" => {}
            other => panic!("unknown step {other}"),
        }
    }
    (shape, bytes)
}

#[test]
fn python_blosc2_works_on_the_arrays_we_wrote() {
    let fixtures = fixtures();
    for (version, v) in fixtures["versions"].as_object().unwrap() {
        for case in cases::fixtures() {
            let name = &case.name;
            let got = &v["cases"][name];
            let Some(done) = got.get("after") else {
                assert_ne!(version, "4.14.1", "{name}: {}", got["after_error"]);
                continue;
            };
            let steps: Vec<String> = done["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            let errors = done["errors"].as_object().unwrap();
            if version == "4.14.1" {
                // Every step python-blosc2 4.14.1 can take on an array of this shape.
                let n = case.nitems();
                let mut expected = vec!["vlmeta"];
                if n > 0 {
                    expected.insert(0, "set_last");
                    if !case.shape.is_empty() {
                        expected.splice(1..1, ["resize2", "fill_new"]);
                    }
                    if case.shape.len() == 1 {
                        expected.insert(3, "append5");
                    }
                }
                assert_eq!(steps, expected, "{name}: {errors:?}");
            }
            let (shape, bytes) = after(&case, &steps, values(&case));
            let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
            assert_eq!(ints(&done["shape"]), dims, "{version} {name}");
            if !known(version, name) {
                assert_eq!(
                    done["values_sha256"],
                    sha(&bytes),
                    "{version} {name}: after {steps:?}"
                );
            }
            if steps.iter().any(|s| s == "vlmeta") {
                assert_eq!(done["vlmeta_added"], "python", "{version} {name}");
            }
            if version == "4.14.1" {
                // Our reader reads python's work on our file.
                let path = data_dir()
                    .join("python-4.14.1")
                    .join(format!("{name}.b2nd"));
                let array = Array::open(&path).unwrap();
                assert_eq!(array.shape(), shape, "{name}");
                assert!(
                    array.read_bytes(&Selection::all()).unwrap() == bytes,
                    "{name}: our reader after python"
                );
                let vlmeta: String = b2nd_meta::frame::open(&path)
                    .unwrap()
                    .vlmeta("added")
                    .unwrap();
                assert_eq!(vlmeta, "python");
            }
        }
    }
}

#[test]
fn what_older_python_blosc2_cannot_read_is_listed() {
    let fixtures = fixtures();
    let mut refused = Vec::new();
    for (version, v) in fixtures["versions"].as_object().unwrap() {
        for (name, case) in v["cases"].as_object().unwrap() {
            if let Some(e) = case.get("error") {
                refused.push(format!("{version} {name}: {}", e.as_str().unwrap()));
            }
        }
    }
    assert!(
        refused.is_empty(),
        "{} refused, first: {:?}",
        refused.len(),
        refused.first()
    );
}
