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

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

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
// Type strings
// ---------------------------------------------------------------------------

fn number(kind: Kind, size: u8, order: ByteOrder) -> Dtype {
    let order = if size == 1 {
        ByteOrder::NotApplicable
    } else {
        order
    };
    Dtype::of(Repr::Number { kind, size, order })
}

fn named_dtype(name: &str) -> Option<Dtype> {
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

const PLATFORM_DEPENDENT: &[&str] = &[
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

fn time(delta: bool, order: ByteOrder, meta: (DatetimeUnit, u32)) -> Dtype {
    Dtype::of(Repr::Time {
        delta,
        unit: meta.0,
        multiple: meta.1,
        order,
    })
}

/// Parses a decimal number of at most `max`; `digits` is non-empty ASCII
/// digits. Returns `None` past `max`.
fn parse_decimal(digits: &str, max: u64) -> Option<u64> {
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

fn count_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// Parses `[unit]` / `[Nunit]` starting at `pos` (which holds `[`) and
/// requires it to end `t`.
fn parse_time_meta(t: &str, pos: usize) -> Result<(DatetimeUnit, u32), DtypeError> {
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
                return Err(DtypeError::new(
                    inner_start,
                    format!("a datetime multiple of at most {MAX_DATETIME_MULTIPLE}"),
                    format!("{digits:?}"),
                ))
            }
        }
    };
    let unit_pos = inner_start.saturating_add(ndigits);
    let Some(unit) = DatetimeUnit::from_name(unit_str) else {
        return Err(DtypeError::new(
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
fn parse_typestr(t: &str) -> Result<Dtype, DtypeError> {
    if t.is_empty() {
        return Err(DtypeError::new(0, "a dtype", "end of input"));
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
        return Err(DtypeError::new(
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
        return Err(DtypeError::new(
            kind_pos,
            "a type character",
            "end of input",
        ));
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
                return Err(DtypeError::new(
                    size_pos,
                    format!("a size of at most {MAX_ITEMSIZE}"),
                    format!("{digits:?}"),
                ))
            }
        }
    };
    let bad_size = |expected: &str| {
        DtypeError::new(
            size_pos,
            format!("a size of {expected} bytes for kind '{kind_char}'"),
            format!("{digits:?}"),
        )
    };
    let no_size = || {
        DtypeError::new(
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
                return Err(DtypeError::new(
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
                return Err(DtypeError::new(
                    kind_pos,
                    "a type code whose size does not depend on the platform",
                    format!("'{c}'"),
                ))
            }
            _ => return Err(unknown_kind(t, kind_pos)),
        },
        ('?' | 'B' | 'h' | 'H' | 'I' | 'q' | 'Q' | 'e' | 'd' | 'F' | 'D', Some(_)) => {
            return Err(no_size())
        }
        (_, Some(_)) => return Err(unknown_kind(t, kind_pos)),
    };
    if end_pos < t.len() {
        return Err(error_at(t, end_pos, "end of dtype"));
    }
    Ok(dtype)
}

fn unknown_kind(t: &str, pos: usize) -> DtypeError {
    error_at(
        t,
        pos,
        "a dtype kind (b, i, u, f, c, S, a, U, V, O, M, m), type code or NumPy type name",
    )
}

// ---------------------------------------------------------------------------
// Python literals
// ---------------------------------------------------------------------------

/// A parsed Python literal; every variant records its start offset.
enum Lit<'a> {
    /// `verbatim` when the string had no escapes, so its text is the input
    /// from `pos + 1` on.
    Str {
        text: Cow<'a, str>,
        pos: usize,
        verbatim: bool,
    },
    Int {
        value: u64,
        negative: bool,
        pos: usize,
    },
    Bool(bool, usize),
    None(usize),
    List(Vec<Lit<'a>>, usize),
    Tuple(Vec<Lit<'a>>, usize),
    Dict(Vec<(Lit<'a>, Lit<'a>)>, usize),
}

impl Lit<'_> {
    fn pos(&self) -> usize {
        match self {
            Lit::Str { pos, .. } | Lit::Int { pos, .. } => *pos,
            Lit::Bool(_, pos)
            | Lit::None(pos)
            | Lit::List(_, pos)
            | Lit::Tuple(_, pos)
            | Lit::Dict(_, pos) => *pos,
        }
    }

    fn describe(&self) -> String {
        match self {
            Lit::Str { text, .. } => format!("the string {}", excerpt(text, 0)),
            Lit::Int {
                value, negative, ..
            } => {
                if *negative {
                    format!("the integer -{value}")
                } else {
                    format!("the integer {value}")
                }
            }
            Lit::Bool(b, _) => String::from(if *b { "True" } else { "False" }),
            Lit::None(_) => String::from("None"),
            Lit::List(items, _) => format!("a list of {} items", items.len()),
            Lit::Tuple(items, _) => format!("a tuple of {} items", items.len()),
            Lit::Dict(items, _) => format!("a dict of {} items", items.len()),
        }
    }

    /// The elements of a list or tuple.
    fn sequence(&self) -> Option<&[Lit<'_>]> {
        match self {
            Lit::List(items, _) | Lit::Tuple(items, _) => Some(items),
            _ => None,
        }
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

fn skip_ws(s: &str, mut pos: usize) -> usize {
    while s.as_bytes().get(pos).is_some_and(|b| is_ws(*b)) {
        pos = pos.saturating_add(1);
    }
    pos
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    fn skip_ws(&mut self) {
        self.pos = skip_ws(self.src, self.pos);
    }

    fn err(&self, expected: impl Into<String>) -> DtypeError {
        error_at(self.src, self.pos, expected)
    }

    fn value(&mut self, depth: usize) -> Result<Lit<'a>, DtypeError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            None => Err(self.err("a value")),
            Some(open @ (b'[' | b'(' | b'{')) => {
                if depth >= MAX_LITERAL_DEPTH {
                    return Err(DtypeError::new(
                        start,
                        format!("at most {MAX_LITERAL_DEPTH} nested brackets"),
                        "deeper nesting",
                    ));
                }
                self.bump();
                match open {
                    b'[' => Ok(Lit::List(self.items(b']', depth)?, start)),
                    b'{' => self.dict(start, depth),
                    _ => self.paren(start, depth),
                }
            }
            Some(q @ (b'\'' | b'"')) => self.string(q),
            Some(b'-' | b'+' | b'0'..=b'9') => self.int(),
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => {
                let len = self
                    .src
                    .as_bytes()
                    .get(start..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                let word = self.src.get(start..start.saturating_add(len)).unwrap_or("");
                let lit = match word {
                    "True" => Lit::Bool(true, start),
                    "False" => Lit::Bool(false, start),
                    "None" => Lit::None(start),
                    _ => return Err(self.err("a Python literal")),
                };
                self.pos = start.saturating_add(len);
                Ok(lit)
            }
            Some(_) => Err(self.err("a Python literal")),
        }
    }

    /// Comma-separated values up to `close`; the opening bracket is consumed.
    fn items(&mut self, close: u8, depth: usize) -> Result<Vec<Lit<'a>>, DtypeError> {
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(close) {
                self.bump();
                return Ok(items);
            }
            items.push(self.value(depth.saturating_add(1))?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(c) if c == close => {}
                _ => return Err(self.err(format!("',' or '{}'", char::from(close)))),
            }
        }
    }

    /// After `(`: a parenthesized value or a tuple.
    fn paren(&mut self, start: usize, depth: usize) -> Result<Lit<'a>, DtypeError> {
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.bump();
            return Ok(Lit::Tuple(Vec::new(), start));
        }
        let first = self.value(depth.saturating_add(1))?;
        self.skip_ws();
        match self.peek() {
            Some(b')') => {
                self.bump();
                Ok(first)
            }
            Some(b',') => {
                self.bump();
                let mut items = self.items(b')', depth)?;
                items.insert(0, first);
                Ok(Lit::Tuple(items, start))
            }
            _ => Err(self.err("',' or ')'")),
        }
    }

    fn dict(&mut self, start: usize, depth: usize) -> Result<Lit<'a>, DtypeError> {
        let mut entries = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(b'}') {
                self.bump();
                return Ok(Lit::Dict(entries, start));
            }
            let key = self.value(depth.saturating_add(1))?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("':'"));
            }
            self.bump();
            let value = self.value(depth.saturating_add(1))?;
            entries.push((key, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(b'}') => {}
                _ => return Err(self.err("',' or '}'")),
            }
        }
    }

    fn int(&mut self) -> Result<Lit<'a>, DtypeError> {
        let start = self.pos;
        let negative = match self.peek() {
            Some(b'-') => {
                self.bump();
                true
            }
            Some(b'+') => {
                self.bump();
                false
            }
            _ => false,
        };
        let digits_start = self.pos;
        let rest = self.src.get(digits_start..).unwrap_or("");
        let ndigits = count_digits(rest);
        let digits = rest.get(..ndigits).unwrap_or("");
        if digits.is_empty() {
            return Err(self.err("a decimal digit"));
        }
        self.pos = digits_start.saturating_add(ndigits);
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            return Err(self.err("a decimal integer (no underscores, fractions or prefixes)"));
        }
        if digits.len() > 1 && digits.starts_with('0') && digits.bytes().any(|b| b != b'0') {
            return Err(DtypeError::new(
                digits_start,
                "a decimal integer without leading zeros",
                format!("{digits:?}"),
            ));
        }
        let Some(value) = parse_decimal(digits, u64::MAX) else {
            return Err(DtypeError::new(
                digits_start,
                format!("an integer of at most {}", u64::MAX),
                format!("{digits:?}"),
            ));
        };
        Ok(Lit::Int {
            value,
            negative,
            pos: start,
        })
    }

    fn string(&mut self, quote: u8) -> Result<Lit<'a>, DtypeError> {
        let start = self.pos;
        let body_start = start.saturating_add(1);
        let body = self.src.get(body_start..).unwrap_or("");
        let unterminated = || {
            DtypeError::new(
                start,
                format!("a string closed by {}", char::from(quote)),
                "an unterminated string",
            )
        };
        // Fast path: no escapes.
        let mut owned: Option<String> = None;
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                c if c == char::from(quote) => {
                    self.pos = body_start.saturating_add(i).saturating_add(1);
                    let (text, verbatim) = match owned {
                        Some(s) => (Cow::Owned(s), false),
                        None => (Cow::Borrowed(body.get(..i).unwrap_or("")), true),
                    };
                    return Ok(Lit::Str {
                        text,
                        pos: start,
                        verbatim,
                    });
                }
                '\n' | '\r' => return Err(unterminated()),
                '\\' => {
                    let buf =
                        owned.get_or_insert_with(|| String::from(body.get(..i).unwrap_or("")));
                    let esc_pos = body_start.saturating_add(i);
                    let bad_escape =
                        |what: &str| DtypeError::new(esc_pos, what, excerpt(self.src, esc_pos));
                    let Some((_, e)) = chars.next() else {
                        return Err(unterminated());
                    };
                    match e {
                        '\n' => {}
                        '\\' | '\'' | '"' => buf.push(e),
                        'n' => buf.push('\n'),
                        'r' => buf.push('\r'),
                        't' => buf.push('\t'),
                        'a' => buf.push('\x07'),
                        'b' => buf.push('\x08'),
                        'f' => buf.push('\x0c'),
                        'v' => buf.push('\x0b'),
                        '0'..='7' => {
                            let mut value = e.to_digit(8).unwrap_or(0);
                            for _ in 0..2 {
                                let next = chars.clone().next();
                                match next.and_then(|(_, d)| d.to_digit(8)) {
                                    Some(d) => {
                                        value = value * 8 + d;
                                        chars.next();
                                    }
                                    None => break,
                                }
                            }
                            // At most 0o777, always a valid char.
                            buf.push(char::from_u32(value).unwrap_or('\u{fffd}'));
                        }
                        'x' | 'u' | 'U' => {
                            let n = match e {
                                'x' => 2,
                                'u' => 4,
                                _ => 8,
                            };
                            let mut value: u32 = 0;
                            for _ in 0..n {
                                match chars.next().and_then(|(_, d)| d.to_digit(16)) {
                                    Some(d) => value = (value << 4) | d,
                                    None => {
                                        return Err(bad_escape(&format!(
                                            "\\{e} followed by {n} hex digits"
                                        )))
                                    }
                                }
                            }
                            match char::from_u32(value) {
                                Some(c) => buf.push(c),
                                None => {
                                    return Err(bad_escape("an escape of a Unicode scalar value"))
                                }
                            }
                        }
                        'N' => return Err(bad_escape("an escape other than \\N{...}")),
                        other => {
                            // Python keeps unknown escapes as written.
                            buf.push('\\');
                            buf.push(other);
                        }
                    }
                }
                c => {
                    if let Some(buf) = owned.as_mut() {
                        buf.push(c);
                    }
                }
            }
        }
        Err(unterminated())
    }
}

