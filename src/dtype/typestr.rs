//! Type strings: `"<i4"`, `"|S5"`, `"<M8[ns]"`, and NumPy's names such as `"int32"`.

use alloc::format;
use alloc::string::String;

use super::error::{error_at, invalid, syntax, too_large, unsupported, DtypeError};
use super::kind::{ByteOrder, DatetimeUnit, Kind};
use super::limits::{MAX_DATETIME_MULTIPLE, MAX_ITEMSIZE};
use super::model::{Dtype, Repr};

pub(super) fn number(kind: Kind, size: u8, order: ByteOrder) -> Dtype {
    let order = if size == 1 {
        ByteOrder::NotApplicable
    } else {
        order
    };
    Dtype::of(Repr::Number { kind, size, order })
}

pub(super) fn named_dtype(name: &str) -> Option<Dtype> {
    let le = ByteOrder::Little;
    Some(match name {
        "bool" | "bool_" => Dtype::of(Repr::Bool),
        "int8" | "byte" => number(Kind::Int, 1, le),
        "int16" | "short" => number(Kind::Int, 2, le),
        "int32" | "intc" => number(Kind::Int, 4, le),
        "int64" | "longlong" => number(Kind::Int, 8, le),
        "uint8" | "ubyte" => number(Kind::UInt, 1, le),
        "uint16" | "ushort" => number(Kind::UInt, 2, le),
        "uint32" | "uintc" => number(Kind::UInt, 4, le),
        "uint64" | "ulonglong" => number(Kind::UInt, 8, le),
        "float16" | "half" => number(Kind::Float, 2, le),
        "float32" | "single" => number(Kind::Float, 4, le),
        "float64" | "double" | "float" => number(Kind::Float, 8, le),
        "float128" => number(Kind::Float, 16, le),
        "complex64" | "csingle" => number(Kind::Complex, 8, le),
        "complex128" | "cdouble" | "complex" => number(Kind::Complex, 16, le),
        "complex256" => number(Kind::Complex, 32, le),
        "object" | "object_" => Dtype::of(Repr::Object),
        "str" | "str_" | "unicode" => Dtype::of(Repr::Unicode { len: 0, order: le }),
        "bytes" | "bytes_" => Dtype::of(Repr::Bytes(0)),
        "void" => Dtype::of(Repr::Void(0)),
        _ => return None,
    })
}

pub(super) const PLATFORM_DEPENDENT: &[&str] = &[
    "int",
    "uint",
    "intp",
    "uintp",
    "long",
    "ulong",
    "longdouble",
    "clongdouble",
    "l",
    "L",
    "g",
    "G",
    "p",
    "P",
    "n",
    "N",
];

pub(super) fn time(delta: bool, order: ByteOrder, meta: (DatetimeUnit, u32)) -> Dtype {
    Dtype::of(Repr::Time {
        delta,
        unit: meta.0,
        multiple: meta.1,
        order,
    })
}

/// Parses a decimal number of at most `max`; `digits` is non-empty ASCII
/// digits. Returns `None` past `max`.
pub(super) fn parse_decimal(digits: &str, max: u64) -> Option<u64> {
    let mut value: u64 = 0;
    for b in digits.bytes() {
        value = value
            .checked_mul(10)?
            .checked_add(u64::from(b.wrapping_sub(b'0')))?;
        if value > max {
            return None;
        }
    }
    Some(value)
}

