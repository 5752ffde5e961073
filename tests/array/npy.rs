//! The `.npy` output: headers byte for byte as `np.save` writes them for each fixture's
//! full read (recorded by the generator), and the data after them.

use b2nd_meta::array::{npy_header, Selection};

use crate::{common, data, fixtures, manifest, open, u64s};

#[test]
fn headers_are_numpys() {
    for (producer, fixture) in fixtures() {
        let id = fixture["id"].as_str().unwrap();
        let array = open(producer, &fixture).unwrap();
        let want = common::unhex(fixture["npy_header"].as_str().unwrap());
        let got = npy_header(array.dtype(), &u64s(&fixture["shape"])).unwrap();
        assert!(
            got == want,
            "{producer}/{id}:\n{}\n{}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
    }
}

#[test]
fn write_npy_is_the_header_then_the_values() {
    for (producer, fixture) in fixtures() {
        let array = open(producer, &fixture).unwrap();
        let mut npy = Vec::new();
        array.write_npy(&Selection::all(), &mut npy).unwrap();
        let header = common::unhex(fixture["npy_header"].as_str().unwrap());
        let values =
            std::fs::read(data(producer).join(fixture["values"].as_str().unwrap())).unwrap();
        let full = &fixture["slices"][0];
        assert_eq!(full["spec"], "...");
        assert_eq!(npy[..header.len()], header[..]);
        assert!(npy[header.len()..] == values[..full["nbytes"].as_u64().unwrap() as usize]);
    }
}

/// Names outside Latin-1 (format 3.0), a header past 65535 bytes (2.0), titles, gaps,
/// nested fields, subarrays, 0-d and long shapes: numpy's bytes (tests/data/arrays/
/// generate.py, `npy_cases`).
#[test]
fn other_dtypes_and_shapes_get_numpys_headers() {
    let cases = manifest("blosc2-4.14.1")["npy_cases"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(cases.len(), 8);
    for case in cases {
        let text = case["dtype"].as_str().unwrap();
        let dtype = b2nd_meta::dtype::Dtype::parse(text).unwrap();
        let got = npy_header(&dtype, &u64s(&case["shape"])).unwrap();
        let want = common::unhex(case["npy_header"].as_str().unwrap());
        assert!(
            got == want,
            "{}:\n{:?}\n{:?}",
            &text[..text.len().min(60)],
            String::from_utf8_lossy(&got[..got.len().min(200)]),
            String::from_utf8_lossy(&want[..want.len().min(200)])
        );
    }
}
