//! The msgpack marker bytes this crate reads and writes, named once. A leaf module: it
//! imports nothing, and no other module spells a marker as a bare number.
//!
//! The metalayer format uses positive fixints, fixarrays (`0x90 + n`, up to C's `0xa0`),
//! int32, int64 and str32; a frame header and its trailer add the others below (so
//! without `std`, where there is no `frame`, those are unused). Generic msgpack values
//! ([`crate::value::Value`]) name their markers through `rmp::Marker`.
#![cfg_attr(not(feature = "std"), allow(dead_code))]

/// `0x00..=0x7f`: a positive fixint is its own value; this is the largest.
pub const PFIX_MAX: u8 = 0x7f;
/// `0x90`: a fixarray header is this plus the number of elements.
pub const FIXARRAY: u8 = 0x90;
/// `0xa0`: a fixstr header is this plus the length (up to 31).
pub const FIXSTR: u8 = 0xa0;
/// The largest fixstr header (`0xbf`, 31 bytes).
pub const FIXSTR_MAX: u8 = 0xbf;
/// `0xc2`: false.
pub const FALSE: u8 = 0xc2;
/// `0xc3`: true.
pub const TRUE: u8 = 0xc3;
/// `0xc6`: bin32, followed by a 4-byte big-endian length and the bytes.
pub const BIN32: u8 = 0xc6;
/// `0xcd`: uint16, followed by 2 bytes big-endian.
pub const UINT16: u8 = 0xcd;
/// `0xcf`: uint64, followed by 8 bytes big-endian.
pub const UINT64: u8 = 0xcf;
/// `0xd1`: int16, followed by 2 bytes big-endian.
pub const INT16: u8 = 0xd1;
/// `0xd2`: int32, followed by 4 bytes big-endian.
pub const INT32: u8 = 0xd2;
/// `0xd3`: int64, followed by 8 bytes big-endian.
pub const INT64: u8 = 0xd3;
/// `0xd8`: fixext 16, followed by a type byte and 16 bytes.
pub const FIXEXT16: u8 = 0xd8;
/// `0xd9`: str8, followed by a 1-byte length and the bytes.
pub const STR8: u8 = 0xd9;
/// `0xda`: str16, followed by a 2-byte big-endian length and the bytes.
pub const STR16: u8 = 0xda;
/// `0xdb`: str32, followed by a 4-byte big-endian length and the bytes.
pub const STR32: u8 = 0xdb;
/// `0xdc`: array16, followed by a 2-byte big-endian count.
pub const ARRAY16: u8 = 0xdc;
/// `0xde`: map16, followed by a 2-byte big-endian count.
pub const MAP16: u8 = 0xde;

// The rest of msgpack, for generic values (user metalayers, vlmeta).

/// `0xce`: uint32, followed by 4 bytes big-endian.
pub const UINT32: u8 = 0xce;
/// The msgpack name of a marker byte, for error messages (`0xcf` is `"uint64"`).
///
/// `0xa0` is both an empty fixstr and C-Blosc2's header of a 16-element array.
pub const fn name(marker: u8) -> &'static str {
    match marker {
        0x00..=0x7f => "positive fixint",
        0x80..=0x8f => "fixmap",
        0x90..=0x9f => "fixarray",
        0xa0 => "fixstr of length 0, or C's header of a 16-element array",
        0xa1..=0xbf => "fixstr",
        0xc0 => "nil",
        0xc1 => "reserved marker",
        0xc2 | 0xc3 => "bool",
        0xc4 => "bin8",
        0xc5 => "bin16",
        0xc6 => "bin32",
        0xc7..=0xc9 | 0xd4..=0xd8 => "ext",
        0xca => "float32",
        0xcb => "float64",
        0xcc => "uint8",
        0xcd => "uint16",
        0xce => "uint32",
        0xcf => "uint64",
        0xd0 => "int8",
        0xd1 => "int16",
        0xd2 => "int32",
        0xd3 => "int64",
        0xd9 => "str8",
        0xda => "str16",
        0xdb => "str32",
        0xdc => "array16",
        0xdd => "array32",
        0xde => "map16",
        0xdf => "map32",
        0xe0..=0xff => "negative fixint",
    }
}
