//! The values: [`Value`], the NumPy arrays python-blosc2 packs ([`NdArray`]), and the
//! ext types of its conventions.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

/// How deep arrays, maps and decoded ext payloads (sets, NumPy arrays) may nest:
/// msgpack-python's bound, whose C unpacker holds at most 1,024 open arrays and maps
/// (`StackError` beyond; empty ones count). A deeper value is an error at the first byte
/// of the container past the bound.
///
/// Decoding keeps the open containers on the heap, so it takes no call stack per
/// level, and neither does dropping a value. Serializing, encoding, cloning and
/// comparing a [`Value`] recurse: at 1,024 levels they need under 256 KiB of stack in
/// a release build, and up to 3 MiB in a debug build. python restarts its count inside
/// a set's or NumPy array's payload (a separate `unpackb`); here the payload's levels
/// add to those around it, so nesting through ext payloads is bounded too.
pub const MAX_DEPTH: usize = 1024;

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

/// A msgpack value with python-blosc2's conventions decoded; see the [module](super).
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
