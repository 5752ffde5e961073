//! The byte layer's writing half: the encoded form of each value of the metalayer
//! format. Nothing here knows about serde. Markers are named in [`crate::wire::marker`];
//! reading is `read.rs`.
//!
//! Widths are fixed by the format, never chosen by the value (see the crate's SPEC):
//!
//! | value                  | bytes                                  |
//! |------------------------|----------------------------------------|
//! | version, ndim, dtype_format | one positive fixint `0x00..=0x7f` |
//! | array of `n <= 16`     | `0x90 + n` (so `0xa0` for 16, as C writes it) |
//! | shape entry            | `0xd3` + 8 bytes big-endian (int64)    |
//! | chunkshape/blockshape entry | `0xd2` + 4 bytes big-endian (int32) |
//! | dtype                  | `0xdb` + 4-byte big-endian length + UTF-8 (str32) |
//! | frame metalayer content | `0xc6` + 4-byte big-endian length + bytes (bin32) |

pub use crate::wire::marker::{BIN32, FIXARRAY, INT32, INT64, PFIX_MAX, STR32};
/// The most elements an array may have: C-Blosc2's `B2ND_MAX_DIM`.
///
/// C writes every array header as `0x90 + n` without a guard, so 16 elements give `0xa0`,
/// which generic msgpack reads as an empty fixstr. We read and write it as C does.
pub const MAX_ARRAY_LEN: usize = 16;

/// Size in bytes of an encoded int64 (marker + 8).
pub const INT64_LEN: usize = 9;
/// Size in bytes of an encoded int32 (marker + 4).
pub const INT32_LEN: usize = 5;
/// Size in bytes of a str32 or bin32 header (marker + 4).
pub const LEN32_HEADER_LEN: usize = 5;

/// The positive fixint holding `value`, or `None` when `value > 127`.
#[inline]
pub fn pfix(value: u8) -> Option<u8> {
    (value <= PFIX_MAX).then_some(value)
}

/// The header of an array of `len` elements, or `None` when `len > 16`.
#[inline]
pub fn array_header(len: usize) -> Option<u8> {
    // `len <= 16` so the sum is at most 0xa0: C's unguarded `0x90 + n`.
    (len <= MAX_ARRAY_LEN).then(|| FIXARRAY + len as u8)
}

/// `0xd3` followed by `value` big-endian.
#[inline]
pub fn int64(value: i64) -> [u8; INT64_LEN] {
    let b = value.to_be_bytes();
    [INT64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]
}

/// `0xd2` followed by `value` big-endian.
#[inline]
pub fn int32(value: i32) -> [u8; INT32_LEN] {
    let b = value.to_be_bytes();
    [INT32, b[0], b[1], b[2], b[3]]
}

/// Writes [`int64`]'s bytes into `out` in place (a marker store and one 8-byte store,
/// where assembling the array in a register costs a dozen shifts; the array form is the
/// one that appends to an output best).
#[inline(always)]
pub fn put_int64(out: &mut [u8; INT64_LEN], value: i64) {
    let (marker, rest) = out.split_at_mut(1);
    marker[0] = INT64;
    rest.copy_from_slice(&value.to_be_bytes());
}

/// Writes [`int32`]'s bytes into `out`.
#[inline(always)]
pub fn put_int32(out: &mut [u8; INT32_LEN], value: i32) {
    let (marker, rest) = out.split_at_mut(1);
    marker[0] = INT32;
    rest.copy_from_slice(&value.to_be_bytes());
}

/// `marker` (str32 or bin32) followed by `len` as a 4-byte big-endian length, or `None`
/// when `len > i32::MAX` (C stores these lengths in an `int32_t`).
#[inline]
pub fn len32_header(marker: u8, len: usize) -> Option<[u8; LEN32_HEADER_LEN]> {
    let len = i32::try_from(len).ok()?;
    let b = len.to_be_bytes();
    Some([marker, b[0], b[1], b[2], b[3]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dtype_longer_than_i32_max_cannot_be_written() {
        // C stores the dtype's length in an int32_t; a 2 GiB string is too costly to build in
        // a test, so the limit is checked where the str32 header is made.
        assert_eq!(
            len32_header(STR32, i32::MAX as usize),
            Some([0xdb, 0x7f, 0xff, 0xff, 0xff])
        );
        assert_eq!(len32_header(STR32, i32::MAX as usize + 1), None);
        assert_eq!(len32_header(STR32, 3), Some([0xdb, 0, 0, 0, 3]));
    }
}
