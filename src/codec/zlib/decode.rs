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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// `zlib.compress` of Python (C zlib): "hello" at level 6 and 0 (a stored block),
    /// 100 'a's, and nothing.
    const HELLO: &[u8] = b"\x78\x9c\xcb\x48\xcd\xc9\xc9\x07\x00\x06\x2c\x02\x15";
    const HELLO_STORED: &[u8] = b"\x78\x01\x01\x05\x00\xfa\xffhello\x06\x2c\x02\x15";
    const A100: &[u8] = b"\x78\x9c\x4b\x4c\xa4\x3d\x00\x00\x7a\x47\x25\xe5";
    const EMPTY: &[u8] = b"\x78\x9c\x03\x00\x00\x00\x00\x01";

    /// Decodes `src` into `n` bytes: the length, and the bytes when they fill `n`.
    fn run(src: &[u8], n: usize) -> Result<(usize, Vec<u8>), bool> {
        let mut dest = vec![0; n];
        zlib(src, &mut dest)
            .map(|len| (len, dest))
            .map_err(|e| !e.message.is_empty())
    }

    #[test]
    fn streams_from_c() {
        assert_eq!(run(HELLO, 5), Ok((5, b"hello".to_vec())));
        assert_eq!(run(HELLO_STORED, 5), Ok((5, b"hello".to_vec())));
        assert_eq!(run(A100, 100), Ok((100, vec![b'a'; 100])));
        assert_eq!(run(EMPTY, 0), Ok((0, vec![])));
    }

    /// (stream, block length, result): a stream longer or shorter than the block gives
    /// its length (past the block: one more) and writes nothing; a broken stream is refused.
    #[test]
    fn edge_cases() {
        let broken_adler = [&HELLO[..12], b"\x16"].concat();
        type Case<'a> = (&'a [u8], usize, Result<(usize, Vec<u8>), bool>);
        let cases: [Case; 6] = [
            (HELLO, 4, Ok((5, vec![0; 4]))),
            (HELLO, 6, Ok((5, vec![0; 6]))),
            (&HELLO[..10], 5, Err(true)),
            (b"\x78\x9d\xcb\x48", 5, Err(true)),
            (&broken_adler, 5, Err(true)),
            (b"", 5, Err(true)),
        ];
        for (i, (src, n, expected)) in cases.into_iter().enumerate() {
            assert_eq!(run(src, n), expected, "case {i}");
        }
    }
}
