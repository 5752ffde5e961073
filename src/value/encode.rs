//! python-blosc2's bytes for a [`Value`]: msgpack's most compact widths, as
//! `msgpack.packb(..., use_bin_type=True)` picks them, and its ext conventions.

use alloc::string::ToString;
use alloc::vec::Vec;

use super::{NdArray, NdData, NdDtype, Value, EXT_COMPLEX, EXT_NDARRAY, EXT_SET};
use crate::error::{Error, ErrorKind, Result};
use crate::marker::*;

impl Value {
    /// The msgpack bytes python-blosc2's `msgpack_packb` writes for this value.
    ///
    /// Fails only for a length msgpack cannot hold (above `u32::MAX`) or nesting
    /// deeper than [`MAX_DEPTH`](super::MAX_DEPTH).
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
        if depth > super::MAX_DEPTH {
            return Err(Error::new(ErrorKind::TooDeep {
                max: super::MAX_DEPTH,
            }));
        }
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

/// A length header: the fix form below `fix_max`, else the 8 (if `m8`), 16 or 32-bit one.
fn header(
    out: &mut Vec<u8>,
    n: usize,
    fix: Option<(u8, usize)>,
    m8: Option<u8>,
    m16: u8,
    m32: u8,
    what: &'static str,
) -> Result<()> {
    match (fix, m8) {
        (Some((base, max)), _) if n <= max => out.push(base | n as u8),
        (_, Some(m)) if n <= 0xff => out.extend_from_slice(&[m, n as u8]),
        _ if n <= 0xffff => {
            out.push(m16);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        _ => {
            let n = u32::try_from(n).map_err(|_| too_long(what))?;
            out.push(m32);
            out.extend_from_slice(&n.to_be_bytes());
        }
    }
    Ok(())
}

fn int(v: i64, out: &mut Vec<u8>) {
    if v >= 0 {
        return uint(v as u64, out);
    }
    if v >= -32 {
        out.push(v as i8 as u8);
    } else if v >= i64::from(i8::MIN) {
        out.extend_from_slice(&[INT8, v as i8 as u8]);
    } else if v >= i64::from(i16::MIN) {
        out.push(INT16);
        out.extend_from_slice(&(v as i16).to_be_bytes());
    } else if v >= i64::from(i32::MIN) {
        out.push(INT32);
        out.extend_from_slice(&(v as i32).to_be_bytes());
    } else {
        out.push(INT64);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

fn uint(v: u64, out: &mut Vec<u8>) {
    if v <= u64::from(PFIX_MAX) {
        out.push(v as u8);
    } else if v <= 0xff {
        out.extend_from_slice(&[UINT8, v as u8]);
    } else if v <= 0xffff {
        out.push(UINT16);
        out.extend_from_slice(&(v as u16).to_be_bytes());
    } else if v <= 0xffff_ffff {
        out.push(UINT32);
        out.extend_from_slice(&(v as u32).to_be_bytes());
    } else {
        out.push(UINT64);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

fn str(s: &str, out: &mut Vec<u8>) -> Result<()> {
    let fix = Some((FIXSTR, usize::from(FIXSTR_MAX - FIXSTR)));
    header(out, s.len(), fix, Some(STR8), STR16, STR32, "a string")?;
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

fn bin(b: &[u8], out: &mut Vec<u8>) -> Result<()> {
    header(out, b.len(), None, Some(BIN8), BIN16, BIN32, "a bin")?;
    out.extend_from_slice(b);
    Ok(())
}

fn seq(items: &[Value], tag: Option<&str>, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    let n = items.len() + usize::from(tag.is_some());
    let fix = Some((FIXARRAY, usize::from(FIXARRAY_MAX - FIXARRAY)));
    header(out, n, fix, None, ARRAY16, ARRAY32, "an array")?;
    if let Some(tag) = tag {
        str(tag, out)?;
    }
    items.iter().try_for_each(|v| encode(v, out, depth))
}

fn map_header(n: usize, out: &mut Vec<u8>) -> Result<()> {
    let fix = Some((FIXMAP, usize::from(FIXMAP_MAX - FIXMAP)));
    header(out, n, fix, None, MAP16, MAP32, "a map")
}

fn ndarray(a: &NdArray, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    let shape = |out: &mut Vec<u8>| -> Result<()> {
        str("shape", out)?;
        let fix = Some((FIXARRAY, usize::from(FIXARRAY_MAX - FIXARRAY)));
        header(out, a.shape.len(), fix, None, ARRAY16, ARRAY32, "a shape")?;
        a.shape.iter().for_each(|&d| uint(d, out));
        Ok(())
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

fn encode(v: &Value, out: &mut Vec<u8>, depth: usize) -> Result<()> {
    if depth > super::MAX_DEPTH {
        return Err(Error::new(ErrorKind::TooDeep {
            max: super::MAX_DEPTH,
        }));
    }
    match v {
        Value::Nil => out.push(NIL),
        Value::Bool(b) => out.push(if *b { TRUE } else { FALSE }),
        Value::Int(i) => int(*i, out),
        Value::UInt(u) => uint(*u, out),
        Value::F32(f) => {
            out.push(FLOAT32);
            out.extend_from_slice(&f.to_be_bytes());
        }
        Value::F64(f) => {
            out.push(FLOAT64);
            out.extend_from_slice(&f.to_be_bytes());
        }
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

/// An ext: fixext for 1, 2, 4, 8 and 16 bytes, else ext8/16/32 (python's choice).
pub(super) fn ext(code: i8, payload: &[u8], out: &mut Vec<u8>) -> Result<()> {
    let fixed = match payload.len() {
        1 => Some(FIXEXT1),
        2 => Some(FIXEXT2),
        4 => Some(FIXEXT4),
        8 => Some(FIXEXT8),
        16 => Some(FIXEXT16),
        _ => None,
    };
    match fixed {
        Some(m) => out.push(m),
        None => header(out, payload.len(), None, Some(EXT8), EXT16, EXT32, "an ext")?,
    }
    out.push(code as u8);
    out.extend_from_slice(payload);
    Ok(())
}