pub(super) fn count_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// Parses `[unit]` / `[Nunit]` starting at `pos` (which holds `[`) and
/// requires it to end `t`.
pub(super) fn parse_time_meta(t: &str, pos: usize) -> Result<(DatetimeUnit, u32), DtypeError> {
    let inner_start = pos.saturating_add(1);
    let rest = t.get(inner_start..).unwrap_or("");
    let Some(close) = rest.find(']') else {
        return Err(error_at(t, t.len(), "']' closing the datetime unit"));
    };
    let inner = rest.get(..close).unwrap_or("");
    let ndigits = count_digits(inner);
    let (digits, unit_str) = inner.split_at(ndigits);
    let multiple = if digits.is_empty() {
        1
    } else {
        match parse_decimal(digits, MAX_DATETIME_MULTIPLE) {
            Some(m) => m,
            None => {
                return Err(too_large(
                    inner_start,
                    format!("a datetime multiple of at most {MAX_DATETIME_MULTIPLE}"),
                    format!("{digits:?}"),
                ));
            }
        }
    };
    let unit_pos = inner_start.saturating_add(ndigits);
    let Some(unit) = DatetimeUnit::from_name(unit_str) else {
        return Err(syntax(
            unit_pos,
            "a datetime unit (Y, M, W, D, h, m, s, ms, us, ns, ps, fs, as or generic)",
            if unit_str.is_empty() {
                String::from("no unit")
            } else {
                format!("{unit_str:?}")
            },
        ));
    };
    let end = inner_start.saturating_add(close).saturating_add(1);
    if end < t.len() {
        return Err(error_at(t, end, "end of dtype after the datetime unit"));
    }
    let multiple = if unit == DatetimeUnit::Generic {
        1
    } else {
        u32::try_from(multiple).unwrap_or(u32::MAX)
    };
    Ok((unit, multiple))
}

