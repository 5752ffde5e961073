//! Strict, total decoding of one msgpack value over the crate's one reader.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::model::{Value, EXT_COMPLEX, EXT_NDARRAY, EXT_SET, MAX_DEPTH};
use super::nd::{invalid, kind_name};
use crate::meta::error::{Error, ErrorKind, Result};
use crate::wire::read::Reader;
use crate::wire::Expected;
use rmp::Marker;

/// The most elements an array or map reserves before they are read.
const RESERVE_MAX: usize = 16;

const ANY: Expected = Expected::Described("a msgpack value");
/// The same, read as "... byte(s) short of the msgpack value".
const VALUE: Expected = Expected::Described("msgpack value");
const TUPLE_TAG: &str = "__tuple__";

impl Value {
    /// Decodes one msgpack value that fills all of `bytes`.
    ///
    /// ```
    /// use b2nd_meta::{value::Value, ErrorKind};
    ///
    /// assert_eq!(Value::from_msgpack(&[0x92, 0x01, 0xc0])?, Value::Array(vec![Value::Int(1), Value::Nil]));
    /// // A map claiming 2^32 - 1 pairs in 5 bytes: an error, nothing allocated for it.
    /// let err = Value::from_msgpack(&[0xdf, 0xff, 0xff, 0xff, 0xff]).unwrap_err();
    /// assert!(err.is_eof());
    /// assert_eq!(err.offset(), Some(5));
    /// // Trailing bytes.
    /// let err = Value::from_msgpack(&[0xc0, 0xc0]).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::TrailingBytes { count: 1 }));
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn from_msgpack(bytes: &[u8]) -> Result<Value> {
        let (value, rest) = Value::take_from_msgpack(bytes)?;
        if rest.is_empty() {
            Ok(value)
        } else {
            Err(trailing(bytes.len() - rest.len(), rest.len()))
        }
    }

    /// Decodes one msgpack value at the start of `bytes`; returns it with the bytes
    /// after it (C-Blosc2 keeps stale bytes after a metalayer shortened in place).
    ///
    /// ```
    /// use b2nd_meta::value::Value;
    ///
    /// let (v, rest) = Value::take_from_msgpack(&[0x2a, 0xff])?;
    /// assert_eq!((v, rest), (Value::Int(42), &[0xff][..]));
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn take_from_msgpack(bytes: &[u8]) -> Result<(Value, &[u8])> {
        let mut r = Reader::new(bytes);
        let (value, _) = Decoder { input: bytes }.value(&mut r, usize::MAX)?;
        Ok((value, r.remaining()))
    }

    /// [`Value::from_msgpack`] of a value made of at most `max_values` values (itself,
    /// its elements, keys and theirs: each held as a `Value` of
    /// [`VALUE_SIZE`](super::model::VALUE_SIZE) bytes), and how many it holds. A value of one
    /// byte per element would otherwise hold 32 bytes for each byte read.
    #[cfg(feature = "std")]
    pub(crate) fn from_msgpack_within(bytes: &[u8], max_values: usize) -> Result<(Value, usize)> {
        let mut r = Reader::new(bytes);
        let (value, count) = Decoder { input: bytes }.value(&mut r, max_values)?;
        match r.remaining().len() {
            0 => Ok((value, count)),
            rest => Err(trailing(bytes.len() - rest, rest)),
        }
    }
}

fn trailing(at: usize, count: usize) -> Error {
    Error::at(at, ErrorKind::TrailingBytes { count })
}

struct Decoder<'a> {
    input: &'a [u8],
}

/// What a value's first bytes say: a whole value, or the start of one that holds others.
enum Head {
    Value(Value),
    Array(usize),
    Map(usize),
    /// A set's or NumPy array's payload (ext 45, 46): one msgpack value filling
    /// `at..end`.
    Payload {
        code: i8,
        at: usize,
        end: usize,
    },
}

impl Head {
    /// What a head that opens a nesting level is, as a depth error names it.
    fn nesting(&self) -> Option<&'static str> {
        match self {
            Head::Value(_) => None,
            Head::Array(_) => Some("an array"),
            Head::Map(_) => Some("a map"),
            Head::Payload { code: EXT_SET, .. } => Some("a set"),
            Head::Payload { .. } => Some("a NumPy array"),
        }
    }
}

/// A value being read, whose elements are being read; the decoder keeps these on a
/// heap stack, so nesting costs no call stack.
enum Open<'a> {
    Array {
        items: Vec<Value>,
        left: usize,
    },
    Map {
        pairs: Vec<(Value, Value)>,
        key: Option<Value>,
        left: usize,
    },
    /// The payload's reader replaced `outer`, which resumes after it.
    Payload {
        code: i8,
        at: usize,
        outer: Reader<'a>,
    },
}

