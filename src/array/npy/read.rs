//! Reading a `.npy` file's header as numpy's `read_magic` and `read_array_header_*`
//! read it: the magic, the version (1.0, 2.0, 3.0), the header's length, the dict
//! (`crate::dtype` parses it). What numpy refuses is refused with the byte it is at; so
//! are the arrays numpy saves pickled (object dtypes), which no Blosc2 array holds.

use std::io::Read;
use std::string::{String, ToString};
use std::vec::Vec;

use super::MAGIC;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::dtype::{parse_npy_dict, Dtype, Kind};

/// What a `.npy` file's header says: the dtype, the shape, whether the data is in
/// Fortran order, and where the data starts.
///
/// ```
/// use b2nd_meta::array::{write::NewArray, Array, NpyHeader, Selection};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
/// let mut npy = Vec::new();
/// Array::open(path)?.write_npy(&Selection::all(), &mut npy)?;
/// let header = NpyHeader::read(&mut &npy[..])?;
/// assert_eq!((header.dtype.to_string(), header.shape.clone()), ("<u2".to_string(), vec![13, 11]));
/// assert_eq!((header.fortran_order, header.data_offset, header.nbytes()), (false, 128, 286));
/// # Ok::<(), b2nd_meta::array::ArrayError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct NpyHeader {
    /// The elements' dtype.
    pub dtype: Dtype,
    /// The array's shape.
    pub shape: Vec<u64>,
    /// Whether the data is in Fortran order (np.save of an F-contiguous array).
    pub fortran_order: bool,
    /// Where the data starts in the file.
    pub data_offset: u64,
}

fn refused(at: u64, expected: impl Into<String>, found: impl Into<String>) -> ArrayError {
    ArrayError::at(
        at,
        ArrayErrorKind::Npy {
            expected: expected.into(),
            found: found.into(),
        },
    )
}

/// Fills `buf` from `r`; a short read is numpy's "EOF" refusal.
fn fill<R: Read>(r: &mut R, buf: &mut [u8], at: u64, what: &str) -> Result<(), ArrayError> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => {
                return Err(refused(
                    at + got as u64,
                    std::format!("{} bytes of {what}", buf.len()),
                    std::format!("the end of the input after {got}"),
                ));
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Whether `dtype` holds Python objects anywhere (numpy pickles such arrays).
fn has_objects(dtype: &Dtype) -> bool {
    dtype.kind() == Kind::Object
        || dtype.subarray().is_some_and(|(base, _)| has_objects(base))
        || dtype
            .fields()
            .is_some_and(|fields| fields.iter().any(|f| has_objects(f.dtype())))
}

impl NpyHeader {
    /// Reads the header at the start of `r`, leaving `r` at the data.
    pub fn read<R: Read>(r: &mut R) -> Result<NpyHeader, ArrayError> {
        let mut prefix = [0u8; 8];
        fill(r, &mut prefix, 0, "magic and version")?;
        if prefix[..6] != MAGIC[..] {
            return Err(refused(
                0,
                "the magic \\x93NUMPY of a .npy file",
                std::format!("{:02x?}", &prefix[..6]),
            ));
        }
        let (major, minor) = (prefix[6], prefix[7]);
        if !matches!((major, minor), (1..=3, 0)) {
            return Err(refused(
                6,
                "version 1.0, 2.0 or 3.0",
                std::format!("{major}.{minor}"),
            ));
        }
        let (len, at) = if major == 1 {
            let mut b = [0u8; 2];
            fill(r, &mut b, 8, "header length")?;
            (usize::from(u16::from_le_bytes(b)), 10)
        } else {
            let mut b = [0u8; 4];
            fill(r, &mut b, 8, "header length")?;
            (u32::from_le_bytes(b) as usize, 12)
        };
        let mut raw = Vec::new();
        raw.try_reserve_exact(len.min(1 << 24))
            .map_err(|_| refused(8, "a header length this machine holds", len.to_string()))?;
        r.by_ref().take(len as u64).read_to_end(&mut raw)?;
        if raw.len() < len {
            return Err(refused(
                at + raw.len() as u64,
                std::format!("{len} bytes of header"),
                std::format!("the end of the input after {}", raw.len()),
            ));
        }
        // Versions 1 and 2 are Latin-1, version 3 UTF-8.
        let text: String = match major {
            3 => String::from_utf8(raw).map_err(|e| {
                refused(
                    at + e.utf8_error().valid_up_to() as u64,
                    "UTF-8 (version 3.0)",
                    "other bytes",
                )
            })?,
            _ => raw.iter().map(|&b| char::from(b)).collect(),
        };
        let dict = parse_npy_dict(text.trim_end()).map_err(|e| {
            // Offsets are the text's UTF-8 bytes: the file's, but for Latin-1 letters
            // past ASCII before the error, each one byte in the file.
            refused(at + e.offset().unwrap_or(0), e.expected(), e.found())
        })?;
        if has_objects(&dict.dtype) {
            return Err(refused(
                at,
                "a .npy without Python objects (numpy pickles them; Blosc2 arrays hold none)",
                std::format!("a pickled .npy of dtype {}", dict.dtype),
            ));
        }
        Ok(NpyHeader {
            dtype: dict.dtype,
            shape: dict.shape,
            fortran_order: dict.fortran_order,
            data_offset: at + len as u64,
        })
    }

    /// Bytes of data the header announces.
    pub fn nbytes(&self) -> u128 {
        self.shape.iter().map(|&d| u128::from(d)).product::<u128>()
            * u128::from(self.dtype.itemsize())
    }

    /// `data` (the elements in the file's order) in C order: itself, or transposed from
    /// Fortran order.
    ///
    /// ```
    /// use b2nd_meta::array::NpyHeader;
    /// // np.save(f, np.asfortranarray(np.arange(6, dtype='u1').reshape(2, 3)))
    /// let mut npy = b"\x93NUMPY\x01\x00\x76\x00{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }".to_vec();
    /// npy.resize(127, b' ');
    /// npy.push(b'\n');
    /// let header = NpyHeader::read(&mut &npy[..])?;
    /// assert_eq!(header.c_order(vec![0, 3, 1, 4, 2, 5]), [0, 1, 2, 3, 4, 5]);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn c_order(&self, data: Vec<u8>) -> Vec<u8> {
        let size = self.dtype.itemsize() as usize;
        if !self.fortran_order || self.shape.len() < 2 || size == 0 {
            return data;
        }
        let shape: Vec<usize> = self.shape.iter().map(|&d| d as usize).collect();
        // Fortran strides, in elements.
        let mut strides = std::vec![1usize; shape.len()];
        for d in 1..shape.len() {
            strides[d] = strides[d - 1] * shape[d - 1];
        }
        let mut out = Vec::with_capacity(data.len());
        let mut index = std::vec![0usize; shape.len()];
        for _ in 0..data.len() / size {
            let at: usize = index.iter().zip(&strides).map(|(i, s)| i * s).sum();
            out.extend_from_slice(&data[at * size..][..size]);
            for d in (0..shape.len()).rev() {
                index[d] += 1;
                if index[d] < shape[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        out
    }
}