/// Parses a type string or NumPy name; error offsets are relative to `t`.
pub(super) fn parse_typestr(t: &str) -> Result<Dtype, DtypeError> {
    if t.is_empty() {
        return Err(syntax(0, "a dtype", "end of input"));
    }
    if let Some(dt) = named_dtype(t) {
        return Ok(dt);
    }
    for (prefix, delta) in [("datetime64", false), ("timedelta64", true)] {
        if let Some(rest) = t.strip_prefix(prefix) {
            let meta = if rest.is_empty() {
                (DatetimeUnit::Generic, 1)
            } else if rest.starts_with('[') {
                parse_time_meta(t, prefix.len())?
            } else {
                return Err(error_at(t, prefix.len(), "'[' or end of dtype"));
            };
            return Ok(time(delta, ByteOrder::Little, meta));
        }
    }
    if PLATFORM_DEPENDENT.contains(&t) {
        return Err(unsupported(
            0,
            "a dtype whose size does not depend on the platform",
            format!("{t:?}"),
        ));
    }

    let bytes = t.as_bytes();
    if bytes.len() > 1 && bytes.iter().take(2).all(u8::is_ascii_alphabetic) {
        // Type strings have a single kind letter; this is a name.
        return Err(error_at(t, 0, "a NumPy type name or type string"));
    }
    let (prefix, kind_pos) = match bytes.first() {
        Some(c @ (b'<' | b'>' | b'=' | b'|')) => (Some(*c), 1),
        _ => (None, 0),
    };
    let order = if prefix == Some(b'>') {
        ByteOrder::Big
    } else {
        ByteOrder::Little
    };
    let rest = t.get(kind_pos..).unwrap_or("");
    let Some(kind_char) = rest.chars().next() else {
        return Err(syntax(kind_pos, "a type character", "end of input"));
    };
    let size_pos = kind_pos.saturating_add(kind_char.len_utf8());
    let after_kind = t.get(size_pos..).unwrap_or("");
    let ndigits = count_digits(after_kind);
    let digits = after_kind.get(..ndigits).unwrap_or("");
    let end_pos = size_pos.saturating_add(ndigits);
    let size = if digits.is_empty() {
        None
    } else {
        match parse_decimal(digits, MAX_ITEMSIZE) {
            Some(n) => Some(n),
            None => {
                return Err(too_large(
                    size_pos,
                    format!("a size of at most {MAX_ITEMSIZE}"),
                    format!("{digits:?}"),
                ));
            }
        }
    };
    let bad_size = |expected: &str| {
        invalid(
            size_pos,
            format!("a size of {expected} bytes for kind '{kind_char}'"),
            format!("{digits:?}"),
        )
    };
    let no_size = || {
        invalid(
            size_pos,
            format!("no size after type code '{kind_char}'"),
            format!("{digits:?}"),
        )
    };

    let dtype = match (kind_char, size) {
        ('b', Some(1)) => Dtype::of(Repr::Bool),
        ('b', Some(_)) => return Err(bad_size("1")),
        ('i' | 'u', Some(n @ (1 | 2 | 4 | 8))) => {
            let kind = if kind_char == 'i' {
                Kind::Int
            } else {
                Kind::UInt
            };
            number(kind, n as u8, order)
        }
        ('i' | 'u', Some(_)) => return Err(bad_size("1, 2, 4 or 8")),
        ('f', Some(n @ (2 | 4 | 8 | 16))) => number(Kind::Float, n as u8, order),
        ('f', Some(_)) => return Err(bad_size("2, 4, 8 or 16")),
        ('c', Some(n @ (8 | 16 | 32))) => number(Kind::Complex, n as u8, order),
        ('c', Some(_)) => return Err(bad_size("8, 16 or 32")),
        ('a', None) if prefix.is_some() => return Err(unknown_kind(t, kind_pos)),
        ('S' | 'a', n) => Dtype::of(Repr::Bytes(n.unwrap_or(0))),
        ('V', n) => Dtype::of(Repr::Void(n.unwrap_or(0))),
        ('U', n) => {
            let len = n.unwrap_or(0);
            if len > MAX_ITEMSIZE / 4 {
                return Err(too_large(
                    size_pos,
                    format!("a length of at most {} characters", MAX_ITEMSIZE / 4),
                    format!("{digits:?}"),
                ));
            }
            Dtype::of(Repr::Unicode { len, order })
        }
        ('O', None | Some(4 | 8)) => Dtype::of(Repr::Object),
        ('O', Some(_)) => return Err(bad_size("4 or 8")),
        ('M' | 'm', Some(8)) if digits != "8" => return Err(bad_size("8")),
        ('M' | 'm', Some(8)) if t.get(end_pos..).is_some_and(|r| r.starts_with('[')) => {
            // parse_time_meta also checks that the unit ends the string.
            let meta = parse_time_meta(t, end_pos)?;
            return Ok(time(kind_char == 'm', order, meta));
        }
        ('M' | 'm', None | Some(8)) => time(kind_char == 'm', order, (DatetimeUnit::Generic, 1)),
        ('M' | 'm', Some(_)) => return Err(bad_size("8")),
        (c, None) => match c {
            '?' => Dtype::of(Repr::Bool),
            'b' => number(Kind::Int, 1, order),
            'B' => number(Kind::UInt, 1, order),
            'h' => number(Kind::Int, 2, order),
            'H' => number(Kind::UInt, 2, order),
            'i' => number(Kind::Int, 4, order),
            'I' => number(Kind::UInt, 4, order),
            'q' => number(Kind::Int, 8, order),
            'Q' => number(Kind::UInt, 8, order),
            'e' => number(Kind::Float, 2, order),
            'f' => number(Kind::Float, 4, order),
            'd' => number(Kind::Float, 8, order),
            'F' => number(Kind::Complex, 8, order),
            'D' => number(Kind::Complex, 16, order),
            'c' => Dtype::of(Repr::Bytes(1)),
            'l' | 'L' | 'g' | 'G' | 'p' | 'P' | 'n' | 'N' => {
                return Err(unsupported(
                    kind_pos,
                    "a type code whose size does not depend on the platform",
                    format!("'{c}'"),
                ));
            }
            _ => return Err(unknown_kind(t, kind_pos)),
        },
        ('?' | 'B' | 'h' | 'H' | 'I' | 'q' | 'Q' | 'e' | 'd' | 'F' | 'D', Some(_)) => {
            return Err(no_size());
        }
        (_, Some(_)) => return Err(unknown_kind(t, kind_pos)),
    };
    if end_pos < t.len() {
        return Err(error_at(t, end_pos, "end of dtype"));
    }
    Ok(dtype)
}

pub(super) fn unknown_kind(t: &str, pos: usize) -> DtypeError {
    error_at(
        t,
        pos,
        "a dtype kind (b, i, u, f, c, S, a, U, V, O, M, m), type code or NumPy type name",
    )
}
