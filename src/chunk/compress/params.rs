//! What a chunk is compressed with, and the block geometry C-Blosc2 derives from it:
//! `blosc_stune_next_blocksize` and `split_block` (`blosc/stune.c`).

use super::CompressError;
use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::chunk::filters::trunc_prec::trunc_prec;
use crate::chunk::header::MAX_BLOCKSIZE;

/// The parameters of [`compress`](super::compress), as C-Blosc2's `blosc2_cparams`.
///
/// The default is python-blosc2's `CParams()`: zstd at level 5, byte-shuffle in the last
/// slot, 8-byte elements, an automatic block size, [`SplitMode::Auto`].
///
/// ```
/// use b2nd_meta::blosc::{Codec, Filter};
/// use b2nd_meta::chunk::CParams;
/// let p = CParams { codec: Codec::Lz4, typesize: 4, ..CParams::default() };
/// assert_eq!(p.filters[5], (Filter::Shuffle, 0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CParams {
    /// The codec.
    pub codec: Codec,
    /// The compression level, 0 (stored as it is) to 9.
    pub clevel: u8,
    /// The size of one element: at least 1. Above 255 the chunk is compressed as bytes
    /// (typesize 1 in its header), as C-Blosc2 does.
    pub typesize: usize,
    /// Bytes per block, a multiple of `typesize`; 0 chooses as C-Blosc2 does.
    pub blocksize: usize,
    /// Whether blocks are split into one stream per byte of the type.
    pub splitmode: SplitMode,
    /// The filter pipeline, applied first slot first, and each filter's meta byte.
    pub filters: [(Filter, u8); MAX_FILTERS],
}

impl Default for CParams {
    fn default() -> Self {
        let mut filters = [(Filter::None, 0); MAX_FILTERS];
        filters[MAX_FILTERS - 1] = (Filter::Shuffle, 0);
        CParams {
            codec: Codec::Zstd,
            clevel: 5,
            typesize: 8,
            blocksize: 0,
            splitmode: SplitMode::Auto,
            filters,
        }
    }
}

/// The largest type C-Blosc2 splits into one stream per byte (`MAX_STREAMS`).
const MAX_STREAMS: usize = 16;
/// Below this many bytes a chunk is stored as it is; blocks with fewer elements are
/// not split (`BLOSC_MIN_BUFFERSIZE`).
pub(crate) const MIN_BUFFERSIZE: usize = 32;
/// The L1 cache C-Blosc2 sizes automatic blocks by.
const L1: usize = 32 << 10;

