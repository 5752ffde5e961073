//! [`Parts`]: a chunk read in parts, as C-Blosc2 reads a chunk of a frame on disk
//! (`frame_get_lazychunk` in `blosc/frame.c`, then `blosc_d` block by block): its
//! prefix first, then only the stored bytes of the blocks a decode needs.

use alloc::vec::Vec;
use core::ops::Range;

use super::output::{Stored, Want};
use super::{decode_range_into, decode_want};
use crate::chunk::cursor::Cursor;
use crate::chunk::error::ChunkError;
use crate::chunk::header::{
    ChunkHeader, BLOSC2_USEDICT, BLOSC2_VL_BLOCKS, INT32_LEN, MAX_DICT_SIZE,
};

/// A chunk read in parts, as C-Blosc2 reads a chunk of a frame on disk: first its
/// prefix, the header, the block starts (bstarts) and the dictionary
/// ([`Parts::prefix_len`]); then only the stored bytes of the blocks a decode reads
/// ([`Parts::needed`]), each block's from its start to the next block's start in order
/// of starts (the last one's to `cbytes`: [`Parts::extent`]), which its streams must
/// not run past. A chunk that is one value repeated, or made of variable-length blocks
/// (whose layout is checked from every block's length before any block), is read
/// whole: its prefix is the chunk.
///
/// For the chunks C-Blosc2 writes, [`Parts::decode_into`] gives the bytes
/// [`decode_range_into`] gives from the whole chunk.
///
/// ```
/// use b2nd_meta::chunk::Parts;
/// // Three blocks of 2 bytes, each one stream stored as it is (csize 2), 6 bytes each.
/// let mut chunk = vec![5, 1, 0x25, 1, 6, 0, 0, 0, 2, 0, 0, 0, 62, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([44, 0, 0, 0, 50, 0, 0, 0, 56, 0, 0, 0]); // bstarts
/// for pair in [[1, 2], [3, 4], [5, 6]] {
///     chunk.extend([2, 0, 0, 0, pair[0], pair[1]]);
/// }
/// let prefix_len = Parts::prefix_len(&chunk[..32])?;
/// assert_eq!(prefix_len, 44);
/// let parts = Parts::new(&chunk[..prefix_len])?;
/// assert_eq!(parts.extent(1), Some(50..56));
/// // Only block 2's bytes are read.
/// let block2 = chunk[56..62].to_vec();
/// let mut dest = [0u8; 2];
/// parts.decode_into(2..3, |_| true, |block| (block == 2).then_some(&block2[..]), &mut dest)?;
/// assert_eq!(dest, [5, 6]);
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Parts<'a> {
    prefix: &'a [u8],
    header: ChunkHeader,
    /// Each block's stored bytes (empty when the prefix is the whole chunk).
    extents: Vec<Range<usize>>,
}

impl<'a> Parts<'a> {
    /// How many bytes from the chunk's start its prefix holds, from `start`, the first
    /// bytes of the chunk (at least its header: 32 bytes, or the chunk when shorter).
    /// When the chunk has a dictionary and `start` does not reach the dictionary's size,
    /// the length to read to learn it (4 bytes past the bstarts): asked again with
    /// those bytes, the prefix's length. Never more than the header's `cbytes`.
    ///
    /// ```
    /// use b2nd_meta::chunk::Parts;
    /// // nbytes 4096 in blocks of 1024: 4 block starts after the 32-byte header.
    /// let mut head = vec![5, 1, 0x25, 1, 0, 16, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0];
    /// head.extend([0; 16]);
    /// assert_eq!(Parts::prefix_len(&head)?, 32 + 4 * 4);
    /// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
    /// ```
    pub fn prefix_len(start: &[u8]) -> Result<usize, ChunkError> {
        let header = ChunkHeader::parse(start)?;
        let cbytes = header.cbytes as usize;
        let whole = header.special().is_some() || header.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0;
        let len = if whole {
            cbytes
        } else if header.memcpyed() || header.nbytes == 0 {
            header.len()
        } else {
            let bstarts_end = header.len() + header.nblocks() * INT32_LEN;
            if header.blosc2_flags & BLOSC2_USEDICT == 0 {
                bstarts_end
            } else {
                let size = Cursor::at(start, bstarts_end, "")
                    .and_then(|mut r| r.le_i32(""))
                    .ok()
                    .filter(|s| (1..=MAX_DICT_SIZE).contains(s));
                // Without a valid size, `new` refuses the dictionary.
                bstarts_end + INT32_LEN + size.map_or(0, |s| s as usize)
            }
        };
        Ok(len.min(cbytes))
    }