// ---------------------------------------------------------------------------
// From literals to dtypes
// ---------------------------------------------------------------------------

fn nesting_error(pos: usize) -> DtypeError {
    DtypeError::new(
        pos,
        format!("structs and subarrays nested at most {MAX_NESTING} levels deep"),
        "deeper nesting",
    )
}

fn size_error(pos: usize, what: &str) -> DtypeError {
    DtypeError::new(
        pos,
        format!("{what} of at most {MAX_ITEMSIZE} bytes"),
        "a larger size",
    )
}

fn round_up(value: u64, align: u64) -> Option<u64> {
    if align <= 1 {
        return Some(value);
    }
    let rem = value.checked_rem(align)?;
    if rem == 0 {
        Some(value)
    } else {
        value.checked_add(align.checked_sub(rem)?)
    }
}

fn dtype_from_lit(lit: &Lit<'_>, align: bool, depth: usize) -> Result<Dtype, DtypeError> {
    if depth > MAX_NESTING {
        return Err(nesting_error(lit.pos()));
    }
    match lit {
        Lit::Str {
            text,
            pos,
            verbatim,
        } => {
            let loc = if *verbatim {
                Loc::Shift(pos.saturating_add(1))
            } else {
                Loc::Fixed(*pos)
            };
            parse_typestr(text).map_err(|e| e.relocate(loc))
        }
        Lit::List(items, _) => struct_from_list(items, align, depth),
        Lit::Dict(entries, pos) => struct_from_dict(entries, *pos, align, depth),
        Lit::Tuple(items, pos) => match items.as_slice() {
            [base, shape] => {
                let base_dt = dtype_from_lit(base, align, depth.saturating_add(1))?;
                let dims = shape_from_lit(shape)?;
                make_subarray(base_dt, dims, base.pos(), shape.pos())
            }
            _ => Err(DtypeError::new(
                *pos,
                "a (format, shape) tuple of 2 items",
                lit.describe(),
            )),
        },
        other => Err(DtypeError::new(
            other.pos(),
            "a dtype string, list, dict or (format, shape) tuple",
            other.describe(),
        )),
    }
}

