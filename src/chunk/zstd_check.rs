//! The checks libzstd 1.5.6 (what C-Blosc2 links) makes on a zstd frame's headers and
//! ruzstd does not: made on the block, literals and sequences headers before ruzstd
//! decodes the frame, so that a stream C-Blosc2 refuses is refused here too, with what
//! libzstd expected (`lib/decompress/zstd_decompress_block.c`, `ZSTD_decodeLiteralsBlock`,
//! `ZSTD_decodeSeqHeaders`, `ZSTD_buildSeqTable`; `HUF_readStats` for the weights).
//!
//! Only headers are read: a frame whose headers pass is then decoded by ruzstd, which
//! checks the entropy-coded streams itself. What libzstd checks inside those streams and
//! ruzstd does not (the symbol count of each of 4 Huffman streams, FSE-coded Huffman
//! weights) is not repeated here: see tests/chunk/differential.rs.

use super::error::ChunkErrorKind;
use super::zstd_huf::{self, Table};

/// The most a zstd block holds or decompresses to (`ZSTD_BLOCKSIZE_MAX`, 128 KiB).
const BLOCK_SIZE_MAX: u64 = 128 << 10;
/// Block type 3 is reserved.
const BLOCK_RESERVED: u8 = 3;
/// Block type 2: literals and sequences.
const BLOCK_COMPRESSED: u8 = 2;
/// Huffman-coded literals in 4 streams need at least this many literals.
const MIN_LITERALS_FOR_4_STREAMS: u64 = 6;
/// Literal lengths, offsets, match lengths: name, largest symbol, largest table log.
const SEQ_TABLES: [(&str, u8, u32); 3] = [
    ("literal lengths", 35, 9),
    ("offsets", 31, 8),
    ("match lengths", 52, 9),
];

/// The Huffman table a block may repeat: none yet, one read from a single-stream
/// block (whose decoding libzstd's single-symbol decoder bounds), or another.
enum Huffman {
    None,
    Single(Table),
    Other,
}

/// A header libzstd refuses, at `at` bytes into the frame.
fn refuse(at: usize, field: &'static str, expected: &'static str, found: u64) -> ChunkErrorKind {
    ChunkErrorKind::ZstdHeader {
        field,
        expected,
        found,
        frame_offset: at as u64,
    }
}

/// Checks the headers of the zstd frame `src`, whose header is `header_len` bytes and
/// whose window is `window` bytes; `entropy` says whether a dictionary provides tables a
/// first block may repeat. Bytes missing are left to the decoder, which reports them.
pub(super) fn check_frame(
    src: &[u8],
    header_len: usize,
    window: u64,
    entropy: bool,
) -> Result<(), ChunkErrorKind> {
    if let Some(&descriptor) = src.get(4)
        && descriptor & 0x08 != 0
    {
        return Err(refuse(
            4,
            "frame header descriptor",
            "reserved bit 3 clear",
            u64::from(descriptor),
        ));
    }
    let block_max = window.min(BLOCK_SIZE_MAX);
    // Tables a block may repeat: none in a frame's first block, but a dictionary's.
    let mut huffman = if entropy {
        Huffman::Other
    } else {
        Huffman::None
    };
    let mut sequences = entropy;
    let mut at = header_len;
    while let Some(head) = src.get(at..at + 3) {
        let head = u32::from(head[0]) | u32::from(head[1]) << 8 | u32::from(head[2]) << 16;
        let last = head & 1 != 0;
        let kind = ((head >> 1) & 3) as u8;
        let size = u64::from(head >> 3);
        if kind == BLOCK_RESERVED {
            return Err(refuse(at, "block header", "block type 0, 1 or 2", 3));
        }
        // Raw and RLE blocks are bounded by the output only (`ZSTD_decompressFrame`).
        if kind == BLOCK_COMPRESSED && size > block_max {
            return Err(refuse(
                at,
                "block header",
                "a compressed block of at most the window and 128 KiB",
                size,
            ));
        }
        let body = at + 3;
        let stored = if kind == 1 { 1 } else { size as usize };
        if kind == BLOCK_COMPRESSED
            && let Some(block) = src.get(body..body + stored)
        {
            check_block(block, body, block_max, &mut huffman, &mut sequences)?;
        }
        at = body + stored;
        if last {
            break;
        }
    }
    Ok(())
}

