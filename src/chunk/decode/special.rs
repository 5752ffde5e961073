//! Special chunks: one value repeated over the chunk (zeros, NaNs, a value the chunk
//! holds, uninitialised), as C-Blosc2 3.3.5's `blosc_d` fills them.

use crate::blosc::Special;
use crate::chunk::error::{invalid, ChunkError, ChunkErrorKind};
use crate::chunk::header::ChunkHeader;

use super::output::{fill_repeated, Output, Want};

/// A chunk that is one value repeated (`blosc2_flags` bits 4..6): its value, checked as
/// C-Blosc2 3.3.5 fills it block by block (`blosc_d`, `set_values`, `set_nans`): each
/// block whole values, NaNs only of 4 or 8 bytes. `data` is the chunk from its start
/// (only a repeated value's bytes are read from it, `cbytes - 32` after the header).
/// Empty for a chunk of no bytes.
pub(crate) fn special_value<'a>(
    header: &ChunkHeader,
    special: Special,
    data: &'a [u8],
) -> Result<&'a [u8], ChunkError> {
    let nbytes = header.nbytes as usize;
    let value: &[u8] = match special {
        // C leaves an uninitialised chunk's destination as it was; this decoder writes
        // zeros.
        Special::Zero | Special::Uninit => &[0],
        // No block, nothing for C to fill: any typesize.
        Special::Nan if nbytes == 0 => &[],
        Special::Nan => match header.typesize {
            4 => &[0x00, 0x00, 0xc0, 0x7f],
            8 => &[0, 0, 0, 0, 0, 0, 0xf8, 0x7f],
            other => {
                return Err(invalid(3, "typesize", "4 or 8 for NaNs", i64::from(other)));
            }
        },
        // Its width is cbytes - 32 (checked with the header to divide nbytes).
        Special::Value => {
            let span = header.len()..header.len() + header.value_width();
            data.get(span).ok_or_else(|| {
                ChunkError::at(
                    data.len(),
                    ChunkErrorKind::UnexpectedEnd {
                        what: "the repeated value",
                        input_len: data.len() as u64,
                        needed: (header.cbytes as usize).saturating_sub(data.len()) as u64,
                    },
                )
            })?
        }
    };
    // Every block but the last has blocksize bytes (capped at nbytes), the last the
    // rest; nbytes is a multiple of the value's width, so only blocksize can split one.
    if nbytes > 0 && !(header.blocksize as usize).is_multiple_of(value.len()) {
        return Err(invalid(
            8,
            "blocksize",
            "a multiple of the special value's width",
            i64::from(header.blocksize),
        ));
    }
    Ok(value)
}

/// A special chunk's value over its bytes (or the blocks `want` asks for).
pub(super) fn decode_special(
    header: &ChunkHeader,
    special: Special,
    data: &[u8],
    out: &mut Output<'_>,
    want: &Want<'_>,
) -> Result<(), ChunkError> {
    let nbytes = header.nbytes as usize;
    let value = special_value(header, special, data)?;
    if want.is_all(header.nblocks()) {
        out.repeat(value, nbytes);
        return Ok(());
    }
    // Each block starts at a whole value (blocksize is a multiple of its width).
    for (_, span) in header.block_spans().filter(|(i, _)| want.wants(*i)) {
        fill_repeated(out.block(span.start, span.len()).1, value);
    }
    Ok(())
}
