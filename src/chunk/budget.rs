//! [`DecodeBudget`]: how many bytes one call (one command) may decode in all, shared by
//! everything it decodes, so that what a hostile file costs is bounded by the budget,
//! not by what its headers claim.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::vec::Vec;

use super::decode::decode_with_limit;
use super::error::{ChunkError, ChunkErrorKind, OverBudget};
use super::header::{at, ChunkHeader};

/// A decode budget: the bytes a call may produce by decoding, in all (chunks decoded,
/// bytes expanded from special chunks, and the memory of values read from them), shared
/// by its clones. What is spent stays spent: a chunk decoded twice costs twice. Past the
/// budget, a decode is refused before anything is allocated
/// ([`ChunkErrorKind::OverBudget`]).
///
/// One budget serves one command of the `b2nd-meta` tool (`--budget`), or one library
/// call that decodes many things (a store opened with
/// [`container::open`](crate::container::open) with a
/// [`Source::budget`](crate::frame::Source::budget) and everything listed from it;
/// the values of a frame's vlmeta read with
/// [`VlMetalayer::value_within`](crate::frame::VlMetalayer::value_within)).
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkErrorKind, DecodeBudget};
///
/// // python-blosc2's {"a": 1}: a memcpyed chunk of 4 bytes.
/// let mut c = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
/// c.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0xa1, 0x61, 0x01]);
/// let budget = DecodeBudget::new(10);
/// assert_eq!(chunk::decode_within(&c, &budget.clone())?, [0x81, 0xa1, 0x61, 0x01]);
/// assert_eq!(chunk::decode_within(&c, &budget)?.len(), 4);
/// assert_eq!((budget.spent(), budget.left()), (8, 2));
/// let err = chunk::decode_within(&c, &budget).unwrap_err();
/// assert!(matches!(err.kind(), ChunkErrorKind::OverBudget(o) if o.left == 2));
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DecodeBudget(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    limit: u64,
    spent: AtomicU64,
}

impl DecodeBudget {
    /// The budget of a command of the `b2nd-meta` tool unless told otherwise, and of
    /// [`DecodeBudget::default`]: 128 MiB, twice the largest chunk the decoder takes
    /// ([`DEFAULT_MAX_NBYTES`](super::DEFAULT_MAX_NBYTES)).
    pub const DEFAULT: u64 = 128 << 20;

    /// A budget of `limit` bytes.
    pub fn new(limit: u64) -> DecodeBudget {
        DecodeBudget(Arc::new(Shared {
            limit,
            spent: AtomicU64::new(0),
        }))
    }

    /// No limit but the per-chunk one.
    pub fn unlimited() -> DecodeBudget {
        DecodeBudget::new(u64::MAX)
    }

    /// The whole budget.
    pub fn limit(&self) -> u64 {
        self.0.limit
    }

    /// What was spent so far.
    pub fn spent(&self) -> u64 {
        self.0.spent.load(Ordering::Relaxed)
    }

    /// What is left.
    pub fn left(&self) -> u64 {
        self.limit().saturating_sub(self.spent())
    }

    /// Spends `nbytes`, or nothing and why when fewer are left.
    pub fn take(&self, nbytes: u64) -> Result<(), OverBudget> {
        self.0
            .spent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
                spent
                    .checked_add(nbytes)
                    .filter(|&total| total <= self.0.limit)
            })
            .map(|_| ())
            .map_err(|spent| OverBudget {
                nbytes,
                left: self.0.limit.saturating_sub(spent),
                limit: self.0.limit,
            })
    }
}

impl Default for DecodeBudget {
    /// A budget of [`DecodeBudget::DEFAULT`] bytes.
    fn default() -> Self {
        DecodeBudget::new(DecodeBudget::DEFAULT)
    }
}

/// [`decode_with_limit`](super::decode_with_limit) within a budget: a chunk of at most
/// `max_nbytes` whose `nbytes` the budget holds is spent from it, then decoded; one
/// the budget does not hold is refused before anything is allocated.
///
/// See [`DecodeBudget`] for an example.
pub fn decode_within(chunk: &[u8], budget: &DecodeBudget) -> Result<Vec<u8>, ChunkError> {
    decode_within_limit(chunk, super::DEFAULT_MAX_NBYTES, budget)
}

/// [`decode_within`] with a per-chunk limit of `max_nbytes`.
pub(crate) fn decode_within_limit(
    chunk: &[u8],
    max_nbytes: u32,
    budget: &DecodeBudget,
) -> Result<Vec<u8>, ChunkError> {
    let header = ChunkHeader::parse(chunk)?;
    // Over the per-chunk limit: the decoder's own refusal says so.
    if header.nbytes <= max_nbytes {
        budget
            .take(u64::from(header.nbytes))
            .map_err(|e| ChunkError::at(at::NBYTES, ChunkErrorKind::OverBudget(e)))?;
    }
    decode_with_limit(chunk, max_nbytes)
}
