//! The JSON text of a value (compact, as serde_json writes the mapping), for map keys
//! that are not strings. No serde_json: the library never needs it.

use alloc::string::String;
use core::fmt::{self, Write};

use super::model::{NdArray, NdData, Value};
pub(super) use crate::hex::Lower as Hex;

/// The JSON text of `v` under the crate's mapping, as used for a non-string map key:
/// `1` -> `1`, `[1, 2]` -> `[1,2]`, `None` -> `null`.
pub(super) fn text(v: &Value) -> String {
    let mut s = String::new();
    // Writing into a String cannot fail.
    let _ = write_value(v, &mut s);
    s
}

fn write_str(s: &str, out: &mut String) -> fmt::Result {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => write!(out, "\\u{:04x}", u32::from(c))?,
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(())
}

fn write_f64(f: f64, out: &mut String) -> fmt::Result {
    if f.is_nan() {
        write_str("NaN", out)
    } else if f.is_infinite() {
        write_str(if f > 0.0 { "Infinity" } else { "-Infinity" }, out)
    } else {
        write_finite(f, out)
    }
}

/// A finite float exactly as serde_json writes it (ryu's layout: `1.0`, `0.00001`,
/// `1e-7`, `1e+20`), from the shortest round-trip digits Rust gives.
fn write_finite(f: f64, out: &mut String) -> fmt::Result {
    if f.is_sign_negative() {
        out.push('-');
    }
    let sci = alloc::format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let len = digits.len() as i64;
    // The decimal point sits after `kk` digits; `k` zeros follow the digits.
    let kk = exp.parse::<i64>().unwrap_or(0) + 1;
    let k = kk - len;
    if (0..=16).contains(&kk) && k >= 0 {
        out.push_str(&digits);
        (0..k).for_each(|_| out.push('0'));
        out.push_str(".0");
    } else if 0 < kk && kk <= 16 {
        let (int, frac) = digits
            .split_at_checked(kk as usize)
            .unwrap_or((&digits, ""));
        write!(out, "{int}.{frac}")?;
    } else if -5 < kk && kk <= 0 {
        out.push_str("0.");
        (0..-kk).for_each(|_| out.push('0'));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at_checked(1).unwrap_or(("0", ""));
        out.push_str(first);
        if !rest.is_empty() {
            write!(out, ".{rest}")?;
        }
        let e = kk - 1;
        write!(out, "e{}{e}", if e > 0 { "+" } else { "" })?;
    }
    Ok(())
}

fn write_seq(items: &[Value], out: &mut String) -> fmt::Result {
    out.push('[');
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_value(v, out)?;
    }
    out.push(']');
    Ok(())
}

fn write_ndarray(a: &NdArray, out: &mut String) -> fmt::Result {
    out.push_str("{\"$ndarray\":{\"dtype\":");
    write_str(&a.dtype_str(), out)?;
    out.push_str(",\"shape\":[");
    for (i, d) in a.shape.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write!(out, "{d}")?;
    }
    out.push(']');
    match &a.data {
        NdData::Bytes(b) => write!(out, ",\"data_hex\":\"{}\"", Hex(b))?,
        NdData::Values(v) => {
            out.push_str(",\"values\":");
            write_seq(v, out)?;
        }
    }
    out.push_str("}}");
    Ok(())
}

fn write_value(v: &Value, out: &mut String) -> fmt::Result {
    match v {
        Value::Nil => out.push_str("null"),
        Value::Bool(b) => write!(out, "{b}")?,
        Value::Int(i) => write!(out, "{i}")?,
        Value::UInt(u) => write!(out, "{u}")?,
        Value::F32(f) => write_f64(f64::from(*f), out)?,
        Value::F64(f) => write_f64(*f, out)?,
        Value::Str(s) => write_str(s, out)?,
        Value::Bin(b) => write!(out, "{{\"$bin\":\"{}\"}}", Hex(b))?,
        Value::Array(items) | Value::Tuple(items) => write_seq(items, out)?,
        Value::Map(pairs) => {
            out.push('{');
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                match k {
                    Value::Str(s) => write_str(s, out)?,
                    other => write_str(&text(other), out)?,
                }
                out.push(':');
                write_value(v, out)?;
            }
            out.push('}');
        }
        Value::Complex { re, im } => {
            out.push_str("{\"$complex\":[");
            write_f64(*re, out)?;
            out.push(',');
            write_f64(*im, out)?;
            out.push_str("]}");
        }
        Value::Set(items) => {
            out.push_str("{\"$set\":");
            write_seq(items, out)?;
            out.push('}');
        }
        Value::NdArray(a) => write_ndarray(a, out)?,
        Value::Ext { code, data } => write!(
            out,
            "{{\"$ext\":{{\"type\":{code},\"data_hex\":\"{}\"}}}}",
            Hex(data)
        )?,
    }
    Ok(())
}
