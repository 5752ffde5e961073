//! NumPy's `.npy` format (`numpy/lib/format.py`): the header `np.save` writes for a
//! dtype and a shape in C order, and [`Array::write_npy`], which streams a selection
//! into one in pieces of about 16 MiB; `read` reads such a header back ([`NpyHeader`]).
//!
//! The file: the magic `\x93NUMPY`, the version (1.0; 2.0 when the header does not fit
//! 65535 bytes; 3.0 when it is not Latin-1), the header's length (little-endian u16 for
//! 1.0, u32 otherwise), then the header: the repr of the dict `{'descr': ...,
//! 'fortran_order': False, 'shape': (...), }`, spaces (room for the first axis to grow
//! to 21 digits, then to align the data to 64 bytes) and a newline. The data follows.

mod read;

use std::io::Write;
use std::string::{String, ToString};
use std::vec::Vec;

use super::error::{ArrayError, ArrayErrorKind};
use super::handle::Array;
use super::Selection;
use crate::dtype::{write_py_str, write_shape, Dtype};

/// The data starts at a multiple of this (numpy's `ARRAY_ALIGN`).
const ARRAY_ALIGN: usize = 64;
/// Room left for the first axis's length to grow (numpy's `GROWTH_AXIS_MAX_DIGITS`).
const GROWTH_AXIS_MAX_DIGITS: usize = 21;
const MAGIC: &[u8; 6] = b"\x93NUMPY";

pub use read::NpyHeader;

/// numpy's `dtype.descr` as python prints it (`dtype_to_descr`): `dtype.str` for a
/// plain dtype; for a structured one the list of `(name, format[, shape])`, gaps and
/// trailing padding as `('', '|V<n>')` fields. `None` when numpy has none (fields out
/// of order or overlapping).
fn descr(dtype: &Dtype, out: &mut String) -> Option<()> {
    let Some(fields) = dtype.fields() else {
        return match dtype.subarray() {
            Some((base, shape)) => {
                out.push('(');
                descr(base, out)?;
                out.push_str(", ");
                write_shape(out, shape).ok()?;
                out.push(')');
                Some(())
            }
            None => write_py_str(out, &dtype.to_string()).ok(),
        };
    };
    let mut items: Vec<String> = Vec::new();
    let mut offset = 0;
    for field in fields {
        if field.offset() > offset {
            items.push(std::format!("('', '|V{}')", field.offset() - offset));
            offset = field.offset();
        } else if field.offset() < offset {
            return None;
        }
        let mut item = String::from("(");
        match field.title() {
            Some(title) => {
                item.push('(');
                write_py_str(&mut item, title).ok()?;
                item.push_str(", ");
                write_py_str(&mut item, field.name()).ok()?;
                item.push(')');
            }
            None => write_py_str(&mut item, field.name()).ok()?,
        }
        item.push_str(", ");
        descr(field.base(), &mut item)?;
        if !field.shape().is_empty() {
            item.push_str(", ");
            write_shape(&mut item, field.shape()).ok()?;
        }
        item.push(')');
        items.push(item);
        offset += field.dtype().itemsize();
    }
    if dtype.itemsize() > offset {
        items.push(std::format!("('', '|V{}')", dtype.itemsize() - offset));
    }
    out.push('[');
    out.push_str(&items.join(", "));
    out.push(']');
    Some(())
}

/// The `.npy` header `np.save` writes for an array of `dtype` and `shape` (C order):
/// magic, version, length, the dict, padding; the data follows it.
///
/// ```
/// use b2nd_meta::dtype::Dtype;
///
/// let header = b2nd_meta::array::npy_header(&Dtype::parse("<i4")?, &[3, 4])?;
/// assert_eq!(&header[..8], b"\x93NUMPY\x01\x00");
/// assert_eq!(header.len() % 64, 0);
/// let text = std::str::from_utf8(&header[10..])?;
/// assert!(text.starts_with("{'descr': '<i4', 'fortran_order': False, 'shape': (3, 4), }"));
/// assert!(text.ends_with(" \n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn npy_header(dtype: &Dtype, shape: &[u64]) -> Result<Vec<u8>, ArrayError> {
    let mut dict = String::from("{'descr': ");
    descr(dtype, &mut dict).ok_or_else(|| {
        ArrayError::layout(std::format!(
            "numpy has no .npy description of {dtype} (fields out of order or overlapping)"
        ))
    })?;
    dict.push_str(", 'fortran_order': False, 'shape': ");
    // write_shape is python's repr of a tuple.
    let _ = write_shape(&mut dict, shape);
    dict.push_str(", }");
    if let Some(first) = shape.first() {
        let digits = first.to_string().len();
        dict.extend(core::iter::repeat_n(
            ' ',
            GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits),
        ));
    }
    let latin1 = dict.chars().all(|c| u32::from(c) < 0x100);
    let text: Vec<u8> = if latin1 {
        dict.chars().map(|c| c as u8).collect()
    } else {
        dict.into_bytes()
    };
    // The header, at least one space and a newline, so that the data starts aligned
    // (numpy's `_wrap_header`).
    let stored = |prefix: usize| {
        let hlen = text.len() + 1;
        hlen + ARRAY_ALIGN - (prefix + hlen) % ARRAY_ALIGN
    };
    let (version, prefix) = match latin1 {
        true if stored(MAGIC.len() + 4) <= usize::from(u16::MAX) => (1, MAGIC.len() + 4),
        true => (2, MAGIC.len() + 6),
        false => (3, MAGIC.len() + 6),
    };
    let len = stored(prefix);
    let mut out = Vec::with_capacity(prefix + len);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(len as u16).to_le_bytes());
    } else {
        let len = u32::try_from(len).map_err(|_| {
            ArrayError::layout(std::format!(
                "a .npy header of {len} bytes does not fit numpy's u32"
            ))
        })?;
        out.extend_from_slice(&len.to_le_bytes());
    }
    out.extend_from_slice(&text);
    out.resize(prefix + len - 1, b' ');
    out.push(b'\n');
    Ok(out)
}

impl Array {
    /// Writes `sel` to `out` as a `.npy` file, which `np.load` reads as python-blosc2's
    /// `arr[sel]`: the dtype as stored (its byte order included), the shape after
    /// indexing, C order. The values stream out in pieces of about 16 MiB
    /// ([`Array::read_rows`]).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let mut npy = Vec::new();
    /// array.write_npy(&"1:3".parse()?, &mut npy)?;
    /// assert_eq!(npy.len(), 128 + 2 * 11 * 2);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn write_npy<W: Write>(&self, sel: &Selection, mut out: W) -> Result<(), ArrayError> {
        let shape = self.shape_of(sel)?;
        let io = |e| ArrayError::new(ArrayErrorKind::Io(e));
        out.write_all(&npy_header(self.dtype(), &shape)?)
            .map_err(io)?;
        self.read_rows(sel, |bytes| out.write_all(bytes).map_err(io))?;
        out.flush().map_err(io)
    }
}
