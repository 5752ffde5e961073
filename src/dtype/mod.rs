//! Typed NumPy dtypes, parsed from the dtype string of the `b2nd` metalayer.
//!
//! A `b2nd` metalayer with `dtype_format` 0 stores its element type as a NumPy
//! dtype string. python-blosc2 writes `dtype.str` (e.g. `'<i4'`, `'|S5'`,
//! `'<M8[ns]'`) for ordinary dtypes and `str(dtype)` for those of kind `'V'`,
//! which for structured dtypes is the Python literal NumPy prints, e.g.
//! `"[('a', '<i4'), ('b', '<f8', (2,))]"`. C-Blosc2 writes `'|u1'` when given no
//! dtype, and older layouts used NumPy names such as `"int32"`. [`Dtype`]
//! parses all of these and prints them back the way python-blosc2 would store
//! them.
//!
//! ```
//! use b2nd_meta::dtype::{ByteOrder, Dtype, Kind};
//!
//! let dt: Dtype = "[('a', '<i4'), ('b', '<f8', (2,))]".parse()?;
//! assert_eq!(dt.kind(), Kind::Struct);
//! assert_eq!(dt.itemsize(), 20);
//! let fields = dt.fields().unwrap();
//! assert_eq!(fields[1].name(), "b");
//! assert_eq!(fields[1].offset(), 4);
//! assert_eq!(fields[1].shape(), &[2]);
//! assert_eq!(fields[1].base().byte_order(), ByteOrder::Little);
//! assert_eq!(dt.to_string(), "[('a', '<i4'), ('b', '<f8', (2,))]");
//!
//! // Non-canonical spellings are accepted and printed canonically.
//! assert_eq!(Dtype::parse("int32")?.to_string(), "<i4");
//! assert_eq!(Dtype::parse("=f8")?.to_string(), "<f8");
//! # Ok::<(), b2nd_meta::dtype::DtypeError>(())
//! ```
//!
//! # Accepted input
//!
//! * Type strings: an optional byte-order character (`<`, `>`, `=`, `|`)
//!   followed by a kind and size (`i4`, `u1`, `b1`, `f2`, `c16`, `S5`, `a5`,
//!   `U3`, `V8`, `O`, `M8[ns]`, `m8[10ms]`, `M8`), or a platform-independent
//!   NumPy character code (`?`, `b`, `B`, `h`, `H`, `i`, `I`, `q`, `Q`, `e`,
//!   `f`, `d`, `F`, `D`, `S`, `a`, `c`, `U`, `V`, `O`, `M`, `m`).
//! * NumPy names: `bool`, `bool_`, `int8` to `int64`, `uint8` to `uint64`,
//!   `float16` to `float128`, `complex64` to `complex256`, the C-style names
//!   NumPy fixes to one size (`byte`, `short`, `intc`, `longlong`, `half`,
//!   `single`, `double`, `float`, `complex`, `csingle`, `cdouble` and their
//!   unsigned forms), `object`, `str`, `bytes`, `void`, and `datetime64` /
//!   `timedelta64` with an optional `[unit]`.
//! * Python literals as printed by NumPy's `str(dtype)`, and as accepted by
//!   `np.dtype(ast.literal_eval(s))` (which is how python-blosc2 reads them):
//!   the list-of-tuples form `[('name', format), (('title', 'name'), format,
//!   shape)]`, the dict form with `names`, `formats`, and optional `offsets`,
//!   `titles`, `itemsize` and `aligned` keys, the subarray tuple
//!   `(format, shape)`, and a quoted type string (`"'<i4'"`). Formats nest.
//!   Strings may use either quote and Python escapes; whitespace and trailing
//!   commas are allowed as in Python.
//!
//! # Byte order
//!
//! NumPy resolves `=` (native), a missing byte-order character, and `|` on a
//! multi-byte type to the byte order of the machine it runs on. Parsing here
//! must not depend on the host, and Blosc2 data is little-endian in practice,
//! so these are always resolved to [`ByteOrder::Little`]: the result is what
//! NumPy gives on every little-endian machine. The order of types for which it
//! does not matter (`b1`, `i1`, `u1`, `S`, `V`, `O`, structs) is
//! [`ByteOrder::NotApplicable`], whatever the input said. [`Display`] never
//! prints `=`.
//!
//! # Canonical form
//!
//! [`Display`] prints what python-blosc2 stores: NumPy's `dtype.str` for
//! dtypes that are neither structured nor subarrays (`'|b1'`, `'<i4'`,
//! `'|S5'`, `'<U3'`, `'|V8'`, `'|O'`, `'<M8[ns]'`), and NumPy's `str(dtype)`
//! otherwise. Inside a struct, formats are printed the way NumPy prints them
//! there (`'?'`, `'u1'`, `'S5'`, `'O'`, `'<i4'`). A struct is printed as a
//! list of tuples when its fields follow each other without gaps, and as a
//! dict with explicit offsets and itemsize otherwise (or when it is an aligned
//! struct at the top level). Parsing a string NumPy produced and printing it
//! gives the same string back.
//!
//! # Limits
//!
//! Parsing never panics and never allocates more than a small multiple of the
//! input's length. Structs and subarrays nest at most [`MAX_NESTING`] levels,
//! a subarray has at most [`MAX_NDIM`] dimensions, every size, offset and
//! itemsize is at most [`MAX_ITEMSIZE`] (NumPy itself stops at `i32::MAX`),
//! and a datetime multiple is at most `i32::MAX` (as in NumPy). Going past a
//! limit is a [`DtypeError`].
//!
//! # Not supported
//!
//! Comma-separated format strings (`'i4,f8'`, `'(2,)i4'`), platform-dependent
//! names and codes (`int`, `uint`, `intp`, `long`, `longdouble`, `l`, `L`,
//! `g`, `G`, `p`, `P`, `n`, `N`), `StringDType` (`'T'`), the datetime event
//! syntax (`'M8[ns/2]'`), record types (`(numpy.record, [...])`), the union
//! form `(base, fields)`, titles that are not strings, and string prefixes or
//! implicit concatenation in Python literals.
//!
//! [`Display`]: core::fmt::Display

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

