//! python-blosc2's bytes for a [`Value`]: msgpack's most compact widths, as
//! `msgpack.packb(..., use_bin_type=True)` picks them, and its ext conventions.

use alloc::string::ToString;
use alloc::vec::Vec;

use super::model::{NdArray, NdData, NdDtype, Value, EXT_COMPLEX, EXT_NDARRAY, EXT_SET};
use crate::meta::error::{Error, ErrorKind, Result};

impl Value {
    /// The msgpack bytes python-blosc2's `msgpack_packb` writes for this value.
    ///
    /// Fails only for a length msgpack cannot hold (above `u32::MAX`) or nesting
    /// deeper than [`MAX_DEPTH`](super::model::MAX_DEPTH).
    ///
    /// ```
    /// use b2nd_meta::value::Value;
    ///
    /// // python: msgpack_packb(("a", -1, 2.5))
    /// let v = Value::Tuple(vec![Value::Str("a".into()), Value::Int(-1), Value::F64(2.5)]);
    /// let mut want = vec![0x94, 0xa9];
    /// want.extend_from_slice(b"__tuple__");
    /// want.extend_from_slice(&[0xa1, b'a', 0xff, 0xcb, 0x40, 0x04, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(v.to_msgpack()?, want);
    /// # Ok::<(), b2nd_meta::Error>(())
    /// ```
    pub fn to_msgpack(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        encode(self, &mut out, 0)?;
        Ok(out)
    }

    /// The ext type and payload this value is written as, for the ext variants.
    pub(super) fn ext_payload(&self, depth: usize) -> Result<Option<(i8, Vec<u8>)>> {
        check_depth(self, depth)?;
        Ok(match self {
            Value::Complex { re, im } => {
                let mut p = Vec::with_capacity(16);
                p.extend_from_slice(&re.to_be_bytes());
                p.extend_from_slice(&im.to_be_bytes());
                Some((EXT_COMPLEX, p))
            }
            Value::Set(items) => {
                let mut p = Vec::new();
                seq(items, None, &mut p, depth + 1)?;
                Some((EXT_SET, p))
            }
            Value::NdArray(a) => {
                let mut p = Vec::new();
                ndarray(a, &mut p, depth + 1)?;
                Some((EXT_NDARRAY, p))
            }
            Value::Ext { code, data } => Some((*code, data.clone())),
            _ => None,
        })
    }
}

fn too_long(what: &'static str) -> Error {
    Error::new(ErrorKind::Unencodable {
        what,
        problem: "longer than msgpack's 2^32 - 1".to_string(),
    })
}

/// rmp's writers into a vector: they pick msgpack's most compact widths, as python's
/// `msgpack.packb` does. Writing into a `Vec` cannot fail (rmp's error type is
/// `Infallible` without `std`, and the vector's `io::Write` never errs with it).
fn put<T, E>(written: core::result::Result<T, E>) -> Result<()> {
    written
        .map(drop)
        .map_err(|_| Error::new(ErrorKind::Message("msgpack write failed".to_string())))
}

/// A length msgpack can hold.
fn len32(n: usize, what: &'static str) -> Result<u32> {
    u32::try_from(n).map_err(|_| too_long(what))
}

fn int(v: i64, out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_sint(out, v))
}

fn uint(v: u64, out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_uint(out, v))
}

fn str(s: &str, out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_str_len(out, len32(s.len(), "a string")?))?;
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

fn bin(b: &[u8], out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_bin_len(out, len32(b.len(), "a bin")?))?;
    out.extend_from_slice(b);
    Ok(())
}

fn array_header(n: usize, what: &'static str, out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_array_len(out, len32(n, what)?))
}

fn seq(items: &[Value], tag: Option<&str>, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    array_header(items.len() + usize::from(tag.is_some()), "an array", out)?;
    if let Some(tag) = tag {
        str(tag, out)?;
    }
    items.iter().try_for_each(|v| encode(v, out, depth))
}

fn map_header(n: usize, out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_map_len(out, len32(n, "a map")?))
}

fn ndarray(a: &NdArray, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    let shape = |out: &mut Vec<u8>| -> Result<()> {
        str("shape", out)?;
        array_header(a.shape.len(), "a shape", out)?;
        a.shape.iter().try_for_each(|&d| uint(d, out))
    };
    match (&a.dtype, &a.data) {
        (NdDtype::Object, NdData::Values(items)) | (_, NdData::Values(items)) => {
            map_header(2, out)?;
            str("values", out)?;
            seq(items, None, out, depth)?;
            shape(out)
        }
        (dtype, NdData::Bytes(bytes)) => {
            map_header(3, out)?;
            str("dtype", out)?;
            map_header(1, out)?;
            match dtype {
                NdDtype::Descr(descr) => {
                    str("descr", out)?;
                    seq(descr, None, out, depth)?;
                }
                NdDtype::Str(s) => {
                    str("str", out)?;
                    str(s, out)?;
                }
                NdDtype::Object => {
                    str("str", out)?;
                    str("|O", out)?;
                }
            }
            shape(out)?;
            str("data", out)?;
            bin(bytes, out)
        }
    }
}

/// `v`, inside `depth` containers, may be written: at most [`MAX_DEPTH`](super::model::MAX_DEPTH)
/// containers open at once, empty ones included (as decoding counts them); the error
/// names the container past the bound.
fn check_depth(v: &Value, depth: usize) -> Result<()> {
    let found = match v {
        Value::Array(_) => "an array",
        Value::Tuple(_) => "a tuple",
        Value::Map(_) => "a map",
        Value::Set(_) => "a set",
        Value::NdArray(_) => "a NumPy array",
        _ => return Ok(()),
    };
    if depth < super::model::MAX_DEPTH {
        return Ok(());
    }
    Err(Error::new(ErrorKind::TooDeep {
        max: super::model::MAX_DEPTH,
        found,
    }))
}

fn encode(v: &Value, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    check_depth(v, depth)?;
    match v {
        Value::Nil => put(rmp::encode::write_nil(out))?,
        Value::Bool(b) => put(rmp::encode::write_bool(out, *b))?,
        Value::Int(i) => int(*i, out)?,
        Value::UInt(u) => uint(*u, out)?,
        Value::F32(f) => put(rmp::encode::write_f32(out, *f))?,
        Value::F64(f) => put(rmp::encode::write_f64(out, *f))?,
        Value::Str(s) => str(s, out)?,
        Value::Bin(b) => bin(b, out)?,
        Value::Array(items) => seq(items, None, out, depth + 1)?,
        Value::Tuple(items) => seq(items, Some("__tuple__"), out, depth + 1)?,
        Value::Map(pairs) => {
            map_header(pairs.len(), out)?;
            for (k, v) in pairs {
                encode(k, out, depth + 1)?;
                encode(v, out, depth + 1)?;
            }
        }
        Value::Complex { .. } | Value::Set(_) | Value::NdArray(_) | Value::Ext { .. } => {
            if let Some((code, payload)) = v.ext_payload(depth)? {
                ext(code, &payload, out)?;
            }
        }
    }
    Ok(())
}

/// An ext: fixext for 1, 2, 4, 8 and 16 bytes, else ext8/16/32 (python's choice, and
/// rmp's).
pub(super) fn ext(code: i8, payload: &[u8], out: &mut Vec<u8>) -> Result<()> {
    put(rmp::encode::write_ext_meta(
        out,
        len32(payload.len(), "an ext")?,
        code,
    ))?;
    out.extend_from_slice(payload);
    Ok(())
}
