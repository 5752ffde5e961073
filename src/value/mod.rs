//! Generic msgpack values as python-blosc2 writes them: the content of user metalayers
//! (`blosc2.zeros(..., meta={...})`) and of variable-length metalayers (`vlmeta`).
//!
//! python-blosc2 packs these with its helpers in `blosc2/msgpack_utils.py` (4.x): a
//! tuple becomes the list `["__tuple__", ...]`, a complex number the ext type 44 (two
//! big-endian float64), a set the ext type 45 (the msgpack of a list), a NumPy array the
//! ext type 46 (the msgpack of `{"dtype": {"str": ...}, "shape": [...], "data": bytes}`,
//! or of `{"values": [...], "shape": [...]}` for object arrays). [`Value`] decodes these
//! conventions and keeps every other ext type (42, a nested Blosc2 frame, and 43, a
//! structured reference, included) as its code and bytes.
//!
//! Decoding ([`Value::from_msgpack`]) is strict and total: every marker and length is
//! checked, nesting is bounded by [`MAX_DEPTH`], nothing is allocated beyond the bytes
//! present, and every error is an [`Error`](crate::Error) with the byte offset in the
//! content. [`Value::to_msgpack`] writes python-blosc2's bytes back (msgpack's most
//! compact widths, as python's `msgpack.packb` picks them).
//!
//! `Value` is `Serialize` in two forms. Into a human-readable format (JSON) it gives the
//! crate's JSON mapping:
//!
//! | msgpack / python | JSON |
//! |---|---|
//! | nil, bool, int, str | `null`, `true`/`false`, number, string |
//! | float | number; NaN, +inf, -inf as `"NaN"`, `"Infinity"`, `"-Infinity"` |
//! | bin | `{"$bin": "<lowercase hex>"}` |
//! | array, tuple | array |
//! | map | object; a key that is not a string becomes its JSON text (`1` -> `"1"`) |
//! | ext 44 (complex) | `{"$complex": [re, im]}` |
//! | ext 45 (set) | `{"$set": [items in stored order]}` |
//! | ext 46 (NumPy array) | `{"$ndarray": {"dtype": "<f8", "shape": [..], "data_hex": ".."}}` |
//! | any other ext | `{"$ext": {"type": code, "data_hex": ".."}}` |
//!
//! An ext 46 with a structured dtype gives NumPy's `dtype.str` of it (`"|V12"`; the
//! `descr` list stays in [`NdDtype::Descr`]); an object array gives `"dtype": "|O"` and
//! `"values": [..]` instead of `"data_hex"`.
//!
//! Into a binary format (rmp-serde) it gives the msgpack value itself, ext types
//! through rmp-serde's `_ExtStruct`, so `rmp_serde::to_vec(&value)` equals
//! `value.to_msgpack()`.
//!
//! ```
//! use b2nd_meta::value::Value;
//!
//! // python: msgpack_packb({"origin": (0, 1)})
//! let bytes = [0x81, 0xa6, b'o', b'r', b'i', b'g', b'i', b'n', 0x93,
//!              0xa9, b'_', b'_', b't', b'u', b'p', b'l', b'e', b'_', b'_', 0x00, 0x01];
//! let value = Value::from_msgpack(&bytes)?;
//! assert_eq!(value.get("origin"), Some(&Value::Tuple(vec![Value::Int(0), Value::Int(1)])));
//! assert_eq!(value.to_msgpack()?, bytes);
//! # Ok::<(), b2nd_meta::Error>(())
//! ```

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

mod decode;
mod deserialize;
mod encode;
mod json;
mod nd;
mod serialize;

pub use decode::MAX_DEPTH;

/// The bytes one [`Value`] takes where it is held (an element, a key): what a decode
/// budget is charged for each value read.
#[cfg(feature = "std")]
pub(crate) const VALUE_SIZE: usize = core::mem::size_of::<Value>();

