//! `Serialize` for [`Value`]: the crate's JSON mapping into human-readable formats, the
//! msgpack value itself (ext types through rmp-serde's `_ExtStruct`) into binary ones.

use serde::ser::{Error as _, SerializeMap, SerializeSeq, SerializeTuple};
use serde::{Serialize, Serializer};

use super::json::{text, Hex};
use super::model::{NdArray, NdData, Value};

/// rmp-serde's name for a newtype struct holding `(ext type, payload bytes)`.
const EXT_STRUCT: &str = "_ExtStruct";

struct Float(f64);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            f if f.is_nan() => s.serialize_str("NaN"),
            f if f.is_infinite() && f > 0.0 => s.serialize_str("Infinity"),
            f if f.is_infinite() => s.serialize_str("-Infinity"),
            f => s.serialize_f64(f),
        }
    }
}

struct HexStr<'a>(&'a [u8]);

impl Serialize for HexStr<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&Hex(self.0))
    }
}

struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// A one-entry map `{key: value}`.
fn tagged<S: Serializer, V: Serialize + ?Sized>(
    s: S,
    key: &str,
    value: &V,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(1))?;
    m.serialize_entry(key, value)?;
    m.end()
}

struct Seq<'a>(Option<&'a str>, &'a [Value]);

impl Serialize for Seq<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.1.len() + usize::from(self.0.is_some())))?;
        if let Some(tag) = self.0 {
            seq.serialize_element(tag)?;
        }
        self.1.iter().try_for_each(|v| seq.serialize_element(v))?;
        seq.end()
    }
}

struct Shape<'a>(&'a [u64]);

impl Serialize for Shape<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0)
    }
}

impl Serialize for NdArray {
    /// The body of `{"$ndarray": ...}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("dtype", &self.dtype_str())?;
        m.serialize_entry("shape", &Shape(&self.shape))?;
        match &self.data {
            NdData::Bytes(b) => m.serialize_entry("data_hex", &HexStr(b))?,
            NdData::Values(v) => m.serialize_entry("values", &Seq(None, v))?,
        }
        m.end()
    }
}

struct Pair(f64, f64);

impl Serialize for Pair {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&Float(self.0))?;
        t.serialize_element(&Float(self.1))?;
        t.end()
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let human = s.is_human_readable();
        match self {
            Value::Nil => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::UInt(u) => s.serialize_u64(*u),
            // python reads a float32 as the float64 of the same value.
            Value::F32(f) if human => Float(f64::from(*f)).serialize(s),
            Value::F32(f) => s.serialize_f32(*f),
            Value::F64(f) if human => Float(*f).serialize(s),
            Value::F64(f) => s.serialize_f64(*f),
            Value::Str(v) => s.serialize_str(v),
            Value::Bin(b) if human => tagged(s, "$bin", &HexStr(b)),
            Value::Bin(b) => s.serialize_bytes(b),
            Value::Array(items) => Seq(None, items).serialize(s),
            Value::Tuple(items) if human => Seq(None, items).serialize(s),
            Value::Tuple(items) => Seq(Some("__tuple__"), items).serialize(s),
            Value::Map(pairs) => {
                let mut m = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    match k {
                        Value::Str(_) => m.serialize_entry(k, v)?,
                        _ if human => m.serialize_entry(&text(k), v)?,
                        _ => m.serialize_entry(k, v)?,
                    }
                }
                m.end()
            }
            Value::Complex { re, im } if human => tagged(s, "$complex", &Pair(*re, *im)),
            Value::Set(items) if human => tagged(s, "$set", &Seq(None, items)),
            Value::NdArray(a) if human => tagged(s, "$ndarray", a.as_ref()),
            Value::Ext { code, data } if human => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("$ext", &ExtJson(*code, data))?;
                m.end()
            }
            Value::Complex { .. } | Value::Set(_) | Value::NdArray(_) | Value::Ext { .. } => {
                match self.ext_payload(0).map_err(S::Error::custom)? {
                    Some((code, payload)) => {
                        s.serialize_newtype_struct(EXT_STRUCT, &(code, Bytes(&payload)))
                    }
                    None => Err(S::Error::custom("not an ext value")),
                }
            }
        }
    }
}

struct ExtJson<'a>(i8, &'a [u8]);

impl Serialize for ExtJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("type", &self.0)?;
        m.serialize_entry("data_hex", &HexStr(self.1))?;
        m.end()
    }
}
