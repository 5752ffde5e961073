//! Bytes in memory as a [`ReadAt`]: slices, vectors, cursors, and any source behind a
//! reference, a `Box` or an `Arc`.

use std::boxed::Box;
use std::io;
use std::sync::Arc;
use std::vec::Vec;

use super::read_at::ReadAt;

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

/// The bytes a cursor holds, read at offsets from their start (the cursor's position
/// plays no part).
///
/// ```
/// use b2nd_meta::io::ReadAt;
/// let cursor = std::io::Cursor::new(vec![1u8, 2, 3]);
/// let mut buf = [0u8; 2];
/// assert_eq!((cursor.read_at(&mut buf, 1)?, buf), (2, [2, 3]));
/// # Ok::<(), std::io::Error>(())
/// ```
impl<T: AsRef<[u8]>> ReadAt for io::Cursor<T> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.get_ref().as_ref().read_at(buf, offset)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.get_ref().as_ref().len() as u64)
    }
}

/// A source behind a reference or a pointer reads as the source itself.
macro_rules! forward {
    ($($ptr:ty),*) => {$(
        impl<T: ReadAt + ?Sized> ReadAt for $ptr {
            fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
                (**self).read_at(buf, offset)
            }

            fn size(&self) -> io::Result<u64> {
                (**self).size()
            }

            fn size_up_to(&self, want: u64) -> io::Result<u64> {
                (**self).size_up_to(want)
            }

            fn will_read(&self, offset: u64, len: u64) {
                (**self).will_read(offset, len)
            }
        }
    )*};
}

forward!(&T, &mut T, Box<T>, Arc<T>);
