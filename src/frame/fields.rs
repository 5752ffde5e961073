//! The crate's one reader ([`crate::msgpack::read::Reader`]) for frame headers: its errors
//! become [`FrameError`]s, `Truncated` before `header_len` is trusted and `OutOfHeader`
//! after.

use super::error::{FrameError, FrameErrorKind};
use crate::error::{Error, ErrorKind, Expected};
use crate::msgpack::read::Reader;

/// Where reads are allowed to go.
#[derive(Clone, Copy)]
pub(crate) enum Bound {
    /// Up to the end of the input (fixed part, before header_len is trusted).
    Input,
    /// Up to header_len (metalayer section).
    Header(u32),
}

/// The crate's reader, with its errors turned into frame errors.
pub(crate) struct Fields<'a> {
    pub(crate) r: Reader<'a>,
    pub(crate) bound: Bound,
}

/// The words of an `Expected::Described`.
fn described(expected: &Expected) -> &'static str {
    match expected {
        Expected::Described(what) => what,
        _ => "a frame header field",
    }
}

impl<'a> Fields<'a> {
    pub(crate) fn pos(&self) -> usize {
        self.r.position()
    }

    fn lift(&self, e: Error) -> FrameError {
        let offset = e.offset().unwrap_or(0);
        let kind = match e.kind() {
            ErrorKind::InvalidMarker { expected, found } => FrameErrorKind::BadMarker {
                expected: described(expected),
                found: found.0,
            },
            ErrorKind::UnexpectedEnd {
                expected,
                input_len,
                needed,
            } => {
                let what = described(expected);
                let end = (*input_len as u64).saturating_add(*needed as u64);
                match self.bound {
                    Bound::Input => FrameErrorKind::Truncated {
                        what,
                        end,
                        available: *input_len as u64,
                    },
                    Bound::Header(header_len) => FrameErrorKind::OutOfHeader {
                        what,
                        end,
                        header_len,
                    },
                }
            }
            // The reader's byte-level calls raise nothing else.
            _ => FrameErrorKind::Truncated {
                what: "a frame header field",
                end: offset,
                available: self.r.position() as u64,
            },
        };
        FrameError::at(offset, kind)
    }

    pub(crate) fn marker(&mut self, marker: u8, what: &'static str) -> Result<(), FrameError> {
        match self.r.marker(marker, Expected::Described(what)) {
            Ok(_) => Ok(()),
            Err(e) => Err(self.lift(e)),
        }
    }

    /// One value read by `read` (a [`Reader`] method), its error made a frame error.
    pub(crate) fn read<T>(
        &mut self,
        read: impl FnOnce(&mut Reader<'a>, Expected) -> Result<T, Error>,
        what: &'static str,
    ) -> Result<T, FrameError> {
        let r = read(&mut self.r, Expected::Described(what));
        r.map_err(|e| self.lift(e))
    }

    pub(crate) fn byte(&mut self, what: &'static str) -> Result<u8, FrameError> {
        self.read(Reader::byte, what)
    }

    pub(crate) fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], FrameError> {
        self.read(|r, e| r.bytes(n, e), what)
    }
}

pub(crate) fn invalid(
    offset: usize,
    field: &'static str,
    value: impl Into<i128>,
    reason: &'static str,
) -> FrameError {
    FrameError::at(
        offset as u64,
        FrameErrorKind::InvalidField {
            field,
            value: value.into(),
            reason,
        },
    )
}
