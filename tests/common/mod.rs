//! Helpers shared by the integration tests.
#![allow(dead_code)]

/// Parses spaced hex ("97 00 02 ...") as written in the golden tables.
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len() % 2 == 0, "odd number of hex digits in {s:?}");
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}

/// `item` repeated `n` times, space-separated: for the 16-axis vectors.
pub fn rep(item: &str, n: usize) -> String {
    vec![item; n].join(" ")
}

/// The bytes of a str32 holding `s`: `db`, 4-byte big-endian length, the bytes.
pub fn str32(s: &str) -> String {
    let mut out = format!("db {:08x}", s.len());
    for b in s.bytes() {
        out.push_str(&format!(" {b:02x}"));
    }
    out
}