impl<'a> Decoder<'a> {
    /// One value, read without recursion: containers and ext payloads are kept on
    /// `stack` (at most [`MAX_DEPTH`] of them), so the call stack stays flat however
    /// deep the value nests.
    fn value(&self, r: &mut Reader<'a>, max_values: usize) -> Result<(Value, usize)> {
        let mut stack: Vec<Open<'a>> = Vec::new();
        let mut count = 0usize;
        loop {
            let start = r.position();
            let head = self.head(r)?;
            count += 1;
            if count > max_values {
                let kind = ErrorKind::TooManyValues { max: max_values };
                return Err(Error::at(start, kind));
            }
            if let Some(found) = head.nesting().filter(|_| stack.len() >= MAX_DEPTH) {
                let kind = ErrorKind::TooDeep {
                    max: MAX_DEPTH,
                    found,
                };
                return Err(Error::at(start, kind));
            }
            // Every element takes at least one byte; reserve no more than a few up
            // front, so claimed lengths allocate nothing (real elements grow it).
            let reserve = |n: usize, r: &Reader<'_>| n.min(r.remaining().len()).min(RESERVE_MAX);
            let mut value = match head {
                Head::Value(v) => v,
                Head::Array(0) => array(Vec::new()),
                Head::Map(0) => Value::Map(Vec::new()),
                Head::Array(n) => {
                    let items = Vec::with_capacity(reserve(n, r));
                    stack.push(Open::Array { items, left: n });
                    continue;
                }
                Head::Map(n) => {
                    let pairs = Vec::with_capacity(reserve(n, r));
                    stack.push(Open::Map {
                        pairs,
                        key: None,
                        left: n,
                    });
                    continue;
                }
                Head::Payload { code, at, end } => {
                    let inner = Reader::new_at(self.input.get(..end).unwrap_or_default(), at);
                    let outer = core::mem::replace(r, inner);
                    stack.push(Open::Payload { code, at, outer });
                    continue;
                }
            };
            // The value completes the values open around it, innermost first.
            loop {
                match stack.last_mut() {
                    None => return Ok((value, count)),
                    Some(Open::Array { items, left }) => {
                        items.push(value);
                        *left -= 1;
                        if *left > 0 {
                            break;
                        }
                        value = array(core::mem::take(items));
                    }
                    Some(Open::Map { pairs, key, left }) => {
                        let Some(k) = key.take() else {
                            *key = Some(value);
                            break;
                        };
                        pairs.push((k, value));
                        *left -= 1;
                        if *left > 0 {
                            break;
                        }
                        value = Value::Map(core::mem::take(pairs));
                    }
                    Some(Open::Payload { code, at, outer }) => {
                        match r.remaining().len() {
                            0 => {}
                            count => return Err(trailing(r.position(), count)),
                        }
                        *r = outer.clone();
                        value = payload(*code, value, *at)?;
                    }
                }
                stack.pop();
            }
        }
    }

    /// Reads a value's marker (classified by rmp's [`Marker`]) and, for one that holds
    /// no others, the whole value. Lengths and data go through the crate's reader, which
    /// names the offset and how many bytes are missing.
    fn head(&self, r: &mut Reader<'a>) -> Result<Head> {
        let start = r.position();
        let m = r.byte(VALUE)?;
        let int = |v: i64| Ok(Head::Value(Value::Int(v)));
        let e = Expected::Described;
        Ok(Head::Value(match Marker::from_u8(m) {
            Marker::FixPos(v) => return int(i64::from(v)),
            Marker::FixNeg(v) => return int(i64::from(v)),
            Marker::FixMap(n) => return Ok(Head::Map(usize::from(n))),
            Marker::FixArray(n) => return Ok(Head::Array(usize::from(n))),
            Marker::FixStr(n) => str(r, usize::from(n), start)?,
            Marker::Null => Value::Nil,
            Marker::False => Value::Bool(false),
            Marker::True => Value::Bool(true),
            Marker::Bin8 => bin(r, 0)?,
            Marker::Bin16 => bin(r, 1)?,
            Marker::Bin32 => bin(r, 2)?,
            Marker::Str8 => str_of(r, 0, start)?,
            Marker::Str16 => str_of(r, 1, start)?,
            Marker::Str32 => str_of(r, 2, start)?,
            Marker::Array16 => return Ok(Head::Array(len(r, 1)?)),
            Marker::Array32 => return Ok(Head::Array(len(r, 2)?)),
            Marker::Map16 => return Ok(Head::Map(len(r, 1)?)),
            Marker::Map32 => return Ok(Head::Map(len(r, 2)?)),
            Marker::F32 => Value::F32(f32::from_bits(r.be_u32(e("float32"))?)),
            Marker::F64 => Value::F64(f64::from_bits(r.be_u64(e("float64"))?)),
            Marker::U8 => return int(i64::from(r.byte(e("uint8"))?)),
            Marker::U16 => return int(i64::from(r.be_u16(e("uint16"))?)),
            Marker::U32 => return int(i64::from(r.be_u32(e("uint32"))?)),
            Marker::U64 => {
                let v = r.be_u64(e("uint64"))?;
                i64::try_from(v).map_or(Value::UInt(v), Value::Int)
            }
            Marker::I8 => return int(i64::from(r.byte(e("int8"))? as i8)),
            Marker::I16 => return int(i64::from(r.be_i16(e("int16"))?)),
            Marker::I32 => return int(i64::from(r.be_i32(e("int32"))?)),
            Marker::I64 => return int(r.be_i64(e("int64"))?),
            Marker::FixExt1 => return ext(r, 1, start),
            Marker::FixExt2 => return ext(r, 2, start),
            Marker::FixExt4 => return ext(r, 4, start),
            Marker::FixExt8 => return ext(r, 8, start),
            Marker::FixExt16 => return ext(r, 16, start),
            Marker::Ext8 => return len(r, 0).and_then(|n| ext(r, n, start)),
            Marker::Ext16 => return len(r, 1).and_then(|n| ext(r, n, start)),
            Marker::Ext32 => return len(r, 2).and_then(|n| ext(r, n, start)),
            Marker::Reserved => return Err(Error::at(start, ErrorKind::invalid_marker(ANY, m))),
        }))
    }
}

