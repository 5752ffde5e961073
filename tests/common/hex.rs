//! The one hex helper of the tests: text to bytes and back.

/// Parses hex, spaced as in the golden tables ("97 00 02 ...") or unspaced as the
/// manifests store it. Panics on an odd number of digits or a non-hex character.
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(
        digits.len().is_multiple_of(2),
        "odd number of hex digits in {s:?}"
    );
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}

/// Parses unspaced hex, as the manifests store it (the same parser as [`hex`]).
pub fn unhex(s: &str) -> Vec<u8> {
    hex(s)
}

/// Lowercase unspaced hex of `bytes`, as the manifests and the CLI write it.
pub fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}
