//! `.npy` files written by hand, numpy's version 1.0 layout (magic, header length, the
//! header dict padded with spaces to a multiple of 64 bytes), for tests that need inputs.

use std::path::Path;

/// The `.npy` header of `shape` elements of `descr` (C order).
pub fn header(descr: &str, shape: &[usize]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| format!("{d},")).collect();
    let mut dict = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({}), }}",
        dims.join(" ")
    );
    while !(10 + dict.len() + 1).is_multiple_of(64) {
        dict.push(' ');
    }
    dict.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((dict.len() as u16).to_le_bytes());
    bytes.extend(dict.as_bytes());
    bytes
}

/// Writes a `.npy` of `shape` little-endian int32, the `i`-th being `value(i)`.
pub fn write_i4(path: &Path, shape: &[usize], value: impl Fn(i32) -> i32) {
    let n = shape.iter().product::<usize>() as i32;
    let mut bytes = header("<i4", shape);
    for i in 0..n {
        bytes.extend(value(i).to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}
