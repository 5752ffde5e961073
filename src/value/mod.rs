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

mod decode;
mod deserialize;
mod encode;
mod json;
mod model;
mod nd;
mod serialize;

#[cfg(feature = "std")]
pub(crate) use model::VALUE_SIZE;
pub use model::{
    NdArray, NdData, NdDtype, Value, EXT_BLOSC2_FRAME, EXT_COMPLEX, EXT_NDARRAY, EXT_SET,
    EXT_STRUCTURED, MAX_DEPTH,
};
