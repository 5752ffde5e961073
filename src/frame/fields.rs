//! The crate's one reader ([`crate::wire::read::Reader`]) for frame headers: its errors
//! become [`FrameError`]s, `Truncated` before `header_len` is trusted and `OutOfHeader`
//! after.

use super::error::{FrameError, FrameErrorKind};
use crate::meta::error::{Error, Expected};
use crate::wire::read::Reader;

/// Where reads are allowed to go (the frame's one name for it, [`Past`]).
pub(crate) use super::lift::Past as Bound;

/// The crate's reader, with its errors turned into frame errors.
pub(crate) struct Fields<'a> {
    pub(crate) r: Reader<'a>,
    pub(crate) bound: Bound,
}

impl<'a> Fields<'a> {
    pub(crate) fn pos(&self) -> usize {
        self.r.position()
    }

    fn lift(&self, e: Error) -> FrameError {
        FrameError::from_reader(e, 0, self.bound)
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
