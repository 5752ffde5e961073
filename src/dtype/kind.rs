//! What a dtype describes: its kind, byte order and datetime unit.

use core::fmt;

/// Byte order of a dtype's values.
///
/// ```
/// use b2nd_meta::dtype::{ByteOrder, Dtype};
///
/// assert_eq!(Dtype::parse(">i4")?.byte_order(), ByteOrder::Big);
/// assert_eq!(Dtype::parse("i4")?.byte_order(), ByteOrder::Little);
/// assert_eq!(Dtype::parse(">u1")?.byte_order(), ByteOrder::NotApplicable);
/// assert_eq!(ByteOrder::Big.as_char(), '>');
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ByteOrder {
    /// Little-endian, written `<`.
    Little,
    /// Big-endian, written `>`.
    Big,
    /// Byte order does not apply (single bytes, byte strings, structs),
    /// written `|`.
    NotApplicable,
}

impl ByteOrder {
    /// The character NumPy uses for this byte order: `<`, `>` or `|`.
    pub fn as_char(self) -> char {
        match self {
            ByteOrder::Little => '<',
            ByteOrder::Big => '>',
            ByteOrder::NotApplicable => '|',
        }
    }
}

/// What sort of values a dtype describes.
///
/// ```
/// use b2nd_meta::dtype::{Dtype, Kind};
///
/// assert_eq!(Dtype::parse("<c16")?.kind(), Kind::Complex);
/// assert_eq!(Dtype::parse("('<i4', (2,))")?.kind(), Kind::Subarray);
/// assert_eq!(Kind::Subarray.numpy_char(), 'V');
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Boolean, one byte (`b1`, `?`).
    Bool,
    /// Signed integer of 1, 2, 4 or 8 bytes (`i`).
    Int,
    /// Unsigned integer of 1, 2, 4 or 8 bytes (`u`).
    UInt,
    /// Floating point number of 2, 4, 8 or 16 bytes (`f`).
    Float,
    /// Complex number of 8, 16 or 32 bytes (`c`).
    Complex,
    /// Fixed-length byte string (`S`).
    Bytes,
    /// Fixed-length UCS-4 string, 4 bytes per character (`U`).
    Unicode,
    /// Raw bytes without fields (`V`).
    Void,
    /// Date and time, 8 bytes, with a unit (`M`).
    Datetime,
    /// Time difference, 8 bytes, with a unit (`m`).
    Timedelta,
    /// Python object reference, 8 bytes (`O`).
    Object,
    /// Structured dtype with named fields (NumPy kind `V`).
    Struct,
    /// Fixed-shape array of another dtype (NumPy kind `V`).
    Subarray,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Kind {
    /// A lowercase word for the kind: `"bool"`, `"int"`, `"uint"`, `"float"`,
    /// `"complex"`, `"bytes"`, `"unicode"`, `"void"`, `"datetime"`, `"timedelta"`,
    /// `"object"`, `"struct"` or `"subarray"` (also its `Display`).
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("<u2").unwrap().kind().name(), "uint");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bool => "bool",
            Kind::Int => "int",
            Kind::UInt => "uint",
            Kind::Float => "float",
            Kind::Complex => "complex",
            Kind::Bytes => "bytes",
            Kind::Unicode => "unicode",
            Kind::Void => "void",
            Kind::Datetime => "datetime",
            Kind::Timedelta => "timedelta",
            Kind::Object => "object",
            Kind::Struct => "struct",
            Kind::Subarray => "subarray",
        }
    }

    /// NumPy's `dtype.kind` character for this kind (`'V'` for structs and
    /// subarrays).
    pub fn numpy_char(self) -> char {
        match self {
            Kind::Bool => 'b',
            Kind::Int => 'i',
            Kind::UInt => 'u',
            Kind::Float => 'f',
            Kind::Complex => 'c',
            Kind::Bytes => 'S',
            Kind::Unicode => 'U',
            Kind::Void | Kind::Struct | Kind::Subarray => 'V',
            Kind::Datetime => 'M',
            Kind::Timedelta => 'm',
            Kind::Object => 'O',
        }
    }
}

/// Unit of a datetime or timedelta dtype.
///
/// ```
/// use b2nd_meta::dtype::{DatetimeUnit, Dtype};
///
/// let dt = Dtype::parse("<M8[10ms]")?;
/// assert_eq!(dt.datetime_unit(), Some((DatetimeUnit::Millisecond, 10)));
/// assert_eq!(DatetimeUnit::Millisecond.as_str(), "ms");
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DatetimeUnit {
    /// No unit yet (`M8`, `M8[generic]`).
    Generic,
    /// Years (`Y`).
    Year,
    /// Months (`M`).
    Month,
    /// Weeks (`W`).
    Week,
    /// Days (`D`).
    Day,
    /// Hours (`h`).
    Hour,
    /// Minutes (`m`).
    Minute,
    /// Seconds (`s`).
    Second,
    /// Milliseconds (`ms`).
    Millisecond,
    /// Microseconds (`us`; `μs` is accepted on input).
    Microsecond,
    /// Nanoseconds (`ns`).
    Nanosecond,
    /// Picoseconds (`ps`).
    Picosecond,
    /// Femtoseconds (`fs`).
    Femtosecond,
    /// Attoseconds (`as`).
    Attosecond,
}

impl DatetimeUnit {
    /// NumPy's name of the unit: `"generic"`, `"Y"`, `"M"`, `"W"`, `"D"`,
    /// `"h"`, `"m"`, `"s"`, `"ms"`, `"us"`, `"ns"`, `"ps"`, `"fs"` or `"as"`.
    pub fn as_str(self) -> &'static str {
        match self {
            DatetimeUnit::Generic => "generic",
            DatetimeUnit::Year => "Y",
            DatetimeUnit::Month => "M",
            DatetimeUnit::Week => "W",
            DatetimeUnit::Day => "D",
            DatetimeUnit::Hour => "h",
            DatetimeUnit::Minute => "m",
            DatetimeUnit::Second => "s",
            DatetimeUnit::Millisecond => "ms",
            DatetimeUnit::Microsecond => "us",
            DatetimeUnit::Nanosecond => "ns",
            DatetimeUnit::Picosecond => "ps",
            DatetimeUnit::Femtosecond => "fs",
            DatetimeUnit::Attosecond => "as",
        }
    }

    pub(super) fn from_name(s: &str) -> Option<DatetimeUnit> {
        Some(match s {
            "generic" => DatetimeUnit::Generic,
            "Y" => DatetimeUnit::Year,
            "M" => DatetimeUnit::Month,
            "W" => DatetimeUnit::Week,
            "D" => DatetimeUnit::Day,
            "h" => DatetimeUnit::Hour,
            "m" => DatetimeUnit::Minute,
            "s" => DatetimeUnit::Second,
            "ms" => DatetimeUnit::Millisecond,
            "us" | "\u{3bc}s" => DatetimeUnit::Microsecond,
            "ns" => DatetimeUnit::Nanosecond,
            "ps" => DatetimeUnit::Picosecond,
            "fs" => DatetimeUnit::Femtosecond,
            "as" => DatetimeUnit::Attosecond,
            _ => return None,
        })
    }
}