    /// The chunk whose prefix is `prefix` ([`Parts::prefix_len`] bytes from its start):
    /// its header checked, its block starts read.
    pub fn new(prefix: &'a [u8]) -> Result<Parts<'a>, ChunkError> {
        let header = ChunkHeader::parse(prefix)?;
        let len = Parts::prefix_len(prefix)?;
        let Some(prefix) = prefix.get(..len) else {
            return Err(crate::chunk::cursor::short_of(
                prefix,
                len,
                "the chunk's header, bstarts and dictionary",
            ));
        };
        let cbytes = header.cbytes as usize;
        let extents = if len == cbytes {
            Vec::new()
        } else if header.memcpyed() {
            header
                .block_spans()
                .map(|(_, s)| s.start + header.len()..s.end + header.len())
                .collect()
        } else {
            extents(&header, prefix)
        };
        Ok(Parts {
            prefix,
            header,
            extents,
        })
    }

    /// The chunk's header.
    pub fn header(&self) -> &ChunkHeader {
        &self.header
    }

    /// Whether the prefix is the whole chunk (nothing else to read).
    pub fn is_whole(&self) -> bool {
        self.prefix.len() == self.header.cbytes as usize
    }

    /// Where block `block`'s stored bytes are in the chunk: from its start to the next
    /// block's start in order of starts, the last one's to `cbytes` (as C-Blosc2 sorts
    /// the block starts of a chunk on disk); `None` past the last block or when the
    /// prefix is the whole chunk. A start outside the chunk gives an empty extent (the
    /// decode refuses the block).
    pub fn extent(&self, block: usize) -> Option<Range<usize>> {
        self.extents.get(block).cloned()
    }

    /// The blocks whose stored bytes [`Parts::decode_into`] reads for the blocks of
    /// `blocks` that `wanted` picks, in order: those, and the first block when delta
    /// needs it to undo them and it is not among them. None when the prefix is the
    /// whole chunk.
    pub fn needed<'w>(
        &'w self,
        blocks: Range<usize>,
        wanted: impl Fn(usize) -> bool + 'w,
    ) -> impl Iterator<Item = usize> + 'w {
        let n = self.extents.len();
        let range = blocks.start.min(n)..blocks.end.min(n);
        let first = {
            let want = Want {
                range: range.clone(),
                mask: Some(&wanted),
            };
            super::blocks::needs_first(&self.header, &want, n) && !want.wants(0)
        };
        let first = (first && !self.header.memcpyed()).then_some(0);
        first.into_iter().chain(range.filter(move |&b| wanted(b)))
    }

    /// [`decode_range_into`] of the chunk, each block needed decoded from its own stored
    /// bytes, which `stored` gives (its [`Parts::extent`] of the chunk; `None` for a
    /// block not read, which is refused if needed).
    pub fn decode_into<'s>(
        &self,
        blocks: Range<usize>,
        wanted: impl Fn(usize) -> bool,
        stored: impl Fn(usize) -> Option<&'s [u8]>,
        dest: &mut [u8],
    ) -> Result<usize, ChunkError> {
        if self.is_whole() {
            return decode_range_into(self.prefix, blocks, wanted, dest);
        }
        let want = Want {
            range: blocks,
            mask: Some(&wanted),
        };
        decode_want(self.prefix, Stored::Parts(&stored), u32::MAX, &want, dest)
    }
}

/// Each block's stored bytes, as `frame_get_lazychunk` measures them: the starts sorted
/// (C-Blosc2 may write blocks out of order with several threads), each block's from its
/// start to the next one, the last to `cbytes`.
fn extents(header: &ChunkHeader, prefix: &[u8]) -> Vec<Range<usize>> {
    let cbytes = header.cbytes as usize;
    let nblocks = header.nblocks();
    let starts = prefix
        .get(header.len()..header.len() + nblocks * INT32_LEN)
        .unwrap_or_default();
    let mut order: Vec<(i64, usize)> = starts
        .chunks_exact(INT32_LEN)
        .map(|b| i64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        .zip(0..)
        .collect();
    order.sort_unstable();
    let mut out = alloc::vec![0..0; nblocks];
    for (k, &(start, block)) in order.iter().enumerate() {
        let end = order.get(k + 1).map_or(cbytes as i64, |&(next, _)| next);
        let clip = |x: i64| x.clamp(0, cbytes as i64) as usize;
        out[block] = clip(start)..clip(end).max(clip(start));
    }
    out
}
