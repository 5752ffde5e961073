//! zlib (miniz_oxide) streams, pure Rust: each decodes into one stream of `neblock`
//! bytes and never writes past it.

use alloc::string::{String, ToString};

/// A zlib stream that does not inflate: miniz_oxide's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// Why.
    pub(crate) message: String,
}

/// A zlib stream (header, deflate, Adler-32: C's `uncompress`) decoded into `dest`: the
/// stream's length, which the caller checks is `dest.len()` (more than `dest.len()`
/// when it holds more: nothing is written then).
pub(crate) fn zlib(src: &[u8], dest: &mut [u8]) -> Result<usize, Refusal> {
    let neblock = dest.len();
    match miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(src, neblock) {
        Ok(bytes) if bytes.len() == neblock => {
            dest.copy_from_slice(&bytes);
            Ok(neblock)
        }
        Ok(bytes) => Ok(bytes.len()),
        Err(e) if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput => Ok(neblock + 1),
        Err(e) => Err(Refusal {
            message: e.to_string(),
        }),
    }
}
