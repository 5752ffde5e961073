//! [`WriteAt`], the one byte-sink trait: bytes written at given offsets, as a file is
//! with `pwrite`. The frame writers write through it (a staging file, bytes in memory),
//! each write one counted step (`Steps`).

use std::fs::File;
use std::io;
use std::sync::Mutex;
use std::vec::Vec;

/// A sink of bytes written at given offsets, as a file is with `pwrite`.
///
/// ```
/// use b2nd_meta::io::{ReadAt, WriteAt};
/// use std::sync::Mutex;
///
/// let sink = Mutex::new(b"hello".to_vec());
/// sink.write_all_at(b"LL", 2)?;
/// sink.write_all_at(b"!", 6)?; // past the end: the gap reads as zeros
/// assert_eq!(*sink.lock().unwrap(), b"heLLo\0!");
/// # Ok::<(), std::io::Error>(())
/// ```
pub trait WriteAt {
    /// Writes all of `buf` at `offset`.
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()>;

    /// Makes what was written durable (a file's `fdatasync`); nothing for memory.
    fn sync_data(&self) -> io::Result<()> {
        Ok(())
    }

    /// Cuts or extends the sink to `len` bytes (zeros).
    fn set_len(&self, len: u64) -> io::Result<()>;
}

impl WriteAt for File {
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        super::file::write_all_at(self, buf, offset)
    }

    fn sync_data(&self) -> io::Result<()> {
        File::sync_data(self)
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        File::set_len(self, len)
    }
}

fn too_large() -> io::Error {
    io::Error::new(io::ErrorKind::OutOfMemory, "past what memory can address")
}

/// Bytes in memory, behind a lock so that they are written through `&self`.
impl WriteAt for Mutex<Vec<u8>> {
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        let mut bytes = self
            .lock()
            .map_err(|_| io::Error::other("a writer panicked"))?;
        let start = usize::try_from(offset).map_err(|_| too_large())?;
        let end = start.checked_add(buf.len()).ok_or_else(too_large)?;
        let have = bytes.len();
        if have < end {
            bytes.try_reserve(end - have).map_err(|_| too_large())?;
            bytes.resize(end, 0);
        }
        bytes[start..end].copy_from_slice(buf);
        Ok(())
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        let mut bytes = self
            .lock()
            .map_err(|_| io::Error::other("a writer panicked"))?;
        let len = usize::try_from(len).map_err(|_| too_large())?;
        let have = bytes.len();
        if len > have {
            bytes.try_reserve(len - have).map_err(|_| too_large())?;
        }
        bytes.resize(len, 0);
        Ok(())
    }
}

impl<W: WriteAt + ?Sized> WriteAt for &W {
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        (**self).write_all_at(buf, offset)
    }

    fn sync_data(&self) -> io::Result<()> {
        (**self).sync_data()
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        (**self).set_len(len)
    }
}