fn non_negative(lit: &Lit<'_>, what: &str) -> Result<u64, DtypeError> {
    match lit {
        Lit::Int {
            value,
            negative: false,
            ..
        }
        | Lit::Int {
            value: value @ 0, ..
        } => {
            if *value > MAX_ITEMSIZE {
                Err(DtypeError::new(
                    lit.pos(),
                    format!("{what} of at most {MAX_ITEMSIZE}"),
                    lit.describe(),
                ))
            } else {
                Ok(*value)
            }
        }
        _ => Err(DtypeError::new(
            lit.pos(),
            format!("{what} (a non-negative integer)"),
            lit.describe(),
        )),
    }
}

fn shape_from_lit(lit: &Lit<'_>) -> Result<Vec<u64>, DtypeError> {
    match lit {
        Lit::Int { .. } => Ok(alloc::vec![non_negative(lit, "a dimension")?]),
        Lit::Tuple(items, pos) | Lit::List(items, pos) => {
            if items.len() > MAX_NDIM {
                return Err(DtypeError::new(
                    *pos,
                    format!("a shape of at most {MAX_NDIM} dimensions"),
                    format!("{} dimensions", items.len()),
                ));
            }
            items
                .iter()
                .map(|item| non_negative(item, "a dimension"))
                .collect()
        }
        other => Err(DtypeError::new(
            other.pos(),
            "a shape (an integer or a tuple of integers)",
            other.describe(),
        )),
    }
}

