//! The direct writer: a whole metalayer into a caller's buffer, without serde, one
//! length check up front. Each value's bytes come from [`crate::wire`] (as the serde
//! `Serializer`'s do), each element's place from [`Geometry`].

use crate::codec::{Geometry, PartsRef, VERSION};
use crate::error::{Error, ErrorKind, Result};
use crate::marker::STR32;
use crate::wire;

/// Writes `parts` into the start of `buf`; returns the number of bytes written.
pub(crate) fn encode_into(parts: &PartsRef<'_>, buf: &mut [u8]) -> Result<usize> {
    if let Some(problem) = parts.encode_problem() {
        return Err(Error::new(ErrorKind::Message(problem)));
    }
    let g = parts.geometry();
    let len = g.len();
    let available = buf.len();
    let Some(out) = buf.get_mut(..len) else {
        return Err(Error::new(ErrorKind::BufferTooSmall {
            needed: len,
            available,
        }));
    };
    write(&g, parts, out);
    Ok(len)
}

/// Fills `out`, exactly `g.len()` bytes long, with the checked `parts`.
#[inline]
fn write(g: &Geometry, parts: &PartsRef<'_>, out: &mut [u8]) {
    // Checked by `encode_problem`: ndim <= 16, one entry per axis in each shape.
    let header = wire::array_header(g.ndim).unwrap_or_default();
    let (head, rest) = out.split_at_mut(g.shape_at());
    head.copy_from_slice(&[g.layout.header(), VERSION, g.ndim as u8]);
    let rest = axes(rest, header, parts.shape, wire::int64);
    let rest = axes(rest, header, parts.chunkshape, wire::int32);
    let mut rest = axes(rest, header, parts.blockshape, wire::int32);
    if g.layout.has_dtype_format() {
        if let Some((f, tail)) = core::mem::take(&mut rest).split_first_mut() {
            *f = parts.dtype_format;
            rest = tail;
        }
    }
    if g.layout.has_dtype() {
        let header = wire::len32_header(STR32, parts.dtype.len()).unwrap_or_default();
        if let Some((h, tail)) = rest.split_first_chunk_mut() {
            *h = header;
            tail.copy_from_slice(parts.dtype.as_bytes());
        }
    }
}

/// Writes one shape array (header, then each entry through `entry`); returns the rest.
#[inline(always)]
fn axes<'o, T: Copy, const W: usize>(
    out: &'o mut [u8],
    header: u8,
    entries: &[T],
    entry: fn(T) -> [u8; W],
) -> &'o mut [u8] {
    let (h, rest) = out.split_at_mut(1);
    h[0] = header;
    let (region, rest) = rest.split_at_mut(entries.len() * W);
    for (dst, &v) in region.chunks_exact_mut(W).zip(entries) {
        dst.copy_from_slice(&entry(v));
    }
    rest
}
