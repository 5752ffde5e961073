//! Runs of one byte in a hash chain (levels 13 and up, which stand for libzstd's
//! binary-tree strategies): every position of a run hashes alike, so a chain walks a
//! long run one position a link and never reaches the earlier runs beyond it, where
//! the long periodic matches are (bit planes of counters, blosc 9 bitshuffle: 1.106x
//! C's size, whose binary tree finds them). A candidate in a run stands for the whole
//! run: the one position of it that matches best is tried, and the chain goes on from
//! before the run's start.

/// The position of the run of `src[at]` (within positions from `lowest`, before `ip`)
/// that matches `ip`'s run of `ip_run` bytes best, and the run's start, whose chain
/// link leads past the run; `None` when the run reaches `ip` (no earlier run).
#[inline(always)]
pub(super) fn run_candidate(
    src: &[u8],
    at: usize,
    ip: usize,
    ip_run: usize,
    lowest: usize,
) -> Option<(usize, usize)> {
    let b = src[at];
    let forward = crate::codec::equal_prefix(&src[at + 1..ip], &src[at..]);
    let run_end = at + 1 + forward;
    if run_end >= ip {
        return None;
    }
    let word = u64::from_ne_bytes([b; 8]);
    let mut start = at;
    while start >= lowest + 8 {
        let (w, _) = src[start - 8..].split_first_chunk::<8>()?;
        if u64::from_ne_bytes(*w) != word {
            break;
        }
        start -= 8;
    }
    while start > lowest && src[start - 1] == b {
        start -= 1;
    }
    // Ending where ip's run ends, if the run is that long; else its start, the longest.
    Some((start.max(run_end.saturating_sub(ip_run)), start))
}
