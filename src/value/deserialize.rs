//! `Deserialize` for [`Value`]: the crate's JSON mapping read back (`{"$bin": ..}`,
//! `{"$complex": ..}`, `{"$set": ..}`, `{"$ndarray": ..}`, `{"$ext": ..}` become those
//! values again), and msgpack itself through rmp-serde (ext types included).
//!
//! The mapping cannot be inverted everywhere: a JSON string `"NaN"` stays a string, a
//! key that was the JSON text of a non-string key stays a string, a tuple is an array,
//! and a structured dtype (`"|V12"`) comes back as that plain dtype string.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{Error as _, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::model::{NdArray, NdData, NdDtype, Value};

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a msgpack value, or its JSON mapping")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(i64::try_from(v).map_or(Value::UInt(v), Value::Int))
    }
    fn visit_f32<E>(self, v: f32) -> Result<Value, E> {
        Ok(Value::F32(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::F64(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Value, E> {
        Ok(Value::Bin(v.to_vec()))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Bin(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        // python-blosc2's list hook, as for decoded msgpack.
        if matches!(items.first(), Some(Value::Str(s)) if s == "__tuple__") {
            items.remove(0);
            return Ok(Value::Tuple(items));
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut pairs: Vec<(Value, Value)> = Vec::new();
        while let Some(pair) = map.next_entry()? {
            pairs.push(pair);
        }
        match pairs.as_slice() {
            [(Value::Str(tag), body)] if tag.starts_with('$') => tagged(tag, body)
                .map(|v| v.unwrap_or(Value::Map(pairs)))
                .map_err(A::Error::custom),
            _ => Ok(Value::Map(pairs)),
        }
    }

    /// rmp-serde's ext: `(type, payload)`.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        let (code, payload): (i8, serde_bytes::ByteBuf) = Deserialize::deserialize(d)?;
        let mut bytes = Vec::new();
        super::encode::ext(code, &payload, &mut bytes).map_err(D::Error::custom)?;
        Value::from_msgpack(&bytes).map_err(D::Error::custom)
    }
}

fn unhex(s: &Value, what: &str) -> Result<Vec<u8>, String> {
    let s = s
        .as_str()
        .ok_or_else(|| format!("{what}: expected a hex string"))?;
    crate::hex::decode(s).map_err(|e| format!("{what}: {e}"))
}

fn float(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::UInt(u) => Some(*u as f64),
        Value::F64(f) => Some(*f),
        Value::F32(f) => Some(f64::from(*f)),
        Value::Str(s) if s == "NaN" => Some(f64::NAN),
        Value::Str(s) if s == "Infinity" => Some(f64::INFINITY),
        Value::Str(s) if s == "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

fn items(v: &Value) -> Option<&[Value]> {
    match v {
        Value::Array(items) | Value::Tuple(items) => Some(items),
        _ => None,
    }
}

/// The value a `{"$tag": body}` object stands for; `None` for an unknown tag (a map).
fn tagged(tag: &str, body: &Value) -> Result<Option<Value>, String> {
    Ok(Some(match tag {
        "$bin" => Value::Bin(unhex(body, "$bin")?),
        "$complex" => match items(body) {
            Some([re, im]) => match (float(re), float(im)) {
                (Some(re), Some(im)) => Value::Complex { re, im },
                _ => return Err("$complex: expected two numbers".to_string()),
            },
            _ => return Err("$complex: expected [re, im]".to_string()),
        },
        "$set" => Value::Set(items(body).ok_or("$set: expected an array")?.to_vec()),
        "$ext" => {
            let code = match body.get("type") {
                Some(Value::Int(c)) => {
                    i8::try_from(*c).map_err(|_| "$ext: type out of -128..=127")?
                }
                _ => return Err("$ext: expected an integer \"type\"".to_string()),
            };
            let data = unhex(body.get("data_hex").unwrap_or(&Value::Nil), "$ext data_hex")?;
            Value::Ext { code, data }
        }
        "$ndarray" => {
            let dtype = body
                .get("dtype")
                .and_then(Value::as_str)
                .ok_or("$ndarray: expected a \"dtype\" string")?;
            let shape = items(body.get("shape").unwrap_or(&Value::Nil))
                .and_then(|dims| {
                    dims.iter()
                        .map(|d| match d {
                            Value::Int(n) => u64::try_from(*n).ok(),
                            Value::UInt(n) => Some(*n),
                            _ => None,
                        })
                        .collect::<Option<Vec<u64>>>()
                })
                .ok_or("$ndarray: expected a \"shape\" of non-negative integers")?;
            let (dtype, data) = match (body.get("data_hex"), body.get("values")) {
                (Some(h), None) => (
                    NdDtype::Str(dtype.to_string()),
                    NdData::Bytes(unhex(h, "$ndarray data_hex")?),
                ),
                (None, Some(v)) if dtype == "|O" => (
                    NdDtype::Object,
                    NdData::Values(
                        items(v)
                            .ok_or("$ndarray: expected \"values\" to be an array")?
                            .to_vec(),
                    ),
                ),
                _ => {
                    return Err(
                        "$ndarray: expected \"data_hex\", or \"values\" with dtype \"|O\""
                            .to_string(),
                    );
                }
            };
            Value::NdArray(Box::new(NdArray { dtype, shape, data }))
        }
        _ => return Ok(None),
    }))
}
