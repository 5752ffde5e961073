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
//! limit is a [`DtypeError`] of kind [`DtypeErrorKind::LimitExceeded`].
//!
//! # Errors
//!
//! A [`DtypeError`] has the byte offset into the dtype string where parsing
//! stopped ([`DtypeError::offset`]) and a [`DtypeErrorKind`]: a syntax error, a
//! well-formed string that is not a dtype, a dtype refused on purpose (see
//! below), or a limit exceeded; each with what was expected and what was
//! found. The message is the crate's one form:
//!
//! ```
//! use b2nd_meta::dtype::Dtype;
//!
//! let err = Dtype::parse("[('a', '<i4')").unwrap_err();
//! assert_eq!(err.offset(), Some(13));
//! assert_eq!(err.to_string(), "expected ',' or ']', found end of input at byte 13");
//! ```
//!
//! # Not supported
//!
//! Names and codes whose size depends on the platform are refused with
//! [`DtypeErrorKind::Unsupported`]; the others in this list are
//! [`DtypeErrorKind::Syntax`] or [`DtypeErrorKind::Invalid`] errors.
//! Comma-separated format strings (`'i4,f8'`, `'(2,)i4'`), platform-dependent
//! names and codes (`int`, `uint`, `intp`, `long`, `longdouble`, `l`, `L`,
//! `g`, `G`, `p`, `P`, `n`, `N`), `StringDType` (`'T'`), the datetime event
//! syntax (`'M8[ns/2]'`), record types (`(numpy.record, [...])`), the union
//! form `(base, fields)`, titles that are not strings, and string prefixes or
//! implicit concatenation in Python literals.
//!
//! [`Display`]: core::fmt::Display

mod build;
mod display;
mod error;
mod kind;
mod layout;
mod limits;
mod literal;
mod model;
#[cfg(feature = "std")]
mod npy;
mod parse;
mod typestr;

pub use error::{DtypeError, DtypeErrorKind};
pub use kind::{ByteOrder, DatetimeUnit, Kind};
pub use limits::{MAX_ITEMSIZE, MAX_NDIM, MAX_NESTING};
pub use model::{Dtype, Field};
// NumPy's repr of names and shapes, for the `.npy` header (src/array/npy.rs).
#[cfg(feature = "std")]
pub(crate) use display::{write_py_str, write_shape};
#[cfg(feature = "std")]
pub(crate) use npy::parse_npy_dict;
