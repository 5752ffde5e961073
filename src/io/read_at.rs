//! [`ReadAt`], the one byte-source trait, and the reads every reader makes through it.

use std::io;
use std::vec::Vec;

/// A source behind an `Arc`, as the readers keep one: a file, bytes in memory, a
/// window of another source.
///
/// ```
/// use b2nd_meta::io::{ReadAt, SharedSource};
///
/// let source: SharedSource = std::sync::Arc::new(b"bytes".to_vec());
/// assert_eq!(source.size()?, 5);
/// # Ok::<(), std::io::Error>(())
/// ```
pub type SharedSource = std::sync::Arc<dyn ReadAt + Send + Sync>;

/// A source of bytes read at given offsets, as a file is with `pread`: the frame, vlmeta
/// and container readers read through it, so a caller can hand in a file, bytes in
/// memory, or a source of its own (one that counts what is read, say).
///
/// ```
/// use b2nd_meta::io::ReadAt;
///
/// let bytes: &[u8] = b"hello";
/// let mut buf = [0u8; 3];
/// assert_eq!(bytes.read_at(&mut buf, 2)?, 3);
/// assert_eq!(&buf, b"llo");
/// assert_eq!(bytes.size()?, 5);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait ReadAt {
    /// Reads up to `buf.len()` bytes at `offset`: fewer at the end of the input (and,
    /// as `pread` may, before it: the crate's readers read again until the end).
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;

    /// The length of the input.
    fn size(&self) -> io::Result<u64>;

    /// The length of the input, or `want` when it holds at least that much: a source
    /// that streams reads no further than `want` to say so.
    ///
    /// ```
    /// use b2nd_meta::io::ReadAt;
    /// assert_eq!(b"hello"[..].size_up_to(3)?, 3);
    /// assert_eq!(b"hello"[..].size_up_to(9)?, 5);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    fn size_up_to(&self, want: u64) -> io::Result<u64> {
        Ok(self.size()?.min(want))
    }

    /// A hint: bytes `[offset, offset + len)` are about to be read, in pieces (a
    /// reader grows its buffer as bytes arrive). A source that pays per request (a
    /// [remote](crate::remote) file) fetches them at once; the others ignore it.
    ///
    /// ```
    /// use b2nd_meta::io::ReadAt;
    /// b"hello"[..].will_read(0, 5); // bytes in memory: nothing to do
    /// ```
    fn will_read(&self, offset: u64, len: u64) {
        let _ = (offset, len);
    }
}

/// Reads `buf.len()` bytes at `offset`, fewer only where the input ends; how many.
pub(crate) fn read_full_at<S: ReadAt + ?Sized>(
    src: &S,
    buf: &mut [u8],
    offset: u64,
) -> io::Result<usize> {
    let mut got = 0;
    while let Some(rest) = buf.get_mut(got..).filter(|r| !r.is_empty()) {
        match src.read_at(rest, offset.saturating_add(got as u64)) {
            Ok(0) => break,
            Ok(n) if n <= rest.len() => got += n,
            Ok(_) => return Err(io::Error::other("a source returned more bytes than asked")),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Reads exactly `buf.len()` bytes at `offset`, or fails with `UnexpectedEof`.
pub(crate) fn read_exact_at<S: ReadAt + ?Sized>(
    src: &S,
    buf: &mut [u8],
    offset: u64,
) -> io::Result<()> {
    if read_full_at(src, buf, offset)? < buf.len() {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(())
}

/// The first read of [`read_vec_at`]; each next one doubles what is held.
const FIRST_READ: usize = 1024;

/// Up to `len` bytes at `offset`, fewer only where the input ends. Memory grows with the
/// bytes that arrive (at most twice them, and 1 KiB), never with `len`: a length a
/// bogus header claims costs nothing the input does not hold.
pub(crate) fn read_vec_at<S: ReadAt + ?Sized>(
    src: &S,
    offset: u64,
    len: usize,
) -> io::Result<Vec<u8>> {
    src.will_read(offset, len as u64);
    let mut out = Vec::new();
    while out.len() < len {
        let start = out.len();
        let want = (len - start).min(start.max(FIRST_READ));
        out.resize(start + want, 0);
        let got = read_full_at(src, &mut out[start..], offset.saturating_add(start as u64))?;
        out.truncate(start + got);
        if got < want {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A source that gives at most 3 bytes a call, as `pread` may.
    struct Short<'a>(&'a [u8]);

    impl ReadAt for Short<'_> {
        fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
            let n = buf.len().min(3);
            self.0.read_at(&mut buf[..n], offset)
        }
        fn size(&self) -> io::Result<u64> {
            self.0.size()
        }
    }

    #[test]
    fn reads_go_on_until_the_end_and_grow_with_what_arrives() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| i as u8).collect();
        for (offset, len, expected) in [
            (0, 10, 10),
            (4990, 100, 10),
            (5000, 1, 0),
            (6000, 1, 0),
            (0, 5000, 5000),
            (1, usize::MAX, 4999),
        ] {
            let got = read_vec_at(&Short(&bytes), offset, len).unwrap();
            assert_eq!(got.len(), expected, "{offset} {len}");
            let from = bytes.get(offset as usize..).unwrap_or_default();
            assert_eq!(got[..], from[..expected], "{offset} {len}");
            // A claimed length costs at most twice what arrived, plus the first read.
            assert!(
                got.capacity() <= 2 * expected + FIRST_READ,
                "{offset} {len}"
            );
        }
        let mut buf = [0u8; 4];
        assert_eq!(read_full_at(&Short(&bytes), &mut buf, 4998).unwrap(), 2);
        let err = read_exact_at(&Short(&bytes), &mut buf, 4998).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }
}
