//! [`Deserializer`]: where the fixed-width format is read, and how a value read ends (in
//! place, or refused when it leaves bytes a whole input must not have).

use crate::meta::error::{Error, ErrorKind, Result};
use crate::wire::read::Reader;

/// A serde `Deserializer` reading the fixed-width metalayer format from a byte slice.
///
/// Strings and byte strings are borrowed from the input. Use [`Deserializer::end`] to
/// refuse trailing bytes, or [`Deserializer::position`] to learn where a value ended.
///
/// ```
/// use serde::Deserialize;
///
/// let bytes = [0x92, 0x07, 0xd2, 0x00, 0x00, 0x00, 0x2a, 0xff];
/// let mut de = b2nd_meta::Deserializer::from_slice(&bytes);
/// let value = <(u8, i32)>::deserialize(&mut de).unwrap();
/// assert_eq!(value, (7, 42));
/// assert_eq!(de.position(), 7);
/// assert!(de.end().is_err()); // the 0xff is left over
/// ```
#[derive(Clone, Debug)]
pub struct Deserializer<'de> {
    pub(super) reader: Reader<'de>,
    /// Arrays open around the current position, bounded by [`MAX_DEPTH`].
    pub(super) depth: usize,
    /// Whether the top-level value must fill the input ([`crate::from_slice`]): then
    /// trailing bytes are refused where that value ends, so that the value is returned
    /// where it was built rather than moved past a check.
    whole: bool,
}

/// How deeply arrays may nest. A metalayer nests two deep; the bound keeps a crafted
/// input (`0x91 0x91 0x91 ...`) from exhausting the stack through `deserialize_any`.
pub const MAX_DEPTH: usize = 32;

impl<'de> Deserializer<'de> {
    /// A deserializer at the start of `input`.
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            reader: Reader::new(input),
            depth: 0,
            whole: false,
        }
    }

    /// A deserializer whose top-level value must fill all of `input`.
    #[inline]
    pub(crate) fn whole(input: &'de [u8]) -> Self {
        Deserializer {
            whole: true,
            ..Deserializer::from_slice(input)
        }
    }

    /// Whether the top-level value ends `at` while bytes follow that the input must not
    /// have: the error for them.
    #[inline]
    pub(super) fn trailing_at(&self, at: usize) -> Option<Error> {
        let len = self.reader.input_len();
        if !self.whole || self.depth != 0 || at >= len {
            return None;
        }
        Some(Error::at(at, ErrorKind::TrailingBytes { count: len - at }))
    }

    /// A value read by the deserializer itself (not by a nested visitor): located at
    /// `start`, and refused when it is the top-level value of a whole input and does
    /// not end it.
    #[inline]
    pub(super) fn finish<T>(&self, start: usize, result: Result<T>) -> Result<T> {
        let value = Self::located(start, result)?;
        match self.trailing_at(self.position()) {
            None => Ok(value),
            Some(e) => Err(e),
        }
    }

    /// Offset of the next byte to read: after a value, its length.
    pub fn position(&self) -> usize {
        self.reader.position()
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> &'de [u8] {
        self.reader.remaining()
    }

    /// Succeeds only if the whole input has been read.
    pub fn end(&self) -> Result<()> {
        match self.reader.remaining().len() {
            0 => Ok(()),
            count => Err(Error::at(
                self.reader.position(),
                ErrorKind::TrailingBytes { count },
            )),
        }
    }

    /// Runs a visitor call for the value starting at `start`, giving its errors that
    /// offset when they have none (visitors cannot know where they are).
    #[inline]
    pub(super) fn located<T>(start: usize, result: Result<T>) -> Result<T> {
        result.map_err(|e| e.or_at(start))
    }
}
