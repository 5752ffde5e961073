//! Staged reads: a source of bytes read at offsets, from a slice, a reader read once
//! from its start, or a seekable file, growing memory only as bytes arrive.

use std::io::{self, Read, Seek, SeekFrom};
use std::vec::Vec;

/// Where the bytes of a frame come from.
pub(crate) trait Source {
    /// Up to `len` bytes from `at`: fewer only where the input ends.
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>>;
    /// The length of the input, or `want` if it holds at least that much.
    fn len_up_to(&mut self, want: u64) -> io::Result<u64>;
}

/// A frame in memory.
pub(crate) struct SliceSource<'a>(pub(crate) &'a [u8]);

impl Source for SliceSource<'_> {
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let start = usize::try_from(at).unwrap_or(usize::MAX).min(self.0.len());
        let end = start.saturating_add(len).min(self.0.len());
        Ok(self.0.get(start..end).unwrap_or_default().to_vec())
    }

    fn len_up_to(&mut self, want: u64) -> io::Result<u64> {
        Ok((self.0.len() as u64).min(want))
    }
}

/// A reader read from its start, once: the bytes read are kept as far as a content
/// needs them; the rest of the header is read and dropped.
pub(crate) struct Sequential<R> {
    reader: R,
    kept: Vec<u8>,
    dropped: u64,
}

impl<R: Read> Sequential<R> {
    pub(crate) fn new(reader: R) -> Self {
        Sequential {
            reader,
            kept: Vec::new(),
            dropped: 0,
        }
    }
}

impl<R: Read> Source for Sequential<R> {
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let end = usize::try_from(at)
            .unwrap_or(usize::MAX)
            .saturating_add(len);
        if self.dropped == 0 && self.kept.len() < end {
            let more = end - self.kept.len();
            read_up_to(&mut self.reader, more, &mut self.kept)?;
        }
        SliceSource(&self.kept).read_at(at, len)
    }

    fn len_up_to(&mut self, want: u64) -> io::Result<u64> {
        let mut scratch = [0u8; 8192];
        loop {
            let have = self.kept.len() as u64 + self.dropped;
            if have >= want {
                return Ok(want);
            }
            let n = (want - have).min(scratch.len() as u64) as usize;
            let got = read_fully(&mut self.reader, scratch.get_mut(..n).unwrap_or_default())?;
            if got == 0 {
                return Ok(have);
            }
            self.dropped += got as u64;
        }
    }
}

/// A seekable file of known length: only the bytes asked for are read.
pub(crate) struct Positional<F> {
    pub(crate) file: F,
    pub(crate) len: u64,
}

impl<F: Read + Seek> Source for Positional<F> {
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let len = (len as u64).min(self.len.saturating_sub(at)) as usize;
        let mut out = Vec::new();
        if len > 0 {
            self.file.seek(SeekFrom::Start(at))?;
            read_up_to(&mut self.file, len, &mut out)?;
        }
        Ok(out)
    }

    fn len_up_to(&mut self, want: u64) -> io::Result<u64> {
        Ok(self.len.min(want))
    }
}

/// Read up to `buf.len()` bytes, stopping early only at end of input.
fn read_fully<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        let dst = buf.get_mut(got..).unwrap_or_default();
        match r.read(dst) {
            Ok(0) => break,
            Ok(k) if k <= dst.len() => got += k,
            Ok(_) => return Err(io::Error::other("reader returned more bytes than asked")),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Append up to `n` more bytes from `r` to `out`, growing `out` only as data
/// arrives (a bogus huge `n` costs nothing if the input is short).
fn read_up_to<R: Read>(r: &mut R, mut n: usize, out: &mut Vec<u8>) -> io::Result<()> {
    let mut chunk = [0u8; 8192];
    while n > 0 {
        let want = n.min(chunk.len());
        let got = read_fully(r, chunk.get_mut(..want).unwrap_or_default())?;
        out.extend_from_slice(chunk.get(..got).unwrap_or_default());
        n -= got;
        if got < want {
            break;
        }
    }
    Ok(())
}
