//! [`Pipeline`]: how a frame's chunks are compressed, the facts python-blosc2's `.info`
//! shows beside the sizes (its `cparams`, `nchunks` and `cratio`).

use b2nd_meta::blosc::{Filter, MAX_FILTERS};
use b2nd_meta::frame::FrameInfo;
use serde::Serialize;

/// The compression pipeline and its outcome, from the frame header (checked against
/// python-blosc2 4.14.1 on every producer fixture, tests/data/producers/info.json).
#[derive(Serialize)]
pub struct Pipeline {
    /// The codec's meta byte (python's `cparams.codec_meta`).
    pub codec_meta: u8,
    /// The filter of each of the six slots, in the order they run, 0 for none (python's
    /// `cparams.filters`: 1 shuffle, 2 bitshuffle, 3 delta, 4 trunc_prec, 35 bytedelta).
    pub filters: [u8; MAX_FILTERS],
    /// Each slot's meta byte (python's `cparams.filters_meta`).
    pub filters_meta: [u8; MAX_FILTERS],
    /// How blocks are split into streams: 1 always, 2 never, 3 auto, 4
    /// forward-compatible (python's `cparams.splitmode`).
    pub splitmode: u8,
    /// Whether the chunks were compressed with a dictionary (python's `cparams.use_dict`).
    pub use_dict: bool,
    /// The number of chunks, as C-Blosc2 counts them from the header: `nbytes` over
    /// `chunksize`, rounded up (python's `schunk.nchunks`); `None` when `chunksize` is
    /// not positive (chunks of variable size, which only the chunk index counts) and
    /// `nbytes` is not 0.
    pub nchunks: Option<u64>,
    /// `nbytes / cbytes`, 0 when `cbytes` is 0 (python's `schunk.cratio`).
    pub cratio: f64,
}

impl Pipeline {
    /// The pipeline of the frame whose header says `info`.
    pub fn of(info: &FrameInfo) -> Pipeline {
        let nbytes = u64::try_from(info.nbytes).ok();
        let nchunks = match (nbytes, u64::try_from(info.chunksize)) {
            (Some(0), _) => Some(0),
            (Some(n), Ok(c)) if c > 0 => Some(n.div_ceil(c)),
            _ => None,
        };
        let cratio = if info.cbytes > 0 {
            info.nbytes as f64 / info.cbytes as f64
        } else {
            0.0
        };
        Pipeline {
            codec_meta: info.codec_meta,
            filters: info.filters.map(Filter::id),
            filters_meta: info.filters_meta,
            splitmode: info.splitmode.id(),
            use_dict: info.use_dict,
            nchunks,
            cratio,
        }
    }
}