fn make_subarray(
    base: Dtype,
    shape: Vec<u64>,
    base_pos: usize,
    shape_pos: usize,
) -> Result<Dtype, DtypeError> {
    // NumPy checks this before looking at the shape, so `('S0', ())` is an
    // error too.
    if base.is_unsized() {
        return Err(DtypeError::new(
            base_pos,
            "a subarray element type with a size",
            format!("the unsized type {base}"),
        ));
    }
    if shape.is_empty() {
        return Ok(base);
    }
    let itemsize = if shape.contains(&0) {
        0
    } else {
        let mut total = base.itemsize();
        for dim in &shape {
            total = match total.checked_mul(*dim) {
                Some(t) if t <= MAX_ITEMSIZE => t,
                _ => return Err(size_error(shape_pos, "a subarray")),
            };
        }
        total
    };
    Ok(Dtype::of(Repr::Subarray(Box::new(Subarray {
        base,
        shape,
        itemsize,
    }))))
}

/// A field while a struct is being built, with positions for errors.
struct PendingField {
    name: String,
    name_pos: usize,
    title: Option<String>,
    title_pos: usize,
    dtype: Dtype,
    /// Where the field's format starts.
    pos: usize,
}

fn text_of(lit: &Lit<'_>) -> Option<String> {
    match lit {
        Lit::Str { text, .. } => Some(text.to_string()),
        _ => None,
    }
}

