//! [`ArrayInfo`]: the array a frame holds, its metalayer decoded once and its dtype
//! parsed once, checked against the header: what `show` reports on an array, and what a
//! store's listing gives for each array node (shape, chunks, blocks, dtype).

use std::borrow::ToOwned;
use std::string::{String, ToString};
use std::vec::Vec;

use super::check::{check_array_with, Mismatch};
use super::error::FrameError;
use super::header::FrameHeader;
use crate::dtype::{Dtype, DtypeError};
use crate::meta::validate::Invalid;
use crate::meta::Meta;

/// The array a frame holds, as its array metalayer describes it, checked against the
/// frame header.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/ndim2_i4.b2nd");
/// let header = b2nd_meta::frame::open(path)?.header;
/// let array = header.array_info().unwrap()?;
/// assert_eq!((array.metalayer.as_str(), array.shape(), array.chunks()), ("b2nd", &[10, 7][..], &[4, 4][..]));
/// assert_eq!(array.dtype_str(), "<i4");
/// assert!(array.invalid.is_none() && array.mismatches.is_empty());
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayInfo {
    /// The metalayer describing it (`"b2nd"` or `"caterva"`).
    pub metalayer: String,
    /// Its metadata.
    pub meta: Meta,
    /// Bytes after the metalayer in its content (ignored, as C-Blosc2 ignores them).
    pub trailing_bytes: u64,
    /// Its dtype: as parsed (NumPy's); for a caterva metalayer, which stores none, the
    /// one python-blosc2 assumes from the typesize (`|S<typesize>`, see
    /// [`dtype_assumed`](Self::dtype_assumed)); `Err` when it does not parse; `None`
    /// when its `dtype_format` is not NumPy's.
    pub dtype: Option<Result<Dtype, DtypeError>>,
    /// Whether [`dtype`](Self::dtype) is assumed (a caterva metalayer).
    pub dtype_assumed: bool,
    /// C-Blosc2's validation problems with the frame's typesize, when there are any.
    pub invalid: Option<Invalid>,
    /// Where the metalayer and the frame header disagree ([`check_array`](super::check_array)).
    pub mismatches: Vec<Mismatch>,
    /// python-blosc2's stricter rule (blocks within chunks), when it does not hold.
    pub blocks_outside_chunks: Option<Invalid>,
}

impl FrameHeader {
    /// The array this frame holds: its array metalayer decoded, its dtype parsed once,
    /// and both checked against this header; `None` for a frame without an array
    /// metalayer, `Err` when the metalayer does not decode.
    pub fn array_info(&self) -> Option<Result<ArrayInfo, FrameError>> {
        let layer = self.array_metalayer()?;
        Some(
            self.array_meta_and_trailing_bytes()
                .map(|(meta, trailing_bytes)| {
                    let typesize = self.info.typesize;
                    // The dtype, parsed once for every check that needs it.
                    let parsed = meta.parsed_dtype();
                    let itemsize = parsed
                        .as_ref()
                        .and_then(|d| d.as_ref().ok())
                        .map(Dtype::itemsize);
                    let dtype_assumed = matches!(meta, Meta::V0Caterva(_));
                    let dtype = match dtype_assumed {
                        true => Some(Ok(Dtype::for_typesize(typesize))),
                        false => parsed,
                    };
                    ArrayInfo {
                        metalayer: layer.name.to_owned(),
                        invalid: meta
                            .validate_with_itemsize(u64::from(typesize), itemsize)
                            .err(),
                        mismatches: check_array_with(&self.info, &meta, itemsize),
                        blocks_outside_chunks: meta.check_blocks_within_chunks().err(),
                        meta,
                        trailing_bytes,
                        dtype,
                        dtype_assumed,
                    }
                }),
        )
    }
}

impl ArrayInfo {
    /// The array's shape, as the metalayer stores it (int64; `self.meta.shapes()` gives
    /// the three shapes as `u64`, checked: [`crate::Shapes`]).
    pub fn shape(&self) -> &[i64] {
        self.meta.shape()
    }

    /// Its chunk shape.
    pub fn chunks(&self) -> &[i32] {
        self.meta.chunkshape()
    }

    /// Its block shape.
    pub fn blocks(&self) -> &[i32] {
        self.meta.blockshape()
    }

    /// The dtype as NumPy's `dtype.str` when it is understood, else as stored.
    pub fn dtype_str(&self) -> String {
        match &self.dtype {
            Some(Ok(dtype)) => dtype.to_string(),
            _ => self.meta.dtype().unwrap_or_default().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use core::cell::Cell;

    use crate::meta::dtype_format::tests::PARSES;

    #[test]
    fn the_dtype_is_parsed_once_per_array() {
        // What `b2nd-meta show` prints: the dtype, the validation with the frame's
        // typesize and the header checks all use the one parsed dtype.
        for (file, dtype) in [
            (
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/data/corpus/ndim2_i4.b2nd"
                ),
                "<i4",
            ),
            (
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/data/corpus/dtype_struct_nested.b2nd"
                ),
                "[('a', '<i4')",
            ),
        ] {
            let header = crate::frame::open::open(file).unwrap().header;
            PARSES.with(|n| n.set(0));
            let array = header.array_info().unwrap().unwrap();
            assert_eq!(PARSES.with(Cell::get), 1, "{file}");
            assert!(
                array.dtype_str().starts_with(dtype),
                "{file}: {:?}",
                array.dtype
            );
            assert!(
                array.invalid.is_none() && array.mismatches.is_empty(),
                "{file}"
            );
        }
    }
}