mod build;
mod display;
mod literal;
mod typestr;

use build::*;
use literal::*;
use typestr::*;

/// Deepest nesting of structs and subarrays inside a dtype.
///
/// The top-level dtype is level 0; a field's dtype and a subarray's element
/// dtype are one level deeper than the dtype holding them.
pub const MAX_NESTING: usize = 32;

/// Most dimensions a subarray shape may have (NumPy's `NPY_MAXDIMS`).
pub const MAX_NDIM: usize = 64;

/// Largest accepted size in bytes of any dtype, field offset or subarray
/// dimension (`i64::MAX`, so every size fits Blosc2's 64-bit signed sizes).
pub const MAX_ITEMSIZE: u64 = i64::MAX as u64;

/// Largest accepted multiple in a datetime unit such as `M8[10ms]` (NumPy
/// stores it in a C `int`).
const MAX_DATETIME_MULTIPLE: u64 = i32::MAX as u64;

/// Deepest nesting of brackets in a Python literal. Generous enough that
/// [`MAX_NESTING`] is always the limit hit first by a dtype.
const MAX_LITERAL_DEPTH: usize = 4 * MAX_NESTING + 8;

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

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

    fn from_name(s: &str) -> Option<DatetimeUnit> {
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

/// A NumPy dtype: the element type of a `b2nd` array.
///
/// Values come from [`Dtype::parse`] (or [`str::parse`]) and
/// [`Dtype::for_typesize`], so every `Dtype` is valid: its sizes are within
/// [`MAX_ITEMSIZE`], its nesting within [`MAX_NESTING`], and its [`Display`]
/// output parses back to an equal `Dtype`. Equality is structural and, unlike
/// NumPy's, tells an aligned struct from an unaligned one with the same
/// layout (they print differently).
///
/// ```
/// use b2nd_meta::dtype::{ByteOrder, Dtype, Kind};
///
/// let dt = Dtype::parse("<U3")?;
/// assert_eq!(dt.kind(), Kind::Unicode);
/// assert_eq!(dt.byte_order(), ByteOrder::Little);
/// assert_eq!(dt.string_len(), Some(3));
/// assert_eq!(dt.itemsize(), 12);
/// assert_eq!(dt.to_string(), "<U3");
/// assert_eq!(format!("{dt:?}"), r#"Dtype("<U3")"#);
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
///
/// [`Display`]: core::fmt::Display
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Dtype {
    repr: Repr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Bool,
    /// `kind` is one of Int, UInt, Float, Complex; `size` is valid for it and
    /// `order` is NotApplicable exactly when `size` is 1.
    Number {
        kind: Kind,
        size: u8,
        order: ByteOrder,
    },
    Bytes(u64),
    /// Length in characters; `4 * len <= MAX_ITEMSIZE`; order Little or Big.
    Unicode {
        len: u64,
        order: ByteOrder,
    },
    Void(u64),
    /// `multiple` is 1 when `unit` is Generic; order Little or Big.
    Time {
        delta: bool,
        unit: DatetimeUnit,
        multiple: u32,
        order: ByteOrder,
    },
    Object,
    Subarray(Box<Subarray>),
    Struct(Box<Struct>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Subarray {
    base: Dtype,
    /// Never empty.
    shape: Vec<u64>,
    itemsize: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Struct {
    fields: Vec<Field>,
    itemsize: u64,
    aligned: bool,
    /// Cached alignment: the largest field alignment when aligned, else 1.
    alignment: u64,
}

/// One named field of a structured [`Dtype`].
///
/// ```
/// use b2nd_meta::dtype::Dtype;
///
/// let dt = Dtype::parse("[(('Temperature', 'temp'), '<f4', (2, 3))]")?;
/// let field = &dt.fields().unwrap()[0];
/// assert_eq!(field.name(), "temp");
/// assert_eq!(field.title(), Some("Temperature"));
/// assert_eq!(field.offset(), 0);
/// assert_eq!(field.shape(), &[2, 3]);
/// assert_eq!(field.base().to_string(), "<f4");
/// assert_eq!(field.dtype().itemsize(), 24);
/// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    name: String,
    title: Option<String>,
    dtype: Dtype,
    offset: u64,
}

impl Field {
    /// The field's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The field's title (NumPy's alternative name), if it has one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The field's full dtype, a [`Kind::Subarray`] when the field has a
    /// shape.
    pub fn dtype(&self) -> &Dtype {
        &self.dtype
    }

    /// Byte offset of the field from the start of the struct.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The field's subarray shape; empty for a scalar field.
    pub fn shape(&self) -> &[u64] {
        match self.dtype.subarray() {
            Some((_, shape)) => shape,
            None => &[],
        }
    }

    /// The dtype of one element of the field: the subarray's element dtype
    /// when the field has a shape, else the field's dtype.
    pub fn base(&self) -> &Dtype {
        match self.dtype.subarray() {
            Some((base, _)) => base,
            None => &self.dtype,
        }
    }
}

/// Why a dtype string could not be parsed, and where.
///
/// ```
/// use b2nd_meta::dtype::Dtype;
///
/// let err = Dtype::parse("<i3").unwrap_err();
/// assert_eq!(err.offset(), 2);
/// assert_eq!(err.found(), "\"3\"");
/// assert_eq!(
///     err.to_string(),
///     "invalid dtype at byte 2: expected a size of 1, 2, 4 or 8 bytes for kind 'i', found \"3\""
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid dtype at byte {offset}: expected {expected}, found {found}")]
pub struct DtypeError {
    offset: usize,
    expected: String,
    found: String,
}

impl DtypeError {
    /// Byte offset into the parsed string where parsing failed.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What the parser expected at [`offset`](Self::offset).
    pub fn expected(&self) -> &str {
        &self.expected
    }

    /// What it found there: a quoted excerpt of the input, `end of input`,
    /// or a description of an invalid value.
    pub fn found(&self) -> &str {
        &self.found
    }
}

// ---------------------------------------------------------------------------
// Dtype: constructors and accessors
// ---------------------------------------------------------------------------

impl Dtype {
    /// Parses a NumPy dtype string in any of the forms described in the
    /// [module documentation](self).
    ///
    /// ```
    /// use b2nd_meta::dtype::{Dtype, Kind};
    ///
    /// let dt = Dtype::parse(
    ///     "{'names': ['x', 'y'], 'formats': ['u1', '<i8'], 'offsets': [0, 8], 'itemsize': 16}",
    /// )?;
    /// assert_eq!(dt.kind(), Kind::Struct);
    /// assert_eq!(dt.itemsize(), 16);
    /// assert_eq!(dt.fields().unwrap()[1].offset(), 8);
    ///
    /// let err = Dtype::parse("<M8[parsec]").unwrap_err();
    /// assert_eq!(err.offset(), 4);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`DtypeError`] with the byte offset of the first problem when the
    /// string is not a dtype this crate understands, or when a size, the
    /// nesting depth or the number of dimensions goes past its limit.
    pub fn parse(s: &str) -> Result<Dtype, DtypeError> {
        let start = skip_ws(s, 0);
        match s.as_bytes().get(start) {
            Some(b'[' | b'(' | b'{' | b'\'' | b'"') => {
                let mut lexer = Lexer { src: s, pos: start };
                let lit = lexer.value(0)?;
                let end = skip_ws(s, lexer.pos);
                if end < s.len() {
                    return Err(error_at(s, end, "end of input"));
                }
                dtype_from_lit(&lit, false, 0)
            }
            _ => parse_typestr(s).map_err(|e| e.relocate(Loc::Shift(0))),
        }
    }

    /// The dtype python-blosc2 assumes for an array whose metadata has no
    /// dtype: a byte string of `typesize` bytes, `|S<typesize>`.
    ///
    /// python-blosc2 uses `np.dtype(f"S{typesize}")` when a `caterva`
    /// metalayer (or a `b2nd` metalayer without dtype) gives only the
    /// Blosc2 typesize.
    ///
    /// ```
    /// use b2nd_meta::dtype::{Dtype, Kind};
    ///
    /// let dt = Dtype::for_typesize(8);
    /// assert_eq!(dt.to_string(), "|S8");
    /// assert_eq!(dt.kind(), Kind::Bytes);
    /// assert_eq!(dt.itemsize(), 8);
    /// ```
    pub fn for_typesize(typesize: u32) -> Dtype {
        Dtype::of(Repr::Bytes(u64::from(typesize)))
    }

    /// What sort of values this dtype describes.
    ///
    /// ```
    /// use b2nd_meta::dtype::{Dtype, Kind};
    ///
    /// assert_eq!(Dtype::parse("|b1")?.kind(), Kind::Bool);
    /// assert_eq!(Dtype::parse("[('a', '<i4')]")?.kind(), Kind::Struct);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn kind(&self) -> Kind {
        match &self.repr {
            Repr::Bool => Kind::Bool,
            Repr::Number { kind, .. } => *kind,
            Repr::Bytes(_) => Kind::Bytes,
            Repr::Unicode { .. } => Kind::Unicode,
            Repr::Void(_) => Kind::Void,
            Repr::Time { delta: false, .. } => Kind::Datetime,
            Repr::Time { delta: true, .. } => Kind::Timedelta,
            Repr::Object => Kind::Object,
            Repr::Subarray(_) => Kind::Subarray,
            Repr::Struct(_) => Kind::Struct,
        }
    }

    /// Byte order of the values; [`ByteOrder::NotApplicable`] for
    /// single-byte numbers, booleans, byte strings, void, objects, structs
    /// and subarrays.
    ///
    /// ```
    /// use b2nd_meta::dtype::{ByteOrder, Dtype};
    ///
    /// assert_eq!(Dtype::parse(">M8[us]")?.byte_order(), ByteOrder::Big);
    /// assert_eq!(Dtype::parse("|S5")?.byte_order(), ByteOrder::NotApplicable);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn byte_order(&self) -> ByteOrder {
        match &self.repr {
            Repr::Number { order, .. } | Repr::Unicode { order, .. } | Repr::Time { order, .. } => {
                *order
            }
            _ => ByteOrder::NotApplicable,
        }
    }

    /// Size of one value in bytes, at most [`MAX_ITEMSIZE`].
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("<U3")?.itemsize(), 12);
    /// assert_eq!(Dtype::parse("|O")?.itemsize(), 8);
    /// assert_eq!(Dtype::parse("[('a', '<i4', (2, 3))]")?.itemsize(), 24);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn itemsize(&self) -> u64 {
        match &self.repr {
            Repr::Bool => 1,
            Repr::Number { size, .. } => u64::from(*size),
            Repr::Bytes(n) | Repr::Void(n) => *n,
            // Bounded by MAX_ITEMSIZE at construction, so this never saturates.
            Repr::Unicode { len, .. } => len.saturating_mul(4),
            Repr::Time { .. } | Repr::Object => 8,
            Repr::Subarray(sub) => sub.itemsize,
            Repr::Struct(st) => st.itemsize,
        }
    }

    /// Unit and multiple of a datetime or timedelta dtype (`M8[10ms]` gives
    /// `(Millisecond, 10)`, `M8` gives `(Generic, 1)`); `None` for other
    /// kinds.
    ///
    /// ```
    /// use b2nd_meta::dtype::{DatetimeUnit, Dtype};
    ///
    /// assert_eq!(
    ///     Dtype::parse("<m8[s]")?.datetime_unit(),
    ///     Some((DatetimeUnit::Second, 1))
    /// );
    /// assert_eq!(Dtype::parse("<i8")?.datetime_unit(), None);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn datetime_unit(&self) -> Option<(DatetimeUnit, u32)> {
        match &self.repr {
            Repr::Time { unit, multiple, .. } => Some((*unit, *multiple)),
            _ => None,
        }
    }

    /// Length of a string dtype: bytes for [`Kind::Bytes`], characters for
    /// [`Kind::Unicode`]; `None` for other kinds.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("|S5")?.string_len(), Some(5));
    /// assert_eq!(Dtype::parse("<U3")?.string_len(), Some(3));
    /// assert_eq!(Dtype::parse("|V8")?.string_len(), None);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn string_len(&self) -> Option<u64> {
        match &self.repr {
            Repr::Bytes(n) => Some(*n),
            Repr::Unicode { len, .. } => Some(*len),
            _ => None,
        }
    }

    /// The fields of a structured dtype, in declaration order; `None` for
    /// other kinds.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// let dt = Dtype::parse("[('a', '<i4'), ('b', '<f8')]")?;
    /// let names: Vec<&str> = dt.fields().unwrap().iter().map(|f| f.name()).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// assert!(Dtype::parse("<i4")?.fields().is_none());
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn fields(&self) -> Option<&[Field]> {
        match &self.repr {
            Repr::Struct(st) => Some(&st.fields),
            _ => None,
        }
    }

    /// Whether this is a struct laid out with C alignment (NumPy's
    /// `isalignedstruct`, from an `'aligned': True` dict entry).
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// let dt = Dtype::parse("{'names': ['a', 'b'], 'formats': ['i1', '<i4'], 'aligned': True}")?;
    /// assert!(dt.is_aligned_struct());
    /// assert_eq!(dt.fields().unwrap()[1].offset(), 4);
    /// assert_eq!(
    ///     dt.to_string(),
    ///     "{'names': ['a', 'b'], 'formats': ['i1', '<i4'], 'offsets': [0, 4], 'itemsize': 8, 'aligned': True}"
    /// );
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn is_aligned_struct(&self) -> bool {
        matches!(&self.repr, Repr::Struct(st) if st.aligned)
    }

    /// Element dtype and shape of a subarray dtype; `None` for other kinds.
    /// The shape is never empty.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// let dt = Dtype::parse("('<i4', (2, 3))")?;
    /// let (base, shape) = dt.subarray().unwrap();
    /// assert_eq!(base.to_string(), "<i4");
    /// assert_eq!(shape, &[2, 3]);
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    pub fn subarray(&self) -> Option<(&Dtype, &[u64])> {
        match &self.repr {
            Repr::Subarray(sub) => Some((&sub.base, &sub.shape)),
            _ => None,
        }
    }

    /// NumPy's `dtype.alignment` (as on x86-64 Linux).
    fn alignment(&self) -> u64 {
        match &self.repr {
            Repr::Number {
                kind: Kind::Complex,
                size,
                ..
            } => u64::from(*size / 2),
            Repr::Number { size, .. } => u64::from(*size),
            Repr::Bool | Repr::Bytes(_) | Repr::Void(_) => 1,
            Repr::Unicode { .. } => 4,
            Repr::Time { .. } | Repr::Object => 8,
            Repr::Subarray(sub) => sub.base.alignment(),
            Repr::Struct(st) => st.alignment,
        }
    }

    fn of(repr: Repr) -> Dtype {
        Dtype { repr }
    }

    /// NumPy's `PyDataType_ISUNSIZED`: size 0 and no fields.
    fn is_unsized(&self) -> bool {
        self.itemsize() == 0 && !matches!(self.repr, Repr::Struct(_))
    }
}

