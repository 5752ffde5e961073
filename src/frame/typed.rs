//! Any serde type from msgpack through rmp-serde (user metalayers, vlmeta values), its
//! errors made the crate's [`Error`] at the offending byte.
//!
//! rmp-serde tells only how far it read ([`rmp_serde::Deserializer::position`]): past
//! the marker of a value of the wrong type, past the whole of a string a visitor refused,
//! past the last element of a map missing a field. Which byte is at fault is found by
//! walking the msgpack structure up to that point, by what the error says:
//!
//! - the input ends: the end of the input;
//! - a string that is not UTF-8: the first byte that cannot continue it;
//! - an array or map with elements left over (`LengthMismatch`): the innermost one still
//!   open where reading stopped;
//! - a map or array found short (serde's "missing field", "invalid length"): the
//!   innermost one ending where reading stopped;
//! - anything else (a wrong type or value, a reserved marker, too deep): the value
//!   holding the last byte read, that is, the start of the value refused.

use rmp::Marker;
use serde::de::DeserializeOwned;
use std::string::ToString;
use std::vec::Vec;

use crate::meta::error::{Error, ErrorKind};

/// How deep rmp-serde may nest: a user's type recurses on the call stack (rmp-serde and
/// serde's derives both do, several KiB a level in a debug build), so this stays well
/// below rmp-serde's own 1024. Deeper values read as a [`crate::value::Value`], which
/// takes python's 1024 levels without recursion.
pub(crate) const MAX_DEPTH: usize = 128;

/// `bytes`, all of them, as one msgpack value of type `T`.
pub(crate) fn from_msgpack<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let mut de = rmp_serde::Deserializer::new(std::io::Cursor::new(bytes));
    de.set_max_depth(MAX_DEPTH);
    let read =
        |de: &rmp_serde::Deserializer<_>| usize::try_from(de.position()).unwrap_or(usize::MAX);
    let value = match T::deserialize(&mut de) {
        Ok(value) => value,
        Err(e) => {
            let at = offending_byte(bytes, read(&de), &e);
            return Err(Error::at(at, ErrorKind::Message(e.to_string())));
        }
    };
    let end = read(&de);
    match bytes.len().checked_sub(end) {
        Some(0) | None => Ok(value),
        Some(count) => Err(Error::at(end, ErrorKind::TrailingBytes { count })),
    }
}

/// The offset of the byte at fault for rmp-serde's error `e`, raised after reading
/// `read` bytes of `bytes`.
fn offending_byte(bytes: &[u8], read: usize, e: &rmp_serde::decode::Error) -> usize {
    use rmp_serde::decode::Error as E;
    let read = read.min(bytes.len());
    match e {
        E::InvalidMarkerRead(io) | E::InvalidDataRead(io)
            if io.kind() == std::io::ErrorKind::UnexpectedEof =>
        {
            bytes.len()
        }
        E::Utf8Error(utf8) => match walk(bytes, read, Want::Holding) {
            Some(span) => span.data + utf8_break(bytes.get(span.data..read).unwrap_or(&[]), utf8),
            None => read,
        },
        E::LengthMismatch(_) => walk(bytes, read, Want::Open).map_or(read, |s| s.start),
        E::Syntax(message)
            if message.starts_with("missing field") || message.starts_with("invalid length") =>
        {
            walk(bytes, read, Want::EndingAt).map_or(read, |s| s.start)
        }
        _ => walk(bytes, read, Want::Holding).map_or(read, |s| s.start),
    }
}

/// The first byte of the string `s` that no continuation makes UTF-8, given its error:
/// a byte that cannot follow the ones before it, or the string's end when it stops
/// inside a character.
fn utf8_break(s: &[u8], e: &core::str::Utf8Error) -> usize {
    let v = e.valid_up_to();
    (1..=4)
        .find(|&k| {
            s.get(v..v + k)
                .is_some_and(|c| core::str::from_utf8(c).is_err_and(|e| e.error_len().is_some()))
        })
        .map_or(s.len(), |k| v + k - 1)
}

/// Which value [`walk`] looks for, relative to the reading position `read`.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    /// The innermost value holding byte `read - 1`.
    Holding,
    /// The innermost array or map started before `read` and ending after it.
    Open,
    /// The innermost array or map ending exactly at `read`.
    EndingAt,
}

