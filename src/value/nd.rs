//! python-blosc2's NumPy arrays (ext 46): the payload map read back, strictly.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::model::{NdArray, NdData, NdDtype, Value};
use crate::meta::error::{Error, ErrorKind, Result};

const ND: &str = "a NumPy array (ext 46): a map of \"dtype\", \"shape\" and \"data\", or of \"values\" and \"shape\"";

/// python-blosc2's `_decode_ndarray`, strictly: exactly the keys it writes.
pub(super) fn ndarray(payload: Value, at: usize) -> Result<NdArray> {
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
            ));
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
                        ));
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

pub(super) fn invalid(at: usize, expected: &str, found: String) -> Error {
    Error::at(
        at,
        ErrorKind::InvalidValue {
            expected: expected.to_string(),
            found,
        },
    )
}

pub(super) fn kind_name(v: &Value) -> String {
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