impl FromStr for Dtype {
    type Err = DtypeError;

    /// Same as [`Dtype::parse`].
    fn from_str(s: &str) -> Result<Dtype, DtypeError> {
        Dtype::parse(s)
    }
}

// ---------------------------------------------------------------------------
// Errors: construction and location
// ---------------------------------------------------------------------------

/// How offsets inside a sub-string map to offsets in the whole input.
#[derive(Clone, Copy)]
enum Loc {
    /// The sub-string is the input verbatim from this offset.
    Shift(usize),
    /// The sub-string was decoded (escapes); report this offset instead.
    Fixed(usize),
}

impl DtypeError {
    fn new(offset: usize, expected: impl Into<String>, found: impl Into<String>) -> DtypeError {
        DtypeError {
            offset,
            expected: expected.into(),
            found: found.into(),
        }
    }

    fn relocate(mut self, loc: Loc) -> DtypeError {
        self.offset = match loc {
            Loc::Shift(base) => base.saturating_add(self.offset),
            Loc::Fixed(at) => at,
        };
        self
    }
}

/// A short quoted excerpt of `s` from `pos`, or `end of input`.
fn excerpt(s: &str, pos: usize) -> String {
    match s.get(pos..) {
        None => String::from("invalid position"),
        Some("") => String::from("end of input"),
        Some(rest) => {
            let mut short: String = rest.chars().take(16).collect();
            if short.len() < rest.len() {
                short.push_str("...");
            }
            format!("{short:?}")
        }
    }
}

fn error_at(s: &str, pos: usize, expected: impl Into<String>) -> DtypeError {
    DtypeError::new(pos, expected, excerpt(s, pos))
}

// ---------------------------------------------------------------------------
// serde
// ---------------------------------------------------------------------------

impl serde::Serialize for Dtype {
    /// Serializes as the canonical string (see [`Display`](core::fmt::Display)).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Dtype {
    /// Deserializes from a string (or UTF-8 bytes) in any form
    /// [`Dtype::parse`] accepts.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Dtype, D::Error> {
        struct Visitor;

        impl serde::de::Visitor<'_> for Visitor {
            type Value = Dtype;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a NumPy dtype string")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Dtype, E> {
                Dtype::parse(v).map_err(E::custom)
            }

            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Dtype, E> {
                match core::str::from_utf8(v) {
                    Ok(s) => self.visit_str(s),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(v), &self)),
                }
            }
        }

        deserializer.deserialize_str(Visitor)
    }
}
