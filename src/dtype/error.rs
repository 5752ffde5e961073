//! [`DtypeError`]: where in the dtype string parsing stopped, and why.

use alloc::format;
use alloc::string::String;

use crate::located::{Class, Kind, Located};

use super::limits::{MAX_ITEMSIZE, MAX_NESTING};

/// Why a dtype string could not be parsed, and where.
///
/// [`offset`](Self::offset) is the byte offset into the dtype string;
/// [`kind`](Self::kind) says what sort of problem it is, with what was expected
/// and what was found. The message is the crate's one form: what was expected
/// and found, then ` at byte N`.
///
/// ```
/// use b2nd_meta::dtype::{Dtype, DtypeErrorKind};
///
/// let err = Dtype::parse("<i3").unwrap_err();
/// assert_eq!(err.offset(), Some(2));
/// assert!(matches!(err.kind(), DtypeErrorKind::Invalid { .. }));
/// assert_eq!(err.found(), "\"3\"");
/// assert_eq!(
///     err.to_string(),
///     "expected a size of 1, 2, 4 or 8 bytes for kind 'i', found \"3\" at byte 2"
/// );
/// ```
pub type DtypeError = Located<DtypeErrorKind>;

/// What sort of problem a [`DtypeError`] is; each kind carries what was
/// expected and what was found.
///
/// ```
/// use b2nd_meta::dtype::{Dtype, DtypeErrorKind};
///
/// let kind = |s: &str| Dtype::parse(s).unwrap_err().kind().clone();
/// assert!(matches!(kind("[('a', '<i4')"), DtypeErrorKind::Syntax { .. }));
/// assert!(matches!(kind("[('a', 'i4'), ('a', 'f8')]"), DtypeErrorKind::Invalid { .. }));
/// assert!(matches!(kind("intp"), DtypeErrorKind::Unsupported { .. }));
/// assert!(matches!(kind("S99999999999999999999"), DtypeErrorKind::LimitExceeded { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DtypeErrorKind {
    /// The text is not a type string, a NumPy name or a Python literal: an
    /// unknown type character or name, a missing bracket, comma or quote, a
    /// bad escape, characters after the end.
    #[error("expected {expected}, found {found}")]
    Syntax {
        /// What the grammar allows here.
        expected: String,
        /// What the input holds: a quoted excerpt, or `end of input`.
        found: String,
    },
    /// A well-formed string that is not a dtype NumPy builds: a size the kind
    /// does not have (`<i3`), a misshapen field tuple or dict, a field name
    /// used twice, an offset or itemsize that does not fit the fields.
    #[error("expected {expected}, found {found}")]
    Invalid {
        /// What NumPy requires.
        expected: String,
        /// What was given.
        found: String,
    },
    /// A dtype NumPy reads but this crate refuses on purpose: names and type
    /// codes whose size depends on the platform (`int`, `intp`, `l`, `g`).
    #[error("expected {expected}, found {found}")]
    Unsupported {
        /// What this crate accepts instead.
        expected: String,
        /// What was given.
        found: String,
    },
    /// A size, offset, dimension count, datetime multiple or nesting depth past
    /// its limit ([`MAX_ITEMSIZE`](super::MAX_ITEMSIZE),
    /// [`MAX_NDIM`](super::MAX_NDIM), [`MAX_NESTING`](super::MAX_NESTING)).
    #[error("expected {expected}, found {found}")]
    LimitExceeded {
        /// The limit.
        expected: String,
        /// What went past it.
        found: String,
    },
}

