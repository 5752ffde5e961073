//! Files as a [`ReadAt`] (`pread`), the one positioned write of the crate's writers, and
//! the staging name and directory sync of its replacing writes.

use std::fs::File;
use std::io;
use std::path::Path;

use super::read_at::ReadAt;

impl ReadAt for File {
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
            use std::io::{Read, Seek, SeekFrom};
            let mut file = self;
            file.seek(SeekFrom::Start(offset))?;
            file.read(buf)
        }
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

/// Writes all of `buf` at `offset` of `file` (`pwrite` until done).
pub(crate) fn write_all_at(file: &File, buf: &[u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, buf, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut file = file;
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(buf)
    }
}

/// Makes the entries of `dir` (a rename, a new file) durable: on Unix, `fsync` of the
/// directory.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// What a path is, when it is neither a regular file nor a directory (a FIFO, a socket,
/// a device: opening one for reading may block, and reading it may never end).
pub(crate) fn special_file(md: &std::fs::Metadata) -> Option<&'static str> {
    let ft = md.file_type();
    if ft.is_file() || ft.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a FIFO");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
        if ft.is_char_device() {
            return Some("a character device");
        }
        if ft.is_block_device() {
            return Some("a block device");
        }
    }
    Some("not a regular file")
}
