//! The crate's one reader ([`crate::wire::read::Reader`]) for a frame's header and
//! trailer: its errors become [`FrameError`]s at frame offsets, `Truncated` before
//! `header_len` is trusted and `OutOfHeader` after.

use super::error::{FrameError, FrameErrorKind};
use crate::located::Offset;
use crate::wire::read::Reader;
use crate::wire::{Expected, ReadError};

/// Where reads are allowed to go (the frame's one name for it, [`Past`]).
pub(crate) use super::lift::Past as Bound;

/// The crate's reader over bytes that start at frame byte `base`, with its errors turned
/// into frame errors.
pub(crate) struct Fields<'a> {
    pub(crate) r: Reader<'a>,
    pub(crate) bound: Bound,
    pub(crate) base: u64,
}

impl<'a> Fields<'a> {
    /// `bytes`, which start at frame byte `base`, read up to `bound`.
    pub(crate) fn new(bytes: &'a [u8], bound: Bound, base: u64) -> Self {
        Fields {
            r: Reader::new(bytes),
            bound,
            base,
        }
    }

    /// The position in the bytes read.
    pub(crate) fn pos(&self) -> usize {
        self.r.position()
    }

    /// The frame offset of position `pos` of the bytes read.
    pub(crate) fn at(&self, pos: usize) -> u64 {
        self.base + pos as u64
    }

    fn lift(&self, e: ReadError) -> FrameError {
        FrameError::from_reader(e, self.base, self.bound)
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
        read: impl FnOnce(&mut Reader<'a>, Expected) -> Result<T, ReadError>,
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

/// A field at `offset` of the frame holding a value the format does not allow.
pub(crate) fn invalid(
    offset: impl Offset,
    field: &'static str,
    value: impl Into<i128>,
    reason: &'static str,
) -> FrameError {
    FrameError::at(
        offset,
        FrameErrorKind::InvalidField {
            field,
            value: value.into(),
            reason,
        },
    )
}
