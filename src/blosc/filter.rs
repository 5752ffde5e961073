//! [`Filter`]: one slot of the filter pipeline.

use core::fmt;

use super::names;

/// One slot of the filter pipeline (`BLOSC_SHUFFLE` and the others), as the frame
/// header and the chunk's extended header store it: an id, and a meta byte beside it.
///
/// Compared with a `u8`, a filter is its id (as python's `blosc2.Filter`, an `IntEnum`).
///
/// ```
/// use b2nd_meta::blosc::Filter;
///
/// assert_eq!(Filter::from_id(2), Filter::BitShuffle);
/// assert_eq!((Filter::Delta.id(), Filter::Other(32).name()), (3, Some("ndcell")));
/// assert_eq!(Filter::Other(32).to_string(), "ndcell (filter 32)");
/// assert_eq!([Filter::None, Filter::Shuffle], [0, 1]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Filter {
    /// 0: no filter.
    None,
    /// 1: byte shuffle; the meta byte, when not 0, is the element size.
    Shuffle,
    /// 2: bit shuffle.
    BitShuffle,
    /// 3: delta.
    Delta,
    /// 4: precision truncation.
    TruncPrec,
    /// 35: bytedelta (a C-Blosc2 plugin); the meta byte, when not 0, is the element size.
    ByteDelta,
    /// 36: integer truncation (a C-Blosc2 plugin): the meta byte (signed) is the bits
    /// kept (positive) or zeroed (negative). Lossy; undoing it is a copy.
    IntTrunc,
    /// Any other id (registered or user-defined).
    Other(u8),
}

impl Filter {
    /// The filter of id `id`.
    pub const fn from_id(id: u8) -> Filter {
        match id {
            0 => Filter::None,
            1 => Filter::Shuffle,
            2 => Filter::BitShuffle,
            3 => Filter::Delta,
            4 => Filter::TruncPrec,
            35 => Filter::ByteDelta,
            36 => Filter::IntTrunc,
            other => Filter::Other(other),
        }
    }

    /// The filter python-blosc2 names `name`, in any case (`"shuffle"`,
    /// `"BYTEDELTA"`, `"nofilter"`).
    ///
    /// ```
    /// use b2nd_meta::blosc::Filter;
    /// assert_eq!([Filter::from_name("BitShuffle"), Filter::from_name("crc")], [Some(Filter::BitShuffle), None]);
    /// ```
    pub fn from_name(name: &str) -> Option<Filter> {
        names::filter_id(&name.to_ascii_lowercase()).map(Filter::from_id)
    }

    /// Its id.
    pub const fn id(self) -> u8 {
        match self {
            Filter::None => 0,
            Filter::Shuffle => 1,
            Filter::BitShuffle => 2,
            Filter::Delta => 3,
            Filter::TruncPrec => 4,
            Filter::ByteDelta => 35,
            Filter::IntTrunc => 36,
            Filter::Other(id) => id,
        }
    }

    /// Its name as python-blosc2 spells it (`"shuffle"`), or a registered plugin's
    /// (`"ndcell"`); `None` for an id no one registers.
    pub fn name(self) -> Option<&'static str> {
        names::filter_name(self.id())
    }
}

impl PartialEq<u8> for Filter {
    fn eq(&self, id: &u8) -> bool {
        self.id() == *id
    }
}

/// `no filter`, `shuffle`, `ndcell (filter 32)`, `filter 200`.
impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (*self, self.name()) {
            (Filter::None, _) => f.write_str("no filter"),
            (Filter::Other(id), Some(name)) => write!(f, "{name} (filter {id})"),
            (Filter::Other(id), None) => write!(f, "filter {id}"),
            (_, name) => f.write_str(name.unwrap_or_default()),
        }
    }
}
