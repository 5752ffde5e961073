//! The Blosc vocabulary, written once and shared by the frame header, the chunk header,
//! the decoders and the command line: [`Codec`], [`Filter`], [`SplitMode`], [`Special`],
//! [`MAX_FILTERS`], and the one table of their names and ids (python-blosc2's names,
//! lower-cased; C-Blosc2's `codecs-registry.h` and `filters-registry.h` for plugins).
//!
//! ```
//! use b2nd_meta::blosc::{Codec, Filter, SplitMode};
//!
//! assert_eq!((Codec::from_id(5), Codec::from_id(5).name()), (Codec::Zstd, "zstd"));
//! assert_eq!(Codec::from_id(35).to_string(), "zfp_rate (codec 35)");
//! assert_eq!(Filter::from_id(35), Filter::ByteDelta);
//! assert_eq!(SplitMode::from_id(3).name(), "auto");
//! ```

mod codec;
mod filter;
mod names;
mod special;
mod split;

pub use codec::Codec;
pub use filter::Filter;
pub use special::Special;
pub use split::SplitMode;

/// Number of filter slots in a pipeline (`BLOSC2_MAX_FILTERS`): the frame header and
/// the chunk's extended header both hold six.
///
/// ```
/// let header = b2nd_meta::frame::open("tests/data/corpus/ndim2_i4.b2nd")?.header;
/// assert_eq!(header.info.filters.len(), b2nd_meta::blosc::MAX_FILTERS);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub const MAX_FILTERS: usize = 6;