/// The ext type python-blosc2 gives a nested Blosc2 frame (`to_cframe()` bytes).
pub const EXT_BLOSC2_FRAME: i8 = 42;
/// The ext type python-blosc2 gives a structured reference (a msgpack envelope).
pub const EXT_STRUCTURED: i8 = 43;
/// The ext type python-blosc2 gives a complex number: two big-endian float64.
pub const EXT_COMPLEX: i8 = 44;
/// The ext type python-blosc2 gives a set: the msgpack of the list of its items.
pub const EXT_SET: i8 = 45;
/// The ext type python-blosc2 gives a NumPy array: the msgpack of a map.
pub const EXT_NDARRAY: i8 = 46;

/// A msgpack value with python-blosc2's conventions decoded; see the [module](self).
///
/// ```
/// use b2nd_meta::value::Value;
///
/// // python: msgpack_packb(1 + 2j)
/// let mut bytes = vec![0xd8, 44];
/// bytes.extend_from_slice(&1.0f64.to_be_bytes());
/// bytes.extend_from_slice(&2.0f64.to_be_bytes());
/// assert_eq!(Value::from_msgpack(&bytes)?, Value::Complex { re: 1.0, im: 2.0 });
/// # Ok::<(), b2nd_meta::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// msgpack nil, python `None`.
    Nil,
    /// A boolean.
    Bool(bool),
    /// An integer of any msgpack width that fits an `i64`.
    Int(i64),
    /// An integer above `i64::MAX` (a uint64).
    UInt(u64),
    /// A float32 (python reads it as the float64 of the same value).
    F32(f32),
    /// A float64.
    F64(f64),
    /// A string (valid UTF-8).
    Str(String),
    /// A byte string (msgpack bin, python `bytes`).
    Bin(Vec<u8>),
    /// A list.
    Array(Vec<Value>),
    /// A python tuple, stored as `["__tuple__", items...]`; holds the items.
    Tuple(Vec<Value>),
    /// A map, its pairs in stored order; keys may be any value.
    Map(Vec<(Value, Value)>),
    /// A complex number (ext 44).
    Complex {
        /// The real part.
        re: f64,
        /// The imaginary part.
        im: f64,
    },
    /// A set (ext 45), its items in stored order.
    Set(Vec<Value>),
    /// A NumPy array (ext 46).
    NdArray(Box<NdArray>),
    /// Any other ext type, 42 and 43 included: its code and payload.
    Ext {
        /// The ext type.
        code: i8,
        /// The payload bytes.
        data: Vec<u8>,
    },
}

/// A NumPy array as python-blosc2 packs it (ext 46).
///
/// ```
/// use b2nd_meta::value::{NdArray, NdData, NdDtype, Value};
///
/// // np.arange(2, dtype="<i2")
/// let a = NdArray { dtype: NdDtype::Str("<i2".into()), shape: vec![2], data: NdData::Bytes(vec![0, 0, 1, 0]) };
/// let v = Value::NdArray(Box::new(a));
/// assert_eq!(Value::from_msgpack(&v.to_msgpack()?)?, v);
/// # Ok::<(), b2nd_meta::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct NdArray {
    /// The dtype.
    pub dtype: NdDtype,
    /// The shape.
    pub shape: Vec<u64>,
    /// The elements.
    pub data: NdData,
}

/// The dtype of an [`NdArray`], as python-blosc2's `dtype_value` writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum NdDtype {
    /// `{"str": dtype.str}`, such as `"<f8"`.
    Str(String),
    /// `{"descr": dtype.descr}` for a structured dtype: the list, as stored.
    Descr(Vec<Value>),
    /// An object array (`{"values": ...}` payload): no dtype is stored.
    Object,
}

/// The elements of an [`NdArray`].
#[derive(Clone, Debug, PartialEq)]
pub enum NdData {
    /// The C-order bytes (`arr.tobytes()`).
    Bytes(Vec<u8>),
    /// The elements of an object array, flattened in C order.
    Values(Vec<Value>),
}

