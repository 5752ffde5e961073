//! Lowercase hex: the one form in which the crate prints bytes (`show`'s `raw_hex`, the
//! JSON mapping's `$bin` and `data_hex`) and reads them back (`set-meta`, `decode`).

#![cfg_attr(not(feature = "cli"), allow(dead_code))]

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Bytes shown as lowercase hex, written a few KiB at a time with no string of the
/// whole (a metalayer's hex can be hundreds of MiB).
#[derive(Clone, Copy, Debug)]
pub struct Lower<'a>(pub &'a [u8]);

impl fmt::Display for Lower<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut buf = [0u8; 2 * 1024];
        for piece in self.0.chunks(1024) {
            for (pair, &b) in buf.chunks_exact_mut(2).zip(piece) {
                pair[0] = DIGITS[usize::from(b >> 4)];
                pair[1] = DIGITS[usize::from(b & 15)];
            }
            let digits = buf.get(..2 * piece.len()).unwrap_or_default();
            // Hex digits are ASCII.
            f.write_str(core::str::from_utf8(digits).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

/// `bytes` as lowercase hex.
pub fn encode(bytes: &[u8]) -> String {
    use fmt::Write;
    let mut s = String::with_capacity(2 * bytes.len());
    // Writing into a String cannot fail.
    let _ = write!(s, "{}", Lower(bytes));
    s
}

/// Text that is not hex: where, and what was found there. Its `Debug` is its message (as
/// `main` prints it).
#[derive(Clone, PartialEq, Eq)]
pub struct HexError {
    offset: usize,
    found: Found,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// A character that is not a hex digit.
    Char(char),
    /// The text ends after an odd number of digits (this many).
    OddDigits(usize),
}

impl HexError {
    /// The byte offset in the text: of the character that is not a hex digit, or of the
    /// end of the text when a byte's second digit is missing.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.found {
            Found::Char(c) => write!(f, "expected a hex digit (0-9, a-f), found {c:?}"),
            Found::OddDigits(n) => {
                write!(f, "expected two hex digits per byte, found {n} digit(s)")
            }
        }?;
        write!(f, " at byte {}", self.offset)
    }
}

impl core::error::Error for HexError {}

crate::located::debug_as_display!(HexError);

/// Hex digits (either case), nothing else, into bytes.
pub fn decode(text: &str) -> Result<Vec<u8>, HexError> {
    decode_with(text, false)
}

/// Hex digits with ASCII whitespace anywhere (as pasted from a dump), into bytes.
pub fn decode_spaced(text: &str) -> Result<Vec<u8>, HexError> {
    decode_with(text, true)
}

fn decode_with(text: &str, spaced: bool) -> Result<Vec<u8>, HexError> {
    let mut bytes = Vec::with_capacity(text.len() / 2);
    let mut high: Option<u8> = None;
    let mut digits = 0usize;
    for (at, c) in text.char_indices() {
        if spaced && c.is_ascii_whitespace() {
            continue;
        }
        let Some(v) = c.to_digit(16) else {
            let found = Found::Char(c);
            return Err(HexError { offset: at, found });
        };
        digits += 1;
        // A hex digit is below 16.
        let v = v as u8;
        match high.take() {
            None => high = Some(v),
            Some(h) => bytes.push(h << 4 | v),
        }
    }
    match high {
        Some(_) => Err(HexError {
            offset: text.len(),
            found: Found::OddDigits(digits),
        }),
        None => Ok(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn lowercase_hex_out_either_case_in_with_the_offset_of_what_is_not() {
        assert_eq!(encode(&[0x97, 0x00, 0xff]), "9700ff");
        assert_eq!(Lower(&[0xde, 0xad]).to_string(), "dead");
        assert_eq!(decode("9700FF").unwrap(), [0x97, 0x00, 0xff]);
        assert_eq!(decode_spaced(" 97 00\nff ").unwrap(), [0x97, 0x00, 0xff]);
        for (text, offset, message) in [
            (
                "97z0",
                2,
                "expected a hex digit (0-9, a-f), found 'z' at byte 2",
            ),
            (
                "970",
                3,
                "expected two hex digits per byte, found 3 digit(s) at byte 3",
            ),
            (
                "97 00",
                2,
                "expected a hex digit (0-9, a-f), found ' ' at byte 2",
            ),
        ] {
            let err = decode(text).unwrap_err();
            assert_eq!(
                (err.offset(), err.to_string().as_str()),
                (offset, message),
                "{text}"
            );
        }
    }
}
