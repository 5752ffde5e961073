//! Printing: the canonical string NumPy (and so python-blosc2) would write.

use alloc::string::{String, ToString};
use core::fmt;

use super::kind::{ByteOrder, DatetimeUnit};
use super::layout::round_up;
use super::model::{Dtype, Repr, Struct, Subarray};

impl fmt::Display for Dtype {
    /// Writes the canonical NumPy string: `dtype.str` for scalar dtypes,
    /// `str(dtype)` for structs and subarrays.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Struct(st) => write_struct(f, st, true),
            Repr::Subarray(sub) => write_subarray(f, sub),
            _ => write_typestr(f, self, false),
        }
    }
}

impl fmt::Debug for Dtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Dtype")
            .field(&format_args!("{:?}", self.to_string()))
            .finish()
    }
}

/// Writes a scalar dtype as `dtype.str` (`short == false`) or as NumPy's
/// short form used inside structs and subarrays (`short == true`, without
/// quotes).
pub(super) fn write_typestr(f: &mut dyn fmt::Write, dt: &Dtype, short: bool) -> fmt::Result {
    let order = dt.byte_order();
    let prefix = if short && order == ByteOrder::NotApplicable {
        String::new()
    } else {
        order.as_char().to_string()
    };
    match &dt.repr {
        Repr::Bool if short => f.write_str("?"),
        Repr::Bool => f.write_str("|b1"),
        Repr::Object if short => f.write_str("O"),
        Repr::Object => f.write_str("|O"),
        Repr::Number { kind, size, .. } => write!(f, "{prefix}{}{size}", kind.numpy_char()),
        Repr::Bytes(0) if short => f.write_str("S"),
        Repr::Void(0) if short => f.write_str("V"),
        Repr::Unicode { len: 0, .. } if short => write!(f, "{prefix}U"),
        Repr::Bytes(n) => write!(f, "{prefix}S{n}"),
        Repr::Void(n) => write!(f, "{prefix}V{n}"),
        Repr::Unicode { len, .. } => write!(f, "{prefix}U{len}"),
        Repr::Time {
            delta,
            unit,
            multiple,
            ..
        } => {
            write!(f, "{prefix}{}8", if *delta { 'm' } else { 'M' })?;
            match (unit, multiple) {
                (DatetimeUnit::Generic, _) => Ok(()),
                (unit, 1) => write!(f, "[{}]", unit.as_str()),
                (unit, m) => write!(f, "[{m}{}]", unit.as_str()),
            }
        }
        Repr::Subarray(sub) => write_subarray(f, sub),
        Repr::Struct(st) => write_struct(f, st, false),
    }
}

/// NumPy's `_construction_repr(dtype, short=True)`: quoted short type
/// strings, or the literal of a struct or subarray.
pub(super) fn write_construction(f: &mut dyn fmt::Write, dt: &Dtype) -> fmt::Result {
    match &dt.repr {
        Repr::Struct(st) => write_struct(f, st, false),
        Repr::Subarray(sub) => write_subarray(f, sub),
        _ => {
            f.write_char('\'')?;
            write_typestr(f, dt, true)?;
            f.write_char('\'')
        }
    }
}

pub(crate) fn write_shape(f: &mut dyn fmt::Write, shape: &[u64]) -> fmt::Result {
    f.write_char('(')?;
    for (i, dim) in shape.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{dim}")?;
    }
    if shape.len() == 1 {
        f.write_char(',')?;
    }
    f.write_char(')')
}

pub(super) fn write_subarray(f: &mut dyn fmt::Write, sub: &Subarray) -> fmt::Result {
    f.write_char('(')?;
    write_construction(f, &sub.base)?;
    f.write_str(", ")?;
    write_shape(f, &sub.shape)?;
    f.write_char(')')
}

/// NumPy's `_is_packed`: fields in order, without gaps beyond what
/// alignment requires, filling the itemsize.
pub(super) fn is_packed(st: &Struct) -> bool {
    let mut total: u64 = 0;
    let mut max_align: u64 = 1;
    for field in &st.fields {
        if st.aligned {
            let field_align = field.dtype.alignment();
            max_align = max_align.max(field_align);
            total = match round_up(total, field_align) {
                Some(t) => t,
                None => return false,
            };
        }
        if field.offset != total {
            return false;
        }
        total = match total.checked_add(field.dtype.itemsize()) {
            Some(t) => t,
            None => return false,
        };
    }
    if st.aligned {
        total = match round_up(total, max_align) {
            Some(t) => t,
            None => return false,
        };
    }
    total == st.itemsize
}