impl DtypeError {
    /// What the parser expected at [`offset`](Self::offset).
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("M8[ns").unwrap_err().expected(), "']' closing the datetime unit");
    /// ```
    pub fn expected(&self) -> &str {
        self.kind().parts().0
    }

    /// What it found there: a quoted excerpt of the input, `end of input`,
    /// or a description of an invalid value.
    ///
    /// ```
    /// use b2nd_meta::dtype::Dtype;
    ///
    /// assert_eq!(Dtype::parse("").unwrap_err().found(), "end of input");
    /// ```
    pub fn found(&self) -> &str {
        self.kind().parts().1
    }

    /// Moves the error from a sub-string to the whole input.
    pub(super) fn relocate(self, loc: Loc) -> DtypeError {
        let offset = match loc {
            Loc::Shift(base) => self.offset().map(|o| o.saturating_add(base as u64)),
            Loc::Fixed(at) => Some(at as u64),
        };
        self.moved_to(offset)
    }
}

impl DtypeErrorKind {
    /// What was expected and what was found: every kind says both.
    fn parts(&self) -> (&str, &str) {
        match self {
            DtypeErrorKind::Syntax { expected, found }
            | DtypeErrorKind::Invalid { expected, found }
            | DtypeErrorKind::Unsupported { expected, found }
            | DtypeErrorKind::LimitExceeded { expected, found } => (expected, found),
        }
    }
}

impl Kind for DtypeErrorKind {
    fn class(&self) -> Class {
        match self {
            DtypeErrorKind::Syntax { .. } => Class::Syntax,
            DtypeErrorKind::Invalid { .. } => Class::Invalid,
            DtypeErrorKind::Unsupported { .. } => Class::Unsupported,
            DtypeErrorKind::LimitExceeded { .. } => Class::TooLarge,
        }
    }
}

/// How offsets inside a sub-string map to offsets in the whole input.
#[derive(Clone, Copy)]
pub(super) enum Loc {
    /// The sub-string is the input verbatim from this offset.
    Shift(usize),
    /// The sub-string was decoded (escapes); report this offset instead.
    Fixed(usize),
}

/// The constructors of each kind: an error at `pos` with what was expected and found.
macro_rules! constructors {
    ($($(#[$doc:meta])* $name:ident => $variant:ident,)*) => {$(
        $(#[$doc])*
        pub(super) fn $name(
            pos: usize,
            expected: impl Into<String>,
            found: impl Into<String>,
        ) -> DtypeError {
            let (expected, found) = (expected.into(), found.into());
            DtypeError::at(pos, DtypeErrorKind::$variant { expected, found })
        }
    )*};
}

constructors! {
    /// A [`DtypeErrorKind::Syntax`] error at `pos`.
    syntax => Syntax,
    /// A [`DtypeErrorKind::Invalid`] error at `pos`.
    invalid => Invalid,
    /// A [`DtypeErrorKind::Unsupported`] error at `pos`.
    unsupported => Unsupported,
    /// A [`DtypeErrorKind::LimitExceeded`] error at `pos`.
    too_large => LimitExceeded,
}

/// Nesting past [`MAX_NESTING`] at `pos`.
pub(super) fn nesting_error(pos: usize) -> DtypeError {
    too_large(
        pos,
        format!("structs and subarrays nested at most {MAX_NESTING} levels deep"),
        "deeper nesting",
    )
}

/// A `what` (struct, subarray) larger than [`MAX_ITEMSIZE`] at `pos`.
pub(super) fn size_error(pos: usize, what: &str) -> DtypeError {
    too_large(
        pos,
        format!("{what} of at most {MAX_ITEMSIZE} bytes"),
        "a larger size",
    )
}

/// A short quoted excerpt of `s` from `pos`, or `end of input`.
pub(super) fn excerpt(s: &str, pos: usize) -> String {
    match s.get(pos..) {
        None => String::from("invalid position"),
        Some("") => String::from("end of input"),
        Some(rest) => {
            let mut short: String = rest.chars().take(16).collect();
            if short.len() < rest.len() {
                short.push_str("...");
            }
            format!("{short:?}")
        }
    }
}

/// A syntax error at `pos` of `s`, showing what is there.
pub(super) fn error_at(s: &str, pos: usize, expected: impl Into<String>) -> DtypeError {
    syntax(pos, expected, excerpt(s, pos))
}
