//! [`Hex`]: bytes, in memory or in a file, that serialize as lowercase hex.

use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::path::PathBuf;
use std::vec::Vec;

use serde::{Serialize, Serializer};

/// Bytes that serialize as a lowercase hex string, written piece by piece, so that
/// `serde_json::to_writer` never holds the whole string in memory.
///
/// ```
/// use b2nd_meta::report::Hex;
///
/// let hex = Hex::Bytes(vec![0x81, 0xa6]);
/// assert_eq!((hex.to_string().as_str(), hex.len()), ("81a6", 2));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hex {
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// `len` bytes of the file at `path` from `offset`, read 64 KiB at a time when
    /// serialized (an I/O error then is a serialization error).
    File {
        /// The file.
        path: PathBuf,
        /// Where the bytes start.
        offset: u64,
        /// How many.
        len: u64,
    },
}

impl Hex {
    /// How many bytes (not hex digits).
    pub fn len(&self) -> u64 {
        match self {
            Hex::Bytes(b) => b.len() as u64,
            Hex::File { len, .. } => *len,
        }
    }

    /// Whether there are no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes when they are in memory.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Hex::Bytes(b) => Some(b),
            Hex::File { .. } => None,
        }
    }
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    fmt::Display::fmt(&crate::hex::Lower(bytes), f)
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hex::Bytes(b) => write_hex(f, b),
            Hex::File { path, offset, len } => {
                let mut file = std::fs::File::open(path).map_err(|_| fmt::Error)?;
                file.seek(SeekFrom::Start(*offset))
                    .map_err(|_| fmt::Error)?;
                let mut chunk = std::vec![0u8; 1 << 16];
                let mut left = *len;
                while left > 0 {
                    let want = usize::try_from(left.min(1 << 16)).unwrap_or(1 << 16);
                    let piece = chunk.get_mut(..want).ok_or(fmt::Error)?;
                    file.read_exact(piece).map_err(|_| fmt::Error)?;
                    write_hex(f, piece)?;
                    left -= want as u64;
                }
                Ok(())
            }
        }
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