pub(super) fn write_struct(
    f: &mut dyn fmt::Write,
    st: &Struct,
    include_align: bool,
) -> fmt::Result {
    // NumPy would also use the list form for a field named '' (possible
    // only from the dict form), but reading that list back renames the
    // field to 'f<index>'; the dict form keeps the name.
    let empty_name = st.fields.iter().any(|field| field.name.is_empty());
    let show_aligned = include_align && st.aligned;
    if !(show_aligned || empty_name) && is_packed(st) {
        f.write_char('[')?;
        for (i, field) in st.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_char('(')?;
            match &field.title {
                Some(title) => {
                    f.write_char('(')?;
                    write_py_str(f, title)?;
                    f.write_str(", ")?;
                    write_py_str(f, &field.name)?;
                    f.write_str("), ")?;
                }
                None => {
                    write_py_str(f, &field.name)?;
                    f.write_str(", ")?;
                }
            }
            match &field.dtype.repr {
                Repr::Subarray(sub) => {
                    write_construction(f, &sub.base)?;
                    f.write_str(", ")?;
                    write_shape(f, &sub.shape)?;
                }
                _ => write_construction(f, &field.dtype)?,
            }
            f.write_char(')')?;
        }
        return f.write_char(']');
    }

    f.write_str("{'names': [")?;
    for (i, field) in st.fields.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_py_str(f, &field.name)?;
    }
    f.write_str("], 'formats': [")?;
    for (i, field) in st.fields.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_construction(f, &field.dtype)?;
    }
    f.write_str("], 'offsets': [")?;
    for (i, field) in st.fields.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{}", field.offset)?;
    }
    if st.fields.iter().any(|field| field.title.is_some()) {
        f.write_str("], 'titles': [")?;
        for (i, field) in st.fields.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match &field.title {
                Some(title) => write_py_str(f, title)?,
                None => f.write_str("None")?,
            }
        }
    }
    write!(f, "], 'itemsize': {}", st.itemsize)?;
    if show_aligned {
        f.write_str(", 'aligned': True")?;
    }
    f.write_char('}')
}

/// Whether Python's `str.isprintable` holds for `c`, for the characters this
/// crate knows about: ASCII and Latin-1 exactly, plus the common invisible
/// format and space characters and private-use planes. Other unassigned code
/// points are treated as printable (Python escapes them).
pub(super) fn py_printable(c: char) -> bool {
    let cp = u32::from(c);
    !matches!(
        cp,
        0x00..=0x1f
            | 0x7f..=0xa0
            | 0xad
            | 0x0600..=0x0605
            | 0x061c
            | 0x06dd
            | 0x070f
            | 0x0890..=0x0891
            | 0x08e2
            | 0x1680
            | 0x180e
            | 0x2000..=0x200f
            | 0x2028..=0x202f
            | 0x205f..=0x2064
            | 0x2066..=0x206f
            | 0x3000
            | 0xe000..=0xf8ff
            | 0xfeff
            | 0xfff0..=0xfffb
            | 0xfffe..=0xffff
            | 0x110bd
            | 0x110cd
            | 0x13430..=0x1343f
            | 0x1bca0..=0x1bca3
            | 0x1d173..=0x1d17a
            | 0xe0000..=0xe00ff
            | 0xf0000..=0x10ffff
    )
}

/// Writes `s` the way Python's `repr(str)` does.
pub(crate) fn write_py_str(f: &mut dyn fmt::Write, s: &str) -> fmt::Result {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    f.write_char(quote)?;
    for c in s.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c == quote => {
                f.write_char('\\')?;
                f.write_char(c)?;
            }
            c if py_printable(c) => f.write_char(c)?,
            c => {
                let cp = u32::from(c);
                if cp < 0x100 {
                    write!(f, "\\x{cp:02x}")?;
                } else if cp < 0x10000 {
                    write!(f, "\\u{cp:04x}")?;
                } else {
                    write!(f, "\\U{cp:08x}")?;
                }
            }
        }
    }
    f.write_char(quote)
}
