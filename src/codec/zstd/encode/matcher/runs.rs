//! Runs of one byte in a hash chain (levels 13 and up, which stand for libzstd's
//! binary-tree strategies): every position of a run hashes alike, so a chain walks a
//! long run one position a link and never reaches the earlier runs beyond it, where
//! the long periodic matches are (bit planes of counters, blosc 9 bitshuffle: 1.106x
//! C's size, whose binary tree finds them). A candidate in a run stands for the whole
//! run: the one position of it that matches best is tried, and the chain goes on from
//! before the run's start.

/// The shortest run of ip's byte whose candidates jump: shorter runs, as in noisy bit
/// planes, cost more time than they find (bitshuffle f64ramp at blosc 7 at 4: 0.85x to
/// 1.9x C's time; at 64 0.91x, the same sizes).
pub(super) const MIN_RUN: usize = 64;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_in_a_run_stands_for_its_run() {
        // A run of 20 zeros at 10..30, then ip's run of 12 zeros at 31.
        let mut src = alloc::vec![1u8; 10];
        src.extend([0; 20]);
        src.push(2);
        src.extend([0; 12]);
        src.push(3);
        // Its last 12 bytes end where ip's run ends; the chain goes on from 10.
        for at in [10, 17, 26] {
            assert_eq!(run_candidate(&src, at, 31, 12, 0), Some((18, 10)));
        }
        // A longer ip run than the candidate's: the candidate's start.
        assert_eq!(run_candidate(&src, 20, 31, 25, 0), Some((10, 10)));
        // Not before the window.
        assert_eq!(run_candidate(&src, 20, 31, 12, 15), Some((18, 15)));
        // A run that reaches ip has no earlier run to stand for.
        assert_eq!(run_candidate(&src, 33, 36, 7, 0), None);
    }
}
