//! [`Window`]: a byte range of another source.

use std::io;

use super::read_at::{ReadAt, SharedSource};

/// Bytes `[start, start + len)` of another source, read from offset 0: a zip member, a
/// frame inside a file, a store's embedded frame.
///
/// ```
/// use b2nd_meta::io::{ReadAt, Window};
/// use std::sync::Arc;
///
/// let window = Window::new(Arc::new(b"0123456789".to_vec()), 3, 4);
/// assert_eq!(window.size()?, 4);
/// let mut buf = [0u8; 8];
/// assert_eq!(window.read_at(&mut buf, 2)?, 2);
/// assert_eq!(&buf[..2], b"56");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone)]
pub struct Window {
    src: SharedSource,
    start: u64,
    len: u64,
}

impl Window {
    /// Bytes `[start, start + len)` of `src`.
    pub fn new(src: SharedSource, start: u64, len: u64) -> Self {
        Window { src, start, len }
    }
}

impl core::fmt::Debug for Window {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Window")
            .field("start", &self.start)
            .field("len", &self.len)
            .finish()
    }
}

impl ReadAt for Window {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let left = self.len.saturating_sub(offset);
        let n = usize::try_from(left).map_or(buf.len(), |left| left.min(buf.len()));
        match buf.get_mut(..n) {
            Some(dst) if n > 0 => self.src.read_at(dst, self.start.saturating_add(offset)),
            _ => Ok(0),
        }
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.len)
    }

    fn will_read(&self, offset: u64, len: u64) {
        let len = len.min(self.len.saturating_sub(offset));
        self.src.will_read(self.start.saturating_add(offset), len);
    }
}
