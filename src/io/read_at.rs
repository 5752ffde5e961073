//! Positioned reads: [`ReadAt`] over files and memory, and the windows the container
//! readers hand to the frame reader (a byte range of a file, a zip member, a frame
//! embedded in another frame's data), each a `Read + Seek` of its own.

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::vec::Vec;

/// A source of bytes read at given offsets, as a file is with `pread`: the stores read
/// through it, so a caller can hand in a file, bytes in memory, or a reader of its own
/// (one that counts what is read, say).
///
/// ```
/// use b2nd_meta::container::ReadAt;
///
/// let bytes: &[u8] = b"hello";
/// let mut buf = [0u8; 3];
/// assert_eq!(bytes.read_at(&mut buf, 2)?, 3);
/// assert_eq!(&buf, b"llo");
/// assert_eq!(bytes.size()?, 5);
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait ReadAt {
    /// Reads up to `buf.len()` bytes at `offset`; fewer only at the end of the input.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    /// The length of the input.
    fn size(&self) -> io::Result<u64>;
}

impl ReadAt for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.len());
        let src = self.get(start..).unwrap_or_default();
        let n = src.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), src.get(..n)) {
            dst.copy_from_slice(src);
        }
        Ok(n)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }
}

impl ReadAt for Vec<u8> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.as_slice().read_at(buf, offset)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }
}

impl<T: ReadAt + ?Sized> ReadAt for &T {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        (**self).read_at(buf, offset)
    }

    fn size(&self) -> io::Result<u64> {
        (**self).size()
    }
}

impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        #[cfg(unix)]
        {
            std::os::unix::fs::FileExt::read_at(self, buf, offset)
        }
        #[cfg(windows)]
        {
            std::os::windows::fs::FileExt::seek_read(self, buf, offset)
        }
        #[cfg(not(any(unix, windows)))]
        {
            let mut file = self;
            file.seek(SeekFrom::Start(offset))?;
            file.read(buf)
        }
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

/// Bytes `[start, start + len)` of a [`ReadAt`], as a `Read + Seek` from 0.
pub(crate) struct Window {
    pub(crate) src: Arc<dyn ReadAt + Send + Sync>,
    pub(crate) start: u64,
    pub(crate) len: u64,
    pub(crate) pos: u64,
}

impl Window {
    pub(crate) fn new(src: Arc<dyn ReadAt + Send + Sync>, start: u64, len: u64) -> Self {
        Window {
            src,
            start,
            len,
            pos: 0,
        }
    }
}

pub(crate) fn seek_in(pos: &mut u64, len: u64, to: SeekFrom) -> io::Result<u64> {
    let target = match to {
        SeekFrom::Start(p) => Some(p),
        SeekFrom::End(d) => len.checked_add_signed(d),
        SeekFrom::Current(d) => pos.checked_add_signed(d),
    };
    *pos = target.ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before 0"))?;
    Ok(*pos)
}

impl Read for Window {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.len.saturating_sub(self.pos);
        let n = (buf.len() as u64).min(left) as usize;
        let Some(dst) = buf.get_mut(..n) else {
            return Ok(0);
        };
        let got = self.src.read_at(dst, self.start.saturating_add(self.pos))?;
        self.pos += got as u64;
        Ok(got)
    }
}

impl Seek for Window {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        seek_in(&mut self.pos, self.len, to)
    }
}

/// How much of a node's frame is read at once from its start, and from its end: a
/// header and a trailer without large metalayers fit, so a node costs two reads.
const PREFETCH: u64 = 1024;

/// A `Read + Seek` of `len` bytes that reads its first and last [`PREFETCH`] bytes in
/// one read each, when first touched, and serves reads there from them.
pub(crate) struct Prefetch<R> {
    inner: R,
    len: u64,
    pos: u64,
    head: Option<Vec<u8>>,
    tail: Option<(u64, Vec<u8>)>,
}

impl<R: Read + Seek> Prefetch<R> {
    pub(crate) fn new(inner: R, len: u64) -> Self {
        Prefetch {
            inner,
            len,
            pos: 0,
            head: None,
            tail: None,
        }
    }

    /// `n` (at most [`PREFETCH`]) bytes at `at`, fewer where the input ends.
    fn fill(&mut self, at: u64, n: u64) -> io::Result<Vec<u8>> {
        self.inner.seek(SeekFrom::Start(at))?;
        let mut out = std::vec![0u8; n as usize];
        let mut got = 0;
        while let Some(dst) = out.get_mut(got..).filter(|d| !d.is_empty()) {
            match self.inner.read(dst) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        out.truncate(got);
        Ok(out)
    }
}

impl<R: Read + Seek> Read for Prefetch<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = (buf.len() as u64).min(self.len.saturating_sub(self.pos));
        if want == 0 {
            return Ok(0);
        }
        let end = self.pos + want;
        let cached = if end <= PREFETCH.min(self.len) {
            if self.head.is_none() {
                self.head = Some(self.fill(0, PREFETCH.min(self.len))?);
            }
            self.head.as_ref().map(|h| (0, h))
        } else if self.pos >= self.len.saturating_sub(PREFETCH) {
            if self.tail.is_none() {
                let start = self.len.saturating_sub(PREFETCH);
                self.tail = Some((start, self.fill(start, PREFETCH)?));
            }
            self.tail.as_ref().map(|(s, t)| (*s, t))
        } else {
            None
        };
        let got = match cached {
            Some((start, bytes)) => {
                let from = (self.pos - start) as usize;
                let src = bytes.get(from..).unwrap_or_default();
                let n = src.len().min(want as usize);
                if let (Some(dst), Some(src)) = (buf.get_mut(..n), src.get(..n)) {
                    dst.copy_from_slice(src);
                }
                n
            }
            None => {
                self.inner.seek(SeekFrom::Start(self.pos))?;
                let dst = buf.get_mut(..want as usize).unwrap_or_default();
                self.inner.read(dst)?
            }
        };
        self.pos += got as u64;
        Ok(got)
    }
}

impl<R> Seek for Prefetch<R> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        seek_in(&mut self.pos, self.len, to)
    }
}
