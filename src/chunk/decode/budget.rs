//! [`DecodeBudget`]: how many bytes one call (one command) may decode in all, shared by
//! everything it decodes, so that what a hostile file costs is bounded by the budget,
//! not by what its headers claim; and how many one chunk may declare.

use alloc::sync::Arc;

use super::DEFAULT_MAX_NBYTES;
use crate::chunk::error::OverBudget;

/// The counter of bytes spent: 64 bits where the target has 64-bit atomics, else 32
/// (a budget past 4 GiB is then spent up to 4 GiB only).
#[cfg(target_has_atomic = "64")]
type Spent = core::sync::atomic::AtomicU64;
#[cfg(not(target_has_atomic = "64"))]
type Spent = core::sync::atomic::AtomicU32;

/// A decode budget: the bytes a call may produce by decoding, in all (chunks decoded,
/// bytes expanded from special chunks, and the memory of values read from them), shared
/// by its clones, and the most one chunk may declare ([`DecodeBudget::max_chunk`]).
/// What is spent stays spent: a chunk decoded twice costs twice. Past the budget, a
/// decode is refused before anything is allocated ([`ChunkErrorKind::OverBudget`]).
///
/// One budget serves one command of the `b2nd-meta` tool (`--budget`), or one library
/// call that decodes many things (a store opened with `container::open` and a
/// `Source::budget`, and everything listed from it; the values of a frame's vlmeta read with
/// `VlMetalayer::value_within`); [`chunk::decode`](super::decode) takes one for each
/// chunk it decodes ([`DecodeBudget::default`] for a chunk on its own).
///
/// [`ChunkErrorKind::OverBudget`]: crate::chunk::ChunkErrorKind::OverBudget
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkErrorKind, DecodeBudget};
///
/// // python-blosc2's {"a": 1}: a memcpyed chunk of 4 bytes.
/// let mut c = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
/// c.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0xa1, 0x61, 0x01]);
/// let budget = DecodeBudget::new(10);
/// assert_eq!(chunk::decode(&c, &budget.clone())?, [0x81, 0xa1, 0x61, 0x01]);
/// assert_eq!(chunk::decode(&c, &budget)?.len(), 4);
/// assert_eq!((budget.spent(), budget.left()), (8, 2));
/// let err = chunk::decode(&c, &budget).unwrap_err();
/// assert!(matches!(err.kind(), ChunkErrorKind::OverBudget(o) if o.left == 2));
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
#[derive(Debug, Clone)]
pub struct DecodeBudget {
    shared: Arc<Shared>,
    max_chunk: u32,
}

#[derive(Debug)]
struct Shared {
    limit: u64,
    spent: Spent,
}

impl DecodeBudget {
    /// The budget of a command of the `b2nd-meta` tool unless told otherwise, and of
    /// [`DecodeBudget::default`]: 128 MiB, twice the largest chunk the decoder takes
    /// by default ([`DEFAULT_MAX_NBYTES`](super::DEFAULT_MAX_NBYTES)).
    pub const DEFAULT: u64 = 128 << 20;

    /// A budget of `limit` bytes, chunks of at most
    /// [`DEFAULT_MAX_NBYTES`](super::DEFAULT_MAX_NBYTES) each.
    pub fn new(limit: u64) -> DecodeBudget {
        DecodeBudget {
            shared: Arc::new(Shared {
                limit,
                spent: Spent::new(0),
            }),
            max_chunk: DEFAULT_MAX_NBYTES,
        }
    }

    /// No limit but the per-chunk one.
    ///
    /// ```
    /// use b2nd_meta::chunk::{DecodeBudget, DEFAULT_MAX_NBYTES};
    /// let budget = DecodeBudget::unlimited();
    /// assert_eq!((budget.limit(), budget.max_chunk()), (u64::MAX, DEFAULT_MAX_NBYTES));
    /// ```
    pub fn unlimited() -> DecodeBudget {
        DecodeBudget::new(u64::MAX)
    }

    /// This budget (shared with its clones), each chunk decoded within it of at most
    /// `max_nbytes`: one that declares more is refused
    /// ([`ChunkErrorKind::TooLarge`](crate::chunk::ChunkErrorKind::TooLarge)) before
    /// anything is spent or allocated.
    ///
    /// ```
    /// use b2nd_meta::chunk::DecodeBudget;
    /// let budget = DecodeBudget::default().with_max_chunk(1 << 20);
    /// assert_eq!((budget.limit(), budget.max_chunk()), (DecodeBudget::DEFAULT, 1 << 20));
    /// ```
    pub fn with_max_chunk(self, max_nbytes: u32) -> DecodeBudget {
        DecodeBudget {
            max_chunk: max_nbytes,
            ..self
        }
    }

    /// The most bytes one chunk may declare.
    pub fn max_chunk(&self) -> u32 {
        self.max_chunk
    }

    /// The whole budget.
    pub fn limit(&self) -> u64 {
        self.shared.limit
    }

    /// What was spent so far.
    #[allow(
        clippy::useless_conversion,
        reason = "the counter is 32 bits on targets without 64-bit atomics"
    )]
    pub fn spent(&self) -> u64 {
        u64::from(
            self.shared
                .spent
                .load(core::sync::atomic::Ordering::Relaxed),
        )
    }

    /// What is left.
    pub fn left(&self) -> u64 {
        self.limit().saturating_sub(self.spent())
    }

    /// Spends `nbytes`, or nothing and why when fewer are left.
    ///
    /// ```
    /// use b2nd_meta::chunk::DecodeBudget;
    /// let budget = DecodeBudget::new(10);
    /// budget.take(6)?;
    /// assert_eq!(budget.take(6).unwrap_err().left, 4);
    /// # Ok::<(), b2nd_meta::chunk::OverBudget>(())
    /// ```
    #[allow(
        clippy::useless_conversion,
        reason = "the counter is 32 bits on targets without 64-bit atomics"
    )]
    pub fn take(&self, nbytes: u64) -> Result<(), OverBudget> {
        let limit = self.shared.limit;
        let relaxed = core::sync::atomic::Ordering::Relaxed;
        self.shared
            .spent
            .fetch_update(relaxed, relaxed, |spent| {
                u64::from(spent)
                    .checked_add(nbytes)
                    .filter(|&total| total <= limit)
                    .and_then(|total| total.try_into().ok())
            })
            .map(|_| ())
            .map_err(|spent| OverBudget {
                nbytes,
                left: limit.saturating_sub(u64::from(spent)),
                limit,
            })
    }
}

impl Default for DecodeBudget {
    /// A budget of [`DecodeBudget::DEFAULT`] bytes, chunks of at most
    /// [`DEFAULT_MAX_NBYTES`](super::DEFAULT_MAX_NBYTES) each.
    fn default() -> Self {
        DecodeBudget::new(DecodeBudget::DEFAULT)
    }
}