/// A compressed block (`ZSTD_decompressBlock_internal`): its literals section header,
/// the Huffman weights stored directly, and the sequences section header.
fn check_block(
    block: &[u8],
    at: usize,
    block_max: u64,
    huffman: &mut Huffman,
    sequences: &mut bool,
) -> Result<(), ChunkErrorKind> {
    let Some(&first) = block.first() else {
        return Ok(());
    };
    if block.len() < 2 {
        return Err(refuse(at, "compressed block", "at least 2 bytes", 1));
    }
    let kind = first & 3;
    let format = (first >> 2) & 3;
    let le = |n: usize| {
        block
            .iter()
            .take(n)
            .rev()
            .fold(0u64, |v, &b| v << 8 | u64::from(b))
    };
    let (header, lit_size, lit_stored) = if kind < 2 {
        // Raw (0) or RLE (1): a size of 5, 12 or 20 bits.
        let (header, size) = match format {
            1 => (2, le(2) >> 4),
            3 => (3, le(3) >> 4),
            _ => (1, u64::from(first >> 3)),
        };
        (header, size, if kind == 0 { size } else { 1 })
    } else {
        // Huffman-coded (2) or with the previous table (3).
        if block.len() < 5 {
            return Err(refuse(
                at,
                "literals section header",
                "a block of at least 5 bytes for Huffman-coded literals",
                block.len() as u64,
            ));
        }
        let v = le(5);
        let (header, size, stored) = match format {
            2 => (4, (v >> 4) & 0x3fff, (v >> 18) & 0x3fff),
            3 => (5, (v >> 4) & 0x3ffff, v >> 22),
            _ => (3, (v >> 4) & 0x3ff, (v >> 14) & 0x3ff),
        };
        if format != 0 && size < MIN_LITERALS_FOR_4_STREAMS {
            return Err(refuse(
                at,
                "literals section header",
                "at least 6 literals in 4 Huffman streams",
                size,
            ));
        }
        if kind == 3 && matches!(huffman, Huffman::None) {
            return Err(refuse(
                at,
                "literals section header",
                "a Huffman table to repeat (none before this block)",
                u64::from(kind),
            ));
        }
        (header, size, stored)
    };
    if lit_size > block_max {
        return Err(refuse(
            at,
            "literals section header",
            "at most the block's maximum size of literals",
            lit_size,
        ));
    }
    let lit_end = header as u64 + lit_stored;
    if lit_end > block.len() as u64 {
        return Err(refuse(
            at,
            "literals section header",
            "literals within the block",
            lit_end,
        ));
    }
    let lits = &block[header..lit_end as usize];
    let huffman_refusal = |at: usize, (expected, found): zstd_huf::Refusal| {
        refuse(at, "Huffman-coded literals", expected, found)
    };
    // Where the Huffman streams start in the literals, after the tree if there is one.
    let streams = match kind {
        2 => {
            let (table, used) =
                zstd_huf::read_tree(lits).map_err(|r| huffman_refusal(at + header, r))?;
            // One stream is decoded with a single-symbol table (HUF_decompress1X1); for
            // 4, libzstd picks one of two decoders whose ends differ: not repeated here.
            *huffman = if format == 0 {
                Huffman::Single(table)
            } else {
                Huffman::Other
            };
            Some(used)
        }
        3 => Some(0),
        _ => None,
    };
    if let (Some(used), 0, Huffman::Single(table)) = (streams, format, &*huffman) {
        zstd_huf::check_single_stream(table, &lits[used..], lit_size)
            .map_err(|r| huffman_refusal(at + header + used, r))?;
    }
    check_sequences(&block[lit_end as usize..], at + lit_end as usize, sequences)
}

/// The sequences section header (`ZSTD_decodeSeqHeaders`): the count, the reserved
/// bits of the modes, RLE symbols, repeated tables, and the first FSE table's log.
fn check_sequences(seq: &[u8], at: usize, repeatable: &mut bool) -> Result<(), ChunkErrorKind> {
    let Some(&first) = seq.first() else {
        return Err(refuse(
            at,
            "sequences section header",
            "a sequence count",
            0,
        ));
    };
    let (count, mut pos) = match first {
        0 => (0, 1),
        1..=127 => (u32::from(first), 1),
        255 => match seq.get(1..3) {
            Some(b) => (u32::from(u16::from_le_bytes([b[0], b[1]])) + 0x7f00, 3),
            None => return Err(refuse(at, "sequences section header", "a 3-byte count", 0)),
        },
        _ => match seq.get(1) {
            Some(&b) => ((u32::from(first) - 128) << 8 | u32::from(b), 2),
            None => return Err(refuse(at, "sequences section header", "a 2-byte count", 0)),
        },
    };
    if count == 0 {
        // The decoder checks that the section ends here.
        return Ok(());
    }
    let Some(&modes) = seq.get(pos) else {
        return Err(refuse(
            at + pos,
            "sequences section header",
            "the modes byte",
            0,
        ));
    };
    if modes & 3 != 0 {
        return Err(refuse(
            at + pos,
            "sequences section modes",
            "reserved bits 0-1 clear",
            u64::from(modes),
        ));
    }
    pos += 1;
    for (slot, (name, max, max_log)) in SEQ_TABLES.into_iter().enumerate() {
        let mode = (modes >> (6 - 2 * slot)) & 3;
        match mode {
            1 => match seq.get(pos) {
                Some(&symbol) if symbol > max => {
                    return Err(refuse(
                        at + pos,
                        name,
                        "an RLE symbol in the code table",
                        u64::from(symbol),
                    ));
                }
                _ => pos += 1,
            },
            2 => {
                // The table's length needs its whole description read: the first
                // table's log is checked, the rest is left to the decoder.
                if let Some(&b) = seq.get(pos) {
                    let log = u32::from(b & 15) + 5;
                    if log > max_log {
                        return Err(refuse(
                            at + pos,
                            name,
                            "an FSE table log within the maximum",
                            u64::from(log),
                        ));
                    }
                }
                break;
            }
            3 if !*repeatable => {
                return Err(refuse(
                    at + pos - 1,
                    name,
                    "a table to repeat (none before this block)",
                    3,
                ));
            }
            _ => {}
        }
    }
    *repeatable = true;
    Ok(())
}
