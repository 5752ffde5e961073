//! Strict, total decoding of one msgpack value over the crate's one reader.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{NdArray, NdData, NdDtype, Value, EXT_COMPLEX, EXT_NDARRAY, EXT_SET};
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::marker::*;
use crate::msgpack::read::Reader;

/// How deep arrays, maps and decoded ext payloads may nest (a deeper value is an
/// error, so decoding, dropping and serializing cannot overflow the stack).
pub const MAX_DEPTH: usize = 128;

/// The most elements an array or map reserves before they are read.
const RESERVE_MAX: usize = 1024;

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
        let value = Decoder { input: bytes }.value(&mut r, 0)?;
        Ok((value, r.remaining()))
    }
}

fn trailing(at: usize, count: usize) -> Error {
    Error::at(at, ErrorKind::TrailingBytes { count })
}

fn invalid(at: usize, expected: &str, found: String) -> Error {
    Error::at(
        at,
        ErrorKind::InvalidValue {
            expected: expected.to_string(),
            found,
        },
    )
}

struct Decoder<'a> {
    input: &'a [u8],
}

impl<'a> Decoder<'a> {
    fn value(&self, r: &mut Reader<'a>, depth: usize) -> Result<Value> {
        let start = r.position();
        let m = r.byte(VALUE)?;
        let nested = |_: &Reader<'a>| deeper(depth, start);
        Ok(match m {
            0x00..=PFIX_MAX => Value::Int(i64::from(m)),
            NFIX_MIN..=0xff => Value::Int(i64::from(m as i8)),
            FIXMAP..=FIXMAP_MAX => self.map(r, usize::from(m - FIXMAP), nested(r)?)?,
            FIXARRAY..=FIXARRAY_MAX => self.array(r, usize::from(m - FIXARRAY), nested(r)?)?,
            FIXSTR..=FIXSTR_MAX => str(r, usize::from(m - FIXSTR), start)?,
            NIL => Value::Nil,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            BIN8 | BIN16 | BIN32 => {
                let n = len(r, m, BIN8)?;
                Value::Bin(r.bytes(n, Expected::Described("bin bytes"))?.to_vec())
            }
            STR8 | STR16 | STR32 => {
                let n = len(r, m, STR8)?;
                str(r, n, start)?
            }
            ARRAY16 | ARRAY32 => {
                let n = len(r, m, ARRAY16 - 1)?;
                self.array(r, n, nested(r)?)?
            }
            MAP16 | MAP32 => {
                let n = len(r, m, MAP16 - 1)?;
                self.map(r, n, nested(r)?)?
            }
            FLOAT32 => Value::F32(f32::from_bits(r.be_u32(Expected::Described("float32"))?)),
            FLOAT64 => Value::F64(f64::from_bits(r.be_u64(Expected::Described("float64"))?)),
            UINT8 => Value::Int(i64::from(r.byte(Expected::Described("uint8"))?)),
            UINT16 => Value::Int(i64::from(r.be_u16(Expected::Described("uint16"))?)),
            UINT32 => Value::Int(i64::from(r.be_u32(Expected::Described("uint32"))?)),
            UINT64 => {
                let v = r.be_u64(Expected::Described("uint64"))?;
                i64::try_from(v).map_or(Value::UInt(v), Value::Int)
            }
            INT8 => Value::Int(i64::from(r.byte(Expected::Described("int8"))? as i8)),
            INT16 => Value::Int(i64::from(r.be_i16(Expected::Described("int16"))?)),
            INT32 => Value::Int(i64::from(r.be_i32(Expected::Described("int32"))?)),
            INT64 => Value::Int(r.be_i64(Expected::Described("int64"))?),
            FIXEXT1 | FIXEXT2 | FIXEXT4 | FIXEXT8 | FIXEXT16 => {
                let n = 1usize << (m - FIXEXT1);
                self.ext(r, n, start, depth)?
            }
            EXT8 | EXT16 | EXT32 => {
                let n = len(r, m, EXT8)?;
                self.ext(r, n, start, depth)?
            }
            _ => {
                return Err(Error::at(start, ErrorKind::invalid_marker(ANY, m)));
            }
        })
    }

    fn array(&self, r: &mut Reader<'a>, n: usize, depth: usize) -> Result<Value> {
        // Every element takes at least one byte: never reserve more than that (nor
        // more than a few pages up front; real elements grow it).
        let mut items = Vec::with_capacity(n.min(r.remaining().len()).min(RESERVE_MAX));
        for _ in 0..n {
            items.push(self.value(r, depth)?);
        }
        // python-blosc2's list hook: a list starting with the string "__tuple__".
        if matches!(items.first(), Some(Value::Str(s)) if s == TUPLE_TAG) {
            items.remove(0);
            return Ok(Value::Tuple(items));
        }
        Ok(Value::Array(items))
    }

    fn map(&self, r: &mut Reader<'a>, n: usize, depth: usize) -> Result<Value> {
        let mut pairs = Vec::with_capacity(n.min(r.remaining().len() / 2).min(RESERVE_MAX));
        for _ in 0..n {
            let k = self.value(r, depth)?;
            let v = self.value(r, depth)?;
            pairs.push((k, v));
        }
        Ok(Value::Map(pairs))
    }

