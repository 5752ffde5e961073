//! What python-blosc2 or C-Blosc2 refuse is refused before any file is touched, one
//! line naming the problem; data of the wrong length is refused and leaves nothing.

use b2nd_meta::array::write::NewArray;
use b2nd_meta::blosc::{Codec, Filter};

use crate::cases::{fixed_caches, pipeline};
use crate::TempDir;

fn new(shape: &[u64], dtype: &str) -> NewArray {
    NewArray::new(shape, dtype).unwrap().caches(fixed_caches())
}

/// The message of writing `a` (refused before its data) at a fresh path.
fn refused(a: NewArray, nbytes: usize) -> String {
    let dir = TempDir::new("refusals");
    let path = dir.0.join("a.b2nd");
    let err = a.write(&path, &vec![0; nbytes]).unwrap_err().to_string();
    assert!(
        std::fs::read_dir(&dir.0).unwrap().next().is_none(),
        "{err}: left a file"
    );
    err.trim_start_matches(&format!("{}: ", path.display()))
        .to_string()
}

#[test]
fn parameters_python_or_c_refuse() {
    let f8 = |shape: &[u64]| new(shape, "<f8");
    let cases: Vec<(NewArray, &str)> = vec![
        (f8(&[10, 10]).chunks(&[5]), "chunks should have as many dimensions as the shape (2), found 1"),
        (f8(&[10, 10]).chunks(&[5, 0]), "chunks cannot be 0 on axis 1, where the shape is not"),
        (f8(&[10, 10]).blocks(&[5, 0]), "blocks cannot be 0 on axis 1, where the shape is not"),
        (f8(&[10, 10]).chunks(&[5, 5]).blocks(&[6, 5]), "blocks cannot be greater than chunks (axis 0)"),
        (f8(&[1 << 27]).blocks(&[1 << 27]), "a block of 1073741824 bytes exceeds the largest, 536866816"),
        (f8(&[1 << 29]).chunks(&[1 << 29]).blocks(&[1 << 20]), "a chunk: expected at most 2147483615 bytes (C-Blosc2's largest), padding to whole blocks included, found 4294967296 bytes"),
        (f8(&[10]).codec(Codec::Zstd, 10), "expected a compression level from 0 to 9, found 10"),
        (f8(&[10]).codec(Codec::Plugin(32), 5), "expected blosclz, lz4, lz4hc, zlib or zstd, found ndlz (codec 32), which this crate does not compress with"),
        (f8(&[10]).filters(pipeline(&[(Filter::Other(32), 0)])), "ndcell (filter 32) in filter slot 5 is not applied by this crate"),
        (new(&[10], "<i2").filters(pipeline(&[(Filter::TruncPrec, 10)])), "trunc_prec in filter slot 5: expected 4- or 8-byte floats and a precision that keeps part of the mantissa, found type size 2 and precision 10"),
        (f8(&[10]).meta_bytes(&"n".repeat(32), vec![0xc0]), "metalayer name of 32 bytes, at most 31 allowed"),
        (f8(&[10]).meta_bytes("b2nd", vec![0xc0]), "duplicate metalayer name \"b2nd\""),
        (f8(&[10]).meta_bytes("", vec![0xc0]), "invalid metalayer name: a metalayer name must be 1 to 31 bytes without NUL"),
        ((0..16).fold(f8(&[10]), |a, i| a.meta_bytes(&format!("m{i}"), vec![0xc0])), "17 metalayers declared, at most 16 allowed"),
        (f8(&[10]).vlmeta("v".repeat(32).as_str(), &1).unwrap(), "vlmeta not changed: the name \"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\" has 32 bytes, at most 31 allowed"),
        (f8(&[2; 17]), "the array metadata: 17 dimensions; expected at most 16"),
    ];
    for (a, expected) in cases {
        assert_eq!(refused(a, 0), expected);
    }
}

#[test]
fn dtypes_python_blosc2_cannot_hold() {
    for (dtype, expected) in [
        ("O", "the array's dtype: expected a dtype of fixed-size elements, found 'O' (Python objects)"),
        ("|S0", "the array's dtype: expected a dtype of fixed-size elements, found '|S0' (0 bytes)"),
        ("<i3", "the array's dtype: expected a size of 1, 2, 4 or 8 bytes for kind 'i', found \"3\" at byte 2"),
    ] {
        assert_eq!(NewArray::new(&[3], dtype).unwrap_err().to_string(), expected, "{dtype}");
    }
}

#[test]
fn data_of_another_length_is_refused_and_leaves_nothing() {
    let dir = TempDir::new("length");
    let path = dir.0.join("a.b2nd");
    let a = new(&[10, 10], "<i4");
    let msg = |e: b2nd_meta::array::ArrayError| e.to_string();
    assert_eq!(
        msg(a.write(&path, &[0; 399]).unwrap_err()),
        "expected 400 bytes of the array's elements in C order, found 399"
    );
    assert_eq!(
        msg(a.write(&path, &[0; 401]).unwrap_err()),
        "expected 400 bytes of the array's elements in C order, found 401"
    );
    let mut w = a.create(&path).unwrap();
    w.write(&[1; 300]).unwrap();
    assert_eq!(
        msg(w.write(&[1; 101]).unwrap_err()),
        "expected 400 bytes of the array's elements in C order, found 401"
    );
    assert_eq!(
        msg(a.write_typed(&path, &[0f32; 100]).unwrap_err()),
        "expected a dtype f32 can hold, found <i4"
    );
    drop(w);
    assert!(std::fs::read_dir(&dir.0).unwrap().next().is_none());
}