/// An array's items as python-blosc2's list hook gives them: a list starting with the
/// string "__tuple__" is a tuple.
fn array(mut items: Vec<Value>) -> Value {
    if matches!(items.first(), Some(Value::Str(s)) if s == TUPLE_TAG) {
        items.remove(0);
        return Value::Tuple(items);
    }
    Value::Array(items)
}

/// The type byte and `n` payload bytes of an ext whose marker is at `start`.
fn ext(r: &mut Reader<'_>, n: usize, start: usize) -> Result<Head> {
    let code = r.byte(Expected::Described("ext type"))? as i8;
    let at = r.position();
    let data = r.bytes(n, Expected::Described("ext payload"))?;
    Ok(Head::Value(match code {
        EXT_COMPLEX => match <[u8; 16]>::try_from(data) {
            Ok(b) => {
                let (re, im) = b.split_at(8);
                Value::Complex {
                    re: f64_be(re),
                    im: f64_be(im),
                }
            }
            Err(_) => {
                return Err(invalid(
                    start,
                    "a complex (ext 44) of 16 bytes (two float64)",
                    format!("{n} byte(s)"),
                ));
            }
        },
        EXT_SET | EXT_NDARRAY => {
            let end = r.position();
            return Ok(Head::Payload { code, at, end });
        }
        _ => Value::Ext {
            code,
            data: data.to_vec(),
        },
    }))
}

/// The set or NumPy array (ext `code`, payload at `at`) whose payload decoded to `value`.
fn payload(code: i8, value: Value, at: usize) -> Result<Value> {
    if code == EXT_SET {
        match value {
            // `set(unpackb(data))`: a list, or a tuple by the list hook.
            Value::Array(items) | Value::Tuple(items) => Ok(Value::Set(items)),
            other => Err(invalid(
                at,
                "a set (ext 45) holding a msgpack array",
                kind_name(&other),
            )),
        }
    } else {
        super::nd::ndarray(value, at).map(|a| Value::NdArray(Box::new(a)))
    }
}

fn f64_be(b: &[u8]) -> f64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(b.get(..8).unwrap_or(&[0; 8]));
    f64::from_be_bytes(a)
}

/// The length after a bin/str/ext/array/map marker of the 8-, 16- or 32-bit kind
/// (`width` 0, 1 or 2).
fn len(r: &mut Reader<'_>, width: u8) -> Result<usize> {
    let e = Expected::Described("length");
    let n = match width {
        0 => u32::from(r.byte(e)?),
        1 => u32::from(r.be_u16(e)?),
        _ => r.be_u32(e)?,
    };
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// A bin8/16/32 (`width` 0, 1, 2): its length, then its bytes.
fn bin(r: &mut Reader<'_>, width: u8) -> Result<Value> {
    let n = len(r, width)?;
    Ok(Value::Bin(
        r.bytes(n, Expected::Described("bin bytes"))?.to_vec(),
    ))
}

/// A str8/16/32 (`width` 0, 1, 2) whose marker is at `start`.
fn str_of(r: &mut Reader<'_>, width: u8, start: usize) -> Result<Value> {
    let n = len(r, width)?;
    str(r, n, start)
}

fn str(r: &mut Reader<'_>, n: usize, start: usize) -> Result<Value> {
    let at = r.position();
    let bytes = r.bytes(n, Expected::Described("string bytes"))?;
    match core::str::from_utf8(bytes) {
        Ok(s) => Ok(Value::Str(s.to_string())),
        Err(e) => Err(Error::at(
            at + e.valid_up_to(),
            ErrorKind::InvalidUtf8 { str_offset: start },
        )),
    }
}