    /// The type byte and `n` payload bytes of an ext whose marker is at `start`.
    fn ext(&self, r: &mut Reader<'a>, n: usize, start: usize, depth: usize) -> Result<Value> {
        let code = r.byte(Expected::Described("ext type"))? as i8;
        let at = r.position();
        let data = r.bytes(n, Expected::Described("ext payload"))?;
        match code {
            EXT_COMPLEX => match <[u8; 16]>::try_from(data) {
                Ok(b) => {
                    let (re, im) = b.split_at(8);
                    Ok(Value::Complex {
                        re: f64_be(re),
                        im: f64_be(im),
                    })
                }
                Err(_) => Err(invalid(
                    start,
                    "a complex (ext 44) of 16 bytes (two float64)",
                    format!("{n} byte(s)"),
                )),
            },
            EXT_SET | EXT_NDARRAY => {
                let payload = self.payload(at, r.position(), deeper(depth, start)?)?;
                if code == EXT_SET {
                    match payload {
                        // `set(unpackb(data))`: a list, or a tuple by the list hook.
                        Value::Array(items) | Value::Tuple(items) => Ok(Value::Set(items)),
                        other => Err(invalid(
                            at,
                            "a set (ext 45) holding a msgpack array",
                            kind_name(&other),
                        )),
                    }
                } else {
                    ndarray(payload, at).map(|a| Value::NdArray(Box::new(a)))
                }
            }
            _ => Ok(Value::Ext {
                code,
                data: data.to_vec(),
            }),
        }
    }

    /// The one msgpack value filling `from..to`, with offsets in the whole content.
    fn payload(&self, from: usize, to: usize, depth: usize) -> Result<Value> {
        let mut r = Reader::new_at(self.input.get(..to).unwrap_or_default(), from);
        let value = self.value(&mut r, depth)?;
        match r.remaining().len() {
            0 => Ok(value),
            count => Err(trailing(r.position(), count)),
        }
    }
}

/// The depth inside a container opened at `start`, if within [`MAX_DEPTH`].
fn deeper(depth: usize, start: usize) -> Result<usize> {
    if depth >= MAX_DEPTH {
        Err(Error::at(start, ErrorKind::TooDeep { max: MAX_DEPTH }))
    } else {
        Ok(depth + 1)
    }
}

fn f64_be(b: &[u8]) -> f64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(b.get(..8).unwrap_or(&[0; 8]));
    f64::from_be_bytes(a)
}

/// The length after a bin/str/ext/array/map marker of the 8-, 16- or 32-bit kind:
/// `m - base` is 0, 1 or 2.
fn len(r: &mut Reader<'_>, m: u8, base: u8) -> Result<usize> {
    let e = Expected::Described("length");
    let n = match m.wrapping_sub(base) {
        0 => u32::from(r.byte(e)?),
        1 => u32::from(r.be_u16(e)?),
        _ => r.be_u32(e)?,
    };
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
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

fn kind_name(v: &Value) -> String {
    let name = match v {
        Value::Nil => "nil",
        Value::Bool(_) => "a bool",
        Value::Int(_) | Value::UInt(_) => "an int",
        Value::F32(_) | Value::F64(_) => "a float",
        Value::Str(_) => "a string",
        Value::Bin(_) => "a bin",
        Value::Array(_) => "an array",
        Value::Tuple(_) => "a tuple",
        Value::Map(_) => "a map",
        Value::Complex { .. } | Value::Set(_) | Value::NdArray(_) | Value::Ext { .. } => "an ext",
    };
    name.to_string()
}

const ND: &str = "a NumPy array (ext 46): a map of \"dtype\", \"shape\" and \"data\", or of \"values\" and \"shape\"";

/// python-blosc2's `_decode_ndarray`, strictly: exactly the keys it writes.
fn ndarray(payload: Value, at: usize) -> Result<NdArray> {
    let Value::Map(pairs) = payload else {
        return Err(invalid(at, ND, kind_name(&payload)));
    };
    let (mut dtype, mut shape, mut data, mut values) = (None, None, None, None);
    for (k, v) in pairs {
        let slot = match k.as_str() {
            Some("dtype") => &mut dtype,
            Some("shape") => &mut shape,
            Some("data") => &mut data,
            Some("values") => &mut values,
            _ => return Err(invalid(at, ND, format!("the key {k:?}"))),
        };
        if slot.replace(v).is_some() {
            return Err(invalid(at, ND, format!("the key {k:?} twice")));
        }
    }
    let shape = match shape {
        Some(Value::Array(dims)) => dims
            .iter()
            .map(|d| match d {
                Value::Int(n) => u64::try_from(*n).ok(),
                Value::UInt(n) => Some(*n),
                _ => None,
            })
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| invalid(at, "a shape of non-negative ints", format!("{dims:?}")))?,
        Some(other) => {
            return Err(invalid(
                at,
                ND,
                format!("a shape that is {}", kind_name(&other)),
            ))
        }
        None => return Err(invalid(at, ND, "no \"shape\"".to_string())),
    };
    let (dtype, data) = match (dtype, data, values) {
        (Some(dtype), Some(Value::Bin(bytes)), None) => {
            let dtype = match dtype {
                Value::Map(mut d) if d.len() == 1 => match d.pop() {
                    Some((Value::Str(k), Value::Str(s))) if k == "str" => NdDtype::Str(s),
                    Some((Value::Str(k), Value::Array(descr))) if k == "descr" => {
                        NdDtype::Descr(descr)
                    }
                    other => {
                        return Err(invalid(
                            at,
                            "a dtype {\"str\": ..} or {\"descr\": [..]}",
                            format!("{other:?}"),
                        ))
                    }
                },
                other => return Err(invalid(at, "a dtype map of one entry", kind_name(&other))),
            };
            (dtype, NdData::Bytes(bytes))
        }
        (None, None, Some(Value::Array(items))) => (NdDtype::Object, NdData::Values(items)),
        _ => return Err(invalid(at, ND, "other keys or types".to_string())),
    };
    Ok(NdArray { dtype, shape, data })
}