/// Where a value starts, and where its data (after marker and length) starts.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    data: usize,
}

/// An open array or map: where it starts and how many values it still holds.
struct Open {
    span: Span,
    left: u64,
}

/// Walks the msgpack values of `bytes` in order up to `read`, for the value `want` names.
fn walk(bytes: &[u8], read: usize, want: Want) -> Option<Span> {
    let last = read.checked_sub(1);
    let mut stack: Vec<Open> = Vec::new();
    let mut at = 0;
    loop {
        // Close the containers whose values are all read; the innermost closes first.
        while stack.last().is_some_and(|o| o.left == 0) {
            let open = stack.pop()?;
            if want == Want::EndingAt && at == read {
                return Some(open.span);
            }
        }
        if at >= read {
            return match want {
                Want::Open => stack.last().map(|o| o.span),
                _ => None,
            };
        }
        if let Some(top) = stack.last_mut() {
            top.left -= 1;
        }
        let (head, data_len, values) = header(bytes, at)?;
        let span = Span {
            start: at,
            data: at + head,
        };
        let end = span.data.checked_add(data_len)?;
        let container = matches!(
            Marker::from_u8(bytes[at]),
            Marker::FixMap(_)
                | Marker::FixArray(_)
                | Marker::Array16
                | Marker::Array32
                | Marker::Map16
                | Marker::Map32
        );
        if container && values == 0 && want == Want::EndingAt && end == read {
            return Some(span);
        }
        if values > 0 && end <= read {
            if want == Want::Holding && last.is_some_and(|l| l < span.data) {
                return Some(span);
            }
            stack.push(Open { span, left: values });
        } else if want == Want::Holding && last.is_some_and(|l| l < end.max(span.data)) {
            return Some(span);
        }
        at = end;
    }
}

/// At `at`: the header's length, the length of the data after it, and how many values
/// follow it (an array's elements, a map's keys and values); `None` past the input.
fn header(bytes: &[u8], at: usize) -> Option<(usize, usize, u64)> {
    let marker = *bytes.get(at)?;
    let be = |n: usize| -> Option<u64> {
        let field = bytes.get(at + 1..at + 1 + n)?;
        Some(field.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    };
    let len = |n: usize| be(n).and_then(|l| usize::try_from(l).ok());
    Some(match Marker::from_u8(marker) {
        Marker::FixPos(_)
        | Marker::FixNeg(_)
        | Marker::Null
        | Marker::Reserved
        | Marker::False
        | Marker::True => (1, 0, 0),
        Marker::FixMap(n) => (1, 0, 2 * u64::from(n)),
        Marker::FixArray(n) => (1, 0, u64::from(n)),
        Marker::FixStr(n) => (1, usize::from(n), 0),
        Marker::Bin8 | Marker::Str8 => (2, len(1)?, 0),
        Marker::Bin16 | Marker::Str16 => (3, len(2)?, 0),
        Marker::Bin32 | Marker::Str32 => (5, len(4)?, 0),
        // An ext's length, then its type byte.
        Marker::Ext8 => (3, len(1)?, 0),
        Marker::Ext16 => (4, len(2)?, 0),
        Marker::Ext32 => (6, len(4)?, 0),
        Marker::U8 | Marker::I8 => (1, 1, 0),
        Marker::U16 | Marker::I16 => (1, 2, 0),
        Marker::F32 | Marker::U32 | Marker::I32 => (1, 4, 0),
        Marker::F64 | Marker::U64 | Marker::I64 => (1, 8, 0),
        Marker::FixExt1 => (2, 1, 0),
        Marker::FixExt2 => (2, 2, 0),
        Marker::FixExt4 => (2, 4, 0),
        Marker::FixExt8 => (2, 8, 0),
        Marker::FixExt16 => (2, 16, 0),
        Marker::Array16 => (3, 0, be(2)?),
        Marker::Array32 => (5, 0, be(4)?),
        Marker::Map16 => (3, 0, 2 * be(2)?),
        Marker::Map32 => (5, 0, 2 * be(4)?),
    })
}