impl CParams {
    /// Refuses what C-Blosc2 refuses (and the filters this crate does not apply),
    /// before anything is compressed.
    pub(crate) fn check(&self) -> Result<(), CompressError> {
        if !matches!(
            self.codec,
            Codec::BloscLz | Codec::Lz4 | Codec::Lz4Hc | Codec::Zlib | Codec::Zstd
        ) {
            return Err(CompressError::Codec { codec: self.codec });
        }
        if self.clevel > 9 {
            return Err(CompressError::Clevel { found: self.clevel });
        }
        if self.typesize == 0 {
            return Err(CompressError::Typesize);
        }
        if !self.blocksize.is_multiple_of(self.typesize) || self.blocksize > MAX_BLOCKSIZE as usize
        {
            return Err(CompressError::Blocksize {
                blocksize: self.blocksize,
                typesize: self.typesize,
            });
        }
        for (slot, &(filter, meta)) in self.filters.iter().enumerate() {
            match filter {
                Filter::Other(_) => return Err(CompressError::Filter { slot, filter }),
                Filter::TruncPrec => {
                    let mut probe = [0u8; 8];
                    let typesize = self.typesize;
                    let ok = (typesize == 4 || typesize == 8)
                        && trunc_prec(meta, typesize, &[0; 8][..typesize], &mut probe[..typesize])
                            .is_ok();
                    if !ok {
                        return Err(CompressError::TruncPrec {
                            slot,
                            meta,
                            typesize,
                        });
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn shuffles(&self) -> bool {
        self.filters.iter().any(|(f, _)| *f == Filter::Shuffle)
    }

    /// Whether blocks of `blocksize` with elements of `typesize` are split
    /// (`split_block`).
    pub(crate) fn splits(&self, typesize: usize, blocksize: usize) -> bool {
        match self.splitmode {
            SplitMode::Always => true,
            SplitMode::Never => false,
            SplitMode::Auto | SplitMode::ForwardCompat => {
                let fast = match self.codec {
                    Codec::BloscLz | Codec::Lz4 => true,
                    Codec::Zstd => self.clevel <= 5,
                    _ => false,
                };
                fast && self.shuffles()
                    && typesize <= MAX_STREAMS
                    && blocksize / typesize >= MIN_BUFFERSIZE
            }
        }
    }

    /// The block size of a chunk of `nbytes` (`blosc_stune_next_blocksize`): the
    /// user's, or one by codec, level and split, capped at `nbytes` and rounded down to
    /// whole elements.
    pub(crate) fn blocksize_for(&self, nbytes: usize) -> usize {
        let typesize = self.typesize;
        if nbytes < typesize {
            return 1;
        }
        let mut blocksize = if self.blocksize > 0 {
            self.blocksize
        } else {
            self.automatic_blocksize(nbytes)
        };
        blocksize = blocksize.min(nbytes);
        if blocksize > typesize {
            blocksize = blocksize / typesize * typesize;
        }
        blocksize
    }

    fn automatic_blocksize(&self, nbytes: usize) -> usize {
        let clevel = self.clevel;
        let mut blocksize = nbytes;
        if nbytes >= L1 {
            blocksize = L1;
            if high_ratio(self.codec) {
                blocksize *= 2;
            }
            match clevel {
                0 => blocksize /= 4,
                1 => blocksize /= 2,
                2 => {}
                3 => blocksize *= 2,
                4 | 5 => blocksize *= 4,
                6..=8 => blocksize *= 8,
                _ => {
                    blocksize *= 8;
                    if high_ratio(self.codec) {
                        blocksize *= 2;
                    }
                }
            }
        }
        // The split decision is C's for the whole buffer as one block.
        if clevel > 0 && self.splits(self.typesize, nbytes) {
            let per_stream = match clevel {
                1..=3 => 32 << 10,
                4..=6 => 64 << 10,
                7 => 128 << 10,
                8 => 256 << 10,
                _ => 512 << 10,
            };
            blocksize = (per_stream * self.typesize).clamp(32 << 10, 4 << 20);
        }
        blocksize
    }
}

/// Whether C-Blosc2 counts the codec as one for high compression ratios (`is_HCR`),
/// which doubles its automatic block size.
fn high_ratio(codec: Codec) -> bool {
    matches!(codec, Codec::Lz4Hc | Codec::Zlib | Codec::Zstd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(codec: Codec, clevel: u8, typesize: usize) -> CParams {
        CParams {
            codec,
            clevel,
            typesize,
            ..CParams::default()
        }
    }

    #[test]
    fn automatic_blocksizes_are_c_blosc2s() {
        // (codec, clevel, typesize, nbytes, blocksize), from blosc/stune.c.
        let cases = [
            (Codec::Zstd, 5, 8, 8 << 20, 512 << 10),
            (Codec::Zstd, 1, 8, 8 << 20, 256 << 10),
            (Codec::Zstd, 6, 8, 8 << 20, 512 << 10),
            (Codec::Zstd, 9, 8, 8 << 20, 1 << 20),
            (Codec::Lz4, 5, 4, 8 << 20, 256 << 10),
            (Codec::Lz4, 9, 16, 64 << 20, 4 << 20),
            (Codec::BloscLz, 1, 1, 1 << 20, 32 << 10),
            (Codec::Zlib, 5, 8, 8 << 20, 256 << 10),
            (Codec::Lz4Hc, 1, 8, 8 << 20, 32 << 10),
            (Codec::Zstd, 5, 8, 1000, 1000),
            (Codec::Zstd, 5, 3, 1000, 999),
            (Codec::Zstd, 5, 8, 7, 1),
        ];
        for (codec, clevel, typesize, nbytes, blocksize) in cases {
            let got = p(codec, clevel, typesize).blocksize_for(nbytes);
            assert_eq!(got, blocksize, "{codec:?} {clevel} {typesize} {nbytes}");
        }
    }
}
