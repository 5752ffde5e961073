//! The msgpack marker bytes this crate reads and writes, named once, through rmp's
//! [`Marker`], the one table of msgpack markers: `value` classifies every marker with it,
//! and the metalayer format, the frame header and the trailer name theirs here, each
//! constant `Marker::X.to_u8()`, so that no module spells a marker as a bare number.
//!
//! The metalayer format uses positive fixints, fixarrays (`0x90 + n`, up to C's `0xa0`),
//! int32, int64 and str32; a frame header and its trailer add the others below (so
//! without `std`, where there is no `frame`, those are unused).
#![cfg_attr(not(feature = "std"), allow(dead_code))]

use rmp::Marker;

/// `0x00..=0x7f`: a positive fixint is its own value; this is the largest.
pub const PFIX_MAX: u8 = Marker::FixPos(0x7f).to_u8();
/// `0x90`: a fixarray header is this plus the number of elements.
pub const FIXARRAY: u8 = Marker::FixArray(0).to_u8();
/// `0xa0`: a fixstr header is this plus the length (up to 31).
pub const FIXSTR: u8 = Marker::FixStr(0).to_u8();
/// The largest fixstr header (`0xbf`, 31 bytes).
pub const FIXSTR_MAX: u8 = Marker::FixStr(31).to_u8();
/// `0xc2`: false.
pub const FALSE: u8 = Marker::False.to_u8();
/// `0xc3`: true.
pub const TRUE: u8 = Marker::True.to_u8();
/// `0xc6`: bin32, followed by a 4-byte big-endian length and the bytes.
pub const BIN32: u8 = Marker::Bin32.to_u8();
/// `0xcd`: uint16, followed by 2 bytes big-endian.
pub const UINT16: u8 = Marker::U16.to_u8();
/// `0xce`: uint32, followed by 4 bytes big-endian.
pub const UINT32: u8 = Marker::U32.to_u8();
/// `0xcf`: uint64, followed by 8 bytes big-endian.
pub const UINT64: u8 = Marker::U64.to_u8();
/// `0xd1`: int16, followed by 2 bytes big-endian.
pub const INT16: u8 = Marker::I16.to_u8();
/// `0xd2`: int32, followed by 4 bytes big-endian.
pub const INT32: u8 = Marker::I32.to_u8();
/// `0xd3`: int64, followed by 8 bytes big-endian.
pub const INT64: u8 = Marker::I64.to_u8();
/// `0xd8`: fixext 16, followed by a type byte and 16 bytes.
pub const FIXEXT16: u8 = Marker::FixExt16.to_u8();
/// `0xd9`: str8, followed by a 1-byte length and the bytes.
pub const STR8: u8 = Marker::Str8.to_u8();
/// `0xda`: str16, followed by a 2-byte big-endian length and the bytes.
pub const STR16: u8 = Marker::Str16.to_u8();
/// `0xdb`: str32, followed by a 4-byte big-endian length and the bytes.
pub const STR32: u8 = Marker::Str32.to_u8();
/// `0xdc`: array16, followed by a 2-byte big-endian count.
pub const ARRAY16: u8 = Marker::Array16.to_u8();
/// `0xde`: map16, followed by a 2-byte big-endian count.
pub const MAP16: u8 = Marker::Map16.to_u8();

/// The msgpack name of a marker byte, for error messages (`0xcf` is `"uint64"`).
///
/// `0xa0` is both an empty fixstr and C-Blosc2's header of a 16-element array.
pub const fn name(marker: u8) -> &'static str {
    match Marker::from_u8(marker) {
        Marker::FixPos(_) => "positive fixint",
        Marker::FixMap(_) => "fixmap",
        Marker::FixArray(_) => "fixarray",
        Marker::FixStr(0) => "fixstr of length 0, or C's header of a 16-element array",
        Marker::FixStr(_) => "fixstr",
        Marker::Null => "nil",
        Marker::Reserved => "reserved marker",
        Marker::False | Marker::True => "bool",
        Marker::Bin8 => "bin8",
        Marker::Bin16 => "bin16",
        Marker::Bin32 => "bin32",
        Marker::Ext8
        | Marker::Ext16
        | Marker::Ext32
        | Marker::FixExt1
        | Marker::FixExt2
        | Marker::FixExt4
        | Marker::FixExt8
        | Marker::FixExt16 => "ext",
        Marker::F32 => "float32",
        Marker::F64 => "float64",
        Marker::U8 => "uint8",
        Marker::U16 => "uint16",
        Marker::U32 => "uint32",
        Marker::U64 => "uint64",
        Marker::I8 => "int8",
        Marker::I16 => "int16",
        Marker::I32 => "int32",
        Marker::I64 => "int64",
        Marker::Str8 => "str8",
        Marker::Str16 => "str16",
        Marker::Str32 => "str32",
        Marker::Array16 => "array16",
        Marker::Array32 => "array32",
        Marker::Map16 => "map16",
        Marker::Map32 => "map32",
        Marker::FixNeg(_) => "negative fixint",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_the_msgpack_specs_bytes() {
        // The msgpack spec's table ("Overview"), one marker per line.
        for (byte, constant) in [
            (0x7f, PFIX_MAX),
            (0x90, FIXARRAY),
            (0xa0, FIXSTR),
            (0xbf, FIXSTR_MAX),
            (0xc2, FALSE),
            (0xc3, TRUE),
            (0xc6, BIN32),
            (0xcd, UINT16),
            (0xce, UINT32),
            (0xcf, UINT64),
            (0xd1, INT16),
            (0xd2, INT32),
            (0xd3, INT64),
            (0xd8, FIXEXT16),
            (0xd9, STR8),
            (0xda, STR16),
            (0xdb, STR32),
            (0xdc, ARRAY16),
            (0xde, MAP16),
        ] {
            assert_eq!(constant, byte);
        }
        for (byte, expected) in [
            (0x00, "positive fixint"),
            (0x8f, "fixmap"),
            (0x9f, "fixarray"),
            (0xa1, "fixstr"),
            (0xc0, "nil"),
            (0xc1, "reserved marker"),
            (0xc3, "bool"),
            (0xc4, "bin8"),
            (0xc7, "ext"),
            (0xd4, "ext"),
            (0xca, "float32"),
            (0xcc, "uint8"),
            (0xd0, "int8"),
            (0xdd, "array32"),
            (0xdf, "map32"),
            (0xe0, "negative fixint"),
            (0xff, "negative fixint"),
        ] {
            assert_eq!(name(byte), expected, "{byte:#04x}");
        }
    }
}