fn struct_from_list(items: &[Lit<'_>], align: bool, depth: usize) -> Result<Dtype, DtypeError> {
    let mut pending = Vec::with_capacity(items.len().min(1024));
    for (index, item) in items.iter().enumerate() {
        let parts = match item {
            Lit::Tuple(parts, _) if parts.len() == 2 || parts.len() == 3 => parts,
            other => {
                return Err(DtypeError::new(
                    other.pos(),
                    "a field tuple (name, format) or (name, format, shape)",
                    other.describe(),
                ))
            }
        };
        let (name_lit, format_lit) = match parts.as_slice() {
            [n, f] | [n, f, _] => (n, f),
            _ => {
                return Err(DtypeError::new(
                    item.pos(),
                    "a field tuple",
                    item.describe(),
                ))
            }
        };
        let (title, title_pos, name, name_pos) = match name_lit {
            Lit::Str { .. } => (None, 0, text_of(name_lit), name_lit.pos()),
            Lit::Tuple(pair, _) if pair.len() == 2 => {
                let (title_lit, inner_name) = match pair.as_slice() {
                    [t, n] => (t, n),
                    _ => {
                        return Err(DtypeError::new(
                            name_lit.pos(),
                            "a (title, name) pair",
                            name_lit.describe(),
                        ))
                    }
                };
                let title = match title_lit {
                    Lit::None(_) => None,
                    Lit::Str { .. } => text_of(title_lit),
                    other => {
                        return Err(DtypeError::new(
                            other.pos(),
                            "a field title (a string or None)",
                            other.describe(),
                        ))
                    }
                };
                (
                    title,
                    title_lit.pos(),
                    text_of(inner_name),
                    inner_name.pos(),
                )
            }
            other => {
                return Err(DtypeError::new(
                    other.pos(),
                    "a field name (a string or a (title, name) pair)",
                    other.describe(),
                ))
            }
        };
        let Some(mut name) = name else {
            return Err(DtypeError::new(
                name_pos,
                "a field name (a string)",
                "a non-string",
            ));
        };
        if name.is_empty() {
            if title.is_some() {
                return Err(DtypeError::new(
                    name_pos,
                    "a non-empty field name next to a title",
                    "an empty name",
                ));
            }
            name = format!("f{index}");
        }
        let dtype = match parts.as_slice() {
            [_, _, shape_lit] => {
                let shape = shape_from_lit(shape_lit)?;
                // With a shape, the field's dtype is a subarray and the
                // format is its element, one level further down.
                let format_depth = depth.saturating_add(if shape.is_empty() { 1 } else { 2 });
                let base = dtype_from_lit(format_lit, align, format_depth)?;
                make_subarray(base, shape, format_lit.pos(), shape_lit.pos())?
            }
            _ => dtype_from_lit(format_lit, align, depth.saturating_add(1))?,
        };
        pending.push(PendingField {
            name,
            name_pos,
            title,
            title_pos,
            dtype,
            pos: item.pos(),
        });
    }
    finish_struct(pending, None, None, align)
}

fn struct_from_dict(
    entries: &[(Lit<'_>, Lit<'_>)],
    pos: usize,
    align_in: bool,
    depth: usize,
) -> Result<Dtype, DtypeError> {
    let mut names = None;
    let mut formats = None;
    let mut offsets = None;
    let mut titles = None;
    let mut itemsize = None;
    let mut aligned = None;
    for (key, value) in entries {
        if let Lit::Str { text, .. } = key {
            match text.as_ref() {
                "names" => names = Some(value),
                "formats" => formats = Some(value),
                "offsets" => offsets = Some(value),
                "titles" => titles = Some(value),
                "itemsize" => itemsize = Some(value),
                "aligned" => aligned = Some(value),
                // NumPy ignores other keys.
                _ => {}
            }
        }
    }
    let align = match aligned {
        None => align_in,
        Some(Lit::Bool(b, _)) => align_in || *b,
        Some(other) => {
            return Err(DtypeError::new(
                other.pos(),
                "True or False for 'aligned'",
                other.describe(),
            ))
        }
    };
    let Some(names) = names else {
        return Err(DtypeError::new(
            pos,
            "a dict with a 'names' key",
            "no 'names'",
        ));
    };
    let Some(formats) = formats else {
        return Err(DtypeError::new(
            pos,
            "a dict with a 'formats' key",
            "no 'formats'",
        ));
    };
    let seq = |lit: &Lit<'_>, key: &str| -> Result<usize, DtypeError> {
        lit.sequence().map(<[Lit<'_>]>::len).ok_or_else(|| {
            DtypeError::new(lit.pos(), format!("a list for '{key}'"), lit.describe())
        })
    };
    let n = seq(names, "names")?;
    for (lit, key) in [
        (Some(formats), "formats"),
        (offsets, "offsets"),
        (titles, "titles"),
    ] {
        if let Some(lit) = lit {
            let len = seq(lit, key)?;
            if len != n {
                return Err(DtypeError::new(
                    lit.pos(),
                    format!("{n} '{key}' (one per name)"),
                    format!("{len}"),
                ));
            }
        }
    }
    let empty: &[Lit<'_>] = &[];
    let name_lits = names.sequence().unwrap_or(empty);
    let format_lits = formats.sequence().unwrap_or(empty);
    let title_lits = titles.and_then(Lit::sequence);
    let mut pending = Vec::with_capacity(n.min(1024));
    for (i, (name_lit, format_lit)) in name_lits.iter().zip(format_lits).enumerate() {
        let Some(name) = text_of(name_lit) else {
            return Err(DtypeError::new(
                name_lit.pos(),
                "a field name (a string)",
                name_lit.describe(),
            ));
        };
        let (title, title_pos) = match title_lits.and_then(|t| t.get(i)) {
            None | Some(Lit::None(_)) => (None, 0),
            Some(t @ Lit::Str { .. }) => (text_of(t), t.pos()),
            Some(other) => {
                return Err(DtypeError::new(
                    other.pos(),
                    "a field title (a string or None)",
                    other.describe(),
                ))
            }
        };
        let dtype = dtype_from_lit(format_lit, align, depth.saturating_add(1))?;
        pending.push(PendingField {
            name,
            name_pos: name_lit.pos(),
            title,
            title_pos,
            dtype,
            pos: format_lit.pos(),
        });
    }
    let offset_values = match offsets.and_then(Lit::sequence) {
        Some(lits) => Some(
            lits.iter()
                .map(|l| non_negative(l, "a field offset").map(|v| (v, l.pos())))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    let itemsize_value = match itemsize {
        Some(lit) => Some((non_negative(lit, "an itemsize")?, lit.pos())),
        None => None,
    };
    finish_struct(pending, offset_values, itemsize_value, align)
}

/// Lays out the fields (packed, aligned, or at explicit offsets), checks
/// names, titles and sizes, and builds the struct.
fn finish_struct(
    pending: Vec<PendingField>,
    offsets: Option<Vec<(u64, usize)>>,
    itemsize: Option<(u64, usize)>,
    align: bool,
) -> Result<Dtype, DtypeError> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for field in &pending {
        if !seen.insert(field.name.as_str()) {
            return Err(DtypeError::new(
                field.name_pos,
                "a field name not used before as a name or title",
                format!("{:?}", field.name),
            ));
        }
        if let Some(title) = &field.title {
            if !seen.insert(title.as_str()) {
                return Err(DtypeError::new(
                    field.title_pos,
                    "a title not used before as a name or title",
                    format!("{title:?}"),
                ));
            }
        }
    }

    let mut max_align: u64 = 1;
    let mut required: u64 = 0;
    let last_pos = pending.last().map_or(0, |field| field.pos);
    let mut fields = Vec::with_capacity(pending.len());
    for (i, field) in pending.into_iter().enumerate() {
        let size = field.dtype.itemsize();
        let field_align = if align { field.dtype.alignment() } else { 1 };
        max_align = max_align.max(field_align);
        let (offset, err_pos) = match offsets.as_ref().and_then(|o| o.get(i)) {
            Some(&(offset, offset_pos)) => {
                if offset % field_align != 0 {
                    return Err(DtypeError::new(
                        offset_pos,
                        format!("an offset divisible by the field alignment {field_align}"),
                        format!("{offset}"),
                    ));
                }
                (offset, offset_pos)
            }
            None => match round_up(required, field_align) {
                Some(offset) => (offset, field.pos),
                None => return Err(size_error(field.pos, "a struct")),
            },
        };
        let end = match offset.checked_add(size) {
            Some(end) if end <= MAX_ITEMSIZE => end,
            _ => return Err(size_error(err_pos, "a struct")),
        };
        required = if offsets.is_some() {
            required.max(end)
        } else {
            end
        };
        fields.push(Field {
            name: field.name,
            title: field.title,
            dtype: field.dtype,
            offset,
        });
    }
    let required = match round_up(required, max_align) {
        Some(r) if r <= MAX_ITEMSIZE => r,
        _ => return Err(size_error(last_pos, "a struct")),
    };
    let total = match itemsize {
        Some((size, size_pos)) => {
            if size < required {
                return Err(DtypeError::new(
                    size_pos,
                    format!("an itemsize of at least {required} (the fields' extent)"),
                    format!("{size}"),
                ));
            }
            if size % max_align != 0 {
                return Err(DtypeError::new(
                    size_pos,
                    format!("an itemsize divisible by the struct alignment {max_align}"),
                    format!("{size}"),
                ));
            }
            size
        }
        None => required,
    };
    Ok(Dtype::of(Repr::Struct(Box::new(Struct {
        fields,
        itemsize: total,
        aligned: align,
        alignment: if align { max_align } else { 1 },
    }))))
}

// ---------------------------------------------------------------------------
// Display
// ---------------------------------------------------------------------------

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
fn write_typestr(f: &mut dyn fmt::Write, dt: &Dtype, short: bool) -> fmt::Result {
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
fn write_construction(f: &mut dyn fmt::Write, dt: &Dtype) -> fmt::Result {
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

fn write_shape(f: &mut dyn fmt::Write, shape: &[u64]) -> fmt::Result {
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

fn write_subarray(f: &mut dyn fmt::Write, sub: &Subarray) -> fmt::Result {
    f.write_char('(')?;
    write_construction(f, &sub.base)?;
    f.write_str(", ")?;
    write_shape(f, &sub.shape)?;
    f.write_char(')')
}

/// NumPy's `_is_packed`: fields in order, without gaps beyond what
/// alignment requires, filling the itemsize.
fn is_packed(st: &Struct) -> bool {
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

fn write_struct(f: &mut dyn fmt::Write, st: &Struct, include_align: bool) -> fmt::Result {
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
fn py_printable(c: char) -> bool {
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
fn write_py_str(f: &mut dyn fmt::Write, s: &str) -> fmt::Result {
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