impl Value {
    /// The value of the map entry whose key is the string `key`, if this is a map.
    ///
    /// ```
    /// use b2nd_meta::value::Value;
    ///
    /// let v = Value::Map(vec![(Value::Str("a".into()), Value::Int(1))]);
    /// assert_eq!(v.get("a"), Some(&Value::Int(1)));
    /// assert_eq!(v.get("b"), None);
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(pairs) => pairs
                .iter()
                .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as a string, if it is one.
    ///
    /// ```
    /// assert_eq!(b2nd_meta::value::Value::Str("m".into()).as_str(), Some("m"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl NdArray {
    /// NumPy's `dtype.str` of the array: the stored one, `"|O"` for an object array,
    /// and `"|V<itemsize>"` for a structured dtype (as NumPy names it), the item size
    /// summed from the `descr` fields (or, failing that, from the data and the shape).
    ///
    /// ```
    /// use b2nd_meta::value::{NdArray, NdData, NdDtype, Value};
    ///
    /// let field = |n: &str, t: &str| Value::Tuple(vec![Value::Str(n.into()), Value::Str(t.into())]);
    /// let a = NdArray {
    ///     dtype: NdDtype::Descr(vec![field("a", "<i4"), field("b", "<f8")]),
    ///     shape: vec![1],
    ///     data: NdData::Bytes(vec![0; 12]),
    /// };
    /// assert_eq!(a.dtype_str(), "|V12");
    /// ```
    pub fn dtype_str(&self) -> String {
        match &self.dtype {
            NdDtype::Str(s) => s.clone(),
            NdDtype::Object => String::from("|O"),
            NdDtype::Descr(fields) => {
                let from_data = || {
                    let count = self.shape.iter().try_fold(1u64, |a, &d| a.checked_mul(d))?;
                    match &self.data {
                        NdData::Bytes(b) if count > 0 => Some(b.len() as u64 / count),
                        _ => None,
                    }
                };
                let size = descr_itemsize(fields, 0).or_else(from_data).unwrap_or(0);
                alloc::format!("|V{size}")
            }
        }
    }
}

/// The item size of a NumPy `descr` list: `[name, typestr]`, `[name, typestr, shape]`
/// or `[name, [sub-descr]]` per field.
fn descr_itemsize(fields: &[Value], depth: usize) -> Option<u64> {
    if depth > MAX_DEPTH {
        return None;
    }
    fields.iter().try_fold(0u64, |sum, field| {
        let (Value::Array(f) | Value::Tuple(f)) = field else {
            return None;
        };
        let size = match f.get(1)? {
            Value::Str(t) => typestr_itemsize(t)?,
            Value::Array(sub) | Value::Tuple(sub) => descr_itemsize(sub, depth + 1)?,
            _ => return None,
        };
        let count = match f.get(2) {
            None => 1,
            Some(Value::Array(dims) | Value::Tuple(dims)) => {
                dims.iter().try_fold(1u64, |a, d| match d {
                    Value::Int(n) => a.checked_mul(u64::try_from(*n).ok()?),
                    _ => None,
                })?
            }
            Some(_) => return None,
        };
        sum.checked_add(size.checked_mul(count)?)
    })
}

/// `"<i4"` -> 4, `"<U3"` -> 12, `"<M8[ns]"` -> 8, `"|V12"` -> 12.
fn typestr_itemsize(t: &str) -> Option<u64> {
    let mut chars = t.chars();
    let first = chars.next()?;
    let kind = if matches!(first, '<' | '>' | '|' | '=') {
        chars.next()?
    } else {
        first
    };
    let digits: String = chars.take_while(char::is_ascii_digit).collect();
    let n: u64 = digits.parse().ok()?;
    if kind == 'U' {
        n.checked_mul(4)
    } else {
        Some(n)
    }
}
