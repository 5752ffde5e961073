//! The literals section of a compressed block (`ZSTD_decodeLiteralsBlock` in
//! `lib/decompress/zstd_decompress_block.c`): stored, one byte repeated, or
//! Huffman-coded in 1 or 4 streams with a new table or the previous one.

use alloc::vec::Vec;

use super::error::{refuse, Refusal};
use super::huffman::{self, Table};
use super::huffman_x2;

/// Huffman-coded literals need at least this many literals for 4 streams.
const MIN_LITERALS_FOR_4_STREAMS: usize = 6;

/// The literals of a block: stored in the block, or decoded into [`Literals::buf`].
pub(super) enum Lits {
    /// `block[start..end]`.
    Stored(usize, usize),
    /// `buf[..len]`.
    Decoded(usize),
}

/// What literals sections leave for the next: a table to repeat, a buffer to reuse.
pub(super) struct Literals {
    pub(super) table: Table,
    /// A Huffman table is there to repeat (`litEntropy`).
    pub(super) repeatable: bool,
    pub(super) buf: Vec<u8>,
}

// The literals buffer and the Huffman table's vectors, kept between the chunks one
// thread decodes (with `std`), as the block scratch is (`chunk::scratch`): a chunk's
// first Huffman-coded literals then cost no allocation and no zero-filling of the fast
// loop's room, and its first table is filled in place.
#[cfg(feature = "std")]
std::thread_local! {
    static KEPT: core::cell::Cell<Vec<u8>> = const { core::cell::Cell::new(Vec::new()) };
    static KEPT_TABLE: core::cell::Cell<Table> = const { core::cell::Cell::new(Table::new()) };
}

impl Drop for Literals {
    fn drop(&mut self) {
        #[cfg(feature = "std")]
        {
            KEPT.set(core::mem::take(&mut self.buf));
            KEPT_TABLE.set(core::mem::replace(&mut self.table, Table::new()));
        }
    }
}

impl Literals {
    pub(super) fn new() -> Self {
        #[cfg(feature = "std")]
        let (buf, table) = (KEPT.take(), KEPT_TABLE.replace(Table::new()));
        #[cfg(not(feature = "std"))]
        let (buf, table) = (Vec::new(), Table::new());
        Literals {
            table,
            repeatable: false,
            buf,
        }
    }

    /// Reads the literals section at the start of `block` (at byte `at` of the frame;
    /// `rest` is the frame from there on), whose literals may number at most
    /// `block_max` and the output room `room`; returns the section's length and where
    /// its literals are.
    pub(super) fn read(
        &mut self,
        (block, rest): (&[u8], &[u8]),
        at: usize,
        block_max: usize,
        room: usize,
    ) -> Result<(usize, Lits), Refusal> {
        const FIELD: &str = "literals section header";
        let refuse_if = |bad: bool, expected: &'static str, found: usize| match bad {
            true => Err(refuse(at, FIELD, expected, found as u64)),
            false => Ok(()),
        };
        let within_max = |size: usize| {
            refuse_if(
                size > block_max,
                "at most the block's maximum size of literals",
                size,
            )
        };
        if block.len() < 2 {
            return Err(refuse(
                at,
                "compressed block",
                "at least 2 bytes",
                block.len() as u64,
            ));
        }
        let first = block[0];
        let kind = first & 3;
        let format = (first >> 2) & 3;
        let le = |n: usize| {
            block[..n]
                .iter()
                .rev()
                .fold(0usize, |v, &b| v << 8 | usize::from(b))
        };
        let room = room.min(block_max);
        if kind >= 2 {
            if kind == 3 && !self.repeatable {
                return Err(refuse(
                    at,
                    FIELD,
                    "a Huffman table to repeat (none before)",
                    3,
                ));
            }
            refuse_if(
                block.len() < 5,
                "at least 5 bytes for Huffman-coded literals",
                block.len(),
            )?;
            let v = le(5);
            let (header, size, stored) = match format {
                2 => (4, (v >> 4) & 0x3fff, (v >> 18) & 0x3fff),
                3 => (5, (v >> 4) & 0x3ffff, v >> 22),
                _ => (3, (v >> 4) & 0x3ff, (v >> 14) & 0x3ff),
            };
            let single = format == 0;
            within_max(size)?;
            refuse_if(
                !single && size < MIN_LITERALS_FOR_4_STREAMS,
                "at least 6 literals in 4 Huffman streams",
                size,
            )?;
            refuse_if(
                header + stored > block.len(),
                "literals within the block",
                header + stored,
            )?;
            refuse_if(
                size > room,
                "no more literals than the output has room for",
                size,
            )?;
            let mut src = &block[header..header + stored];
            let huf_at = |skip: usize| {
                move |e: &'static str| {
                    refuse(at + header + skip, "Huffman-coded literals", e, size as u64)
                }
            };
            let huf = huf_at(0);
            if kind == 2 {
                if !single && src.is_empty() {
                    return Err(huf("Huffman streams"));
                }
                self.table.double = !single && huffman::selects_double(size, src.len());
                let used = huffman::read_table(src, &mut self.table).map_err(huf)?;
                if used >= src.len() {
                    return Err(huf("Huffman streams after the tree description"));
                }
                src = &src[used..];
            }
            let streams = huf_at(stored - src.len());
            // Every literal is written by the decoder: the buffer only grows (to the
            // fast loop's room for 4 streams).
            let room = if single {
                size
            } else {
                size.max(huffman_x2::WORK)
            };
            if self.buf.len() < room {
                self.buf.resize(room, 0);
            }
            if single {
                huffman::decode1(src, &mut self.buf[..size], &self.table).map_err(streams)?;
            } else {
                let window = &rest[header + stored - src.len()..];
                huffman::decode4((src, window), &mut self.buf, size, &self.table)
                    .map_err(streams)?;
            }
            self.repeatable = true;
            return Ok((header + stored, Lits::Decoded(size)));
        }
        let (header, size) = match format {
            1 => (2, le(2) >> 4),
            3 => {
                refuse_if(
                    block.len() < 3 + usize::from(kind),
                    "a 3-byte literals header",
                    block.len(),
                )?;
                (3, le(3) >> 4)
            }
            _ => (1, usize::from(first >> 3)),
        };
        refuse_if(
            kind == 1 && format == 1 && block.len() < 3,
            "a 2-byte literals header and its byte",
            block.len(),
        )?;
        within_max(size)?;
        refuse_if(
            size > room,
            "no more literals than the output has room for",
            size,
        )?;
        if kind == 0 {
            refuse_if(
                header + size > block.len(),
                "literals within the block",
                header + size,
            )?;
            return Ok((header + size, Lits::Stored(header, header + size)));
        }
        if self.buf.len() < size {
            self.buf.resize(size, 0);
        }
        self.buf[..size].fill(block[header]);
        Ok((header + 1, Lits::Decoded(size)))
    }
}
