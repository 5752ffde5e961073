//! [`Hex`]: bytes, in memory or in a frame's file, that serialize as lowercase hex.

use std::fmt;

use b2nd_meta::frame::FrameFile;
use serde::{Serialize, Serializer};

/// Bytes that serialize as a lowercase hex string, written piece by piece, so that
/// `serde_json::to_writer` never holds the whole string in memory.
pub enum Hex<'f> {
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// `len` bytes of `frame`'s file from `offset`, read 64 KiB at a time when
    /// serialized (from the file kept open; an I/O error then is a serialization error).
    Frame {
        /// The frame.
        frame: &'f FrameFile,
        /// Where the bytes start.
        offset: u64,
        /// How many.
        len: u64,
    },
}

impl Hex<'_> {
    /// How many bytes (not hex digits).
    pub fn len(&self) -> u64 {
        match self {
            Hex::Bytes(b) => b.len() as u64,
            Hex::Frame { len, .. } => *len,
        }
    }

    /// The bytes when they are in memory.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Hex::Bytes(b) => Some(b),
            Hex::Frame { .. } => None,
        }
    }
}

/// The most read at once when streaming from a file.
const PIECE: u64 = 1 << 16;

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hex::Bytes(b) => fmt::Display::fmt(&b2nd_meta::hex::Lower(b), f),
            Hex::Frame { frame, offset, len } => {
                let end = offset.saturating_add(*len);
                let mut at = *offset;
                while at < end {
                    let next = end.min(at + PIECE);
                    let piece = frame.read_bytes(at..next).map_err(|_| fmt::Error)?;
                    fmt::Display::fmt(&b2nd_meta::hex::Lower(&piece), f)?;
                    at = next;
                }
                Ok(())
            }
        }
    }
}

impl Serialize for Hex<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
