//! The one way an inner error becomes a [`FrameError`]: the codec's or the reader's
//! error (offsets from the start of what it read) lifted into the frame, its offset
//! shifted to count from the start of the frame.

use std::string::ToString;

use super::error::{FrameError, FrameErrorKind};
use super::header::Metalayer;
use crate::meta::error::Error;
use crate::wire::{Expected, ReadError, ReadErrorKind};

/// Where a reader was allowed to read, which names what running out of bytes means.
#[derive(Clone, Copy)]
pub(crate) enum Past {
    /// Up to the end of the input: running out is [`FrameErrorKind::Truncated`].
    Input,
    /// Up to the declared header length: running out is [`FrameErrorKind::OutOfHeader`].
    Header(u32),
}

impl FrameError {
    /// An error about a part of the frame starting at frame byte `base`, whose own
    /// offset (from that part's start) is `inner`: the error's offset is the frame
    /// offset of the offending byte, or none when the inner error has none.
    pub(crate) fn inside(base: u64, inner: Option<u64>, kind: FrameErrorKind) -> Self {
        match inner {
            Some(o) => FrameError::at(base.saturating_add(o), kind),
            None => FrameError::new(kind),
        }
    }

    /// The crate reader's error on bytes starting at frame byte `base`, as a frame error:
    /// a wrong marker, or the bytes running out (`past` says which bound).
    pub(crate) fn from_reader(e: ReadError, base: u64, past: Past) -> Self {
        let (offset, kind) = e.into_parts();
        let described = |expected: &Expected| match expected {
            Expected::Described(what) => *what,
            _ => "a frame field",
        };
        let kind = match kind {
            ReadErrorKind::InvalidMarker { expected, found } => FrameErrorKind::BadMarker {
                expected: described(&expected),
                found: found.0,
            },
            ReadErrorKind::UnexpectedEnd {
                expected,
                input_len,
                needed,
            } => {
                let what = described(&expected);
                let available = base.saturating_add(input_len as u64);
                let end = available.saturating_add(needed as u64);
                match past {
                    Past::Input => FrameErrorKind::Truncated {
                        what,
                        end,
                        available,
                    },
                    Past::Header(header_len) => FrameErrorKind::OutOfHeader {
                        what,
                        end,
                        header_len,
                    },
                }
            }
            // The reader's byte-level calls raise nothing else.
            _ => FrameErrorKind::InvalidField {
                field: "a frame field",
                value: 0,
                reason: "unexpected value",
            },
        };
        FrameError::at(base.saturating_add(offset as u64), kind)
    }
}

impl Metalayer {
    /// This metalayer's content does not decode (or encode) because of `source`, whose
    /// offset counts from the start of the content.
    pub(crate) fn error(&self, source: Error) -> FrameError {
        let content_offset = self.content_offset();
        let at = source.offset();
        let kind = FrameErrorKind::Metalayer {
            name: self.name.to_string(),
            content_offset,
            source,
        };
        FrameError::inside(content_offset, at, kind)
    }
}
