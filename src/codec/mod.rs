//! The codecs of Blosc2 streams, each in its own folder, its encoder beside its decoder:
//! BloscLZ, LZ4 (and LZ4HC), zlib and Zstandard, pure safe Rust. Each decoder decodes
//! one stream into a block of known length and says, when it refuses, what C expected
//! and where it stopped; the chunk decoder (`crate::chunk`) picks one per stream. Each
//! encoder (`encode`, std) appends one stream to a chunk being written
//! (`chunk::compress`) and returns true, or false when the stream would exceed the bytes
//! it is given (the chunk then stores the bytes as they are, as C-Blosc2 does when its
//! codec gives up).

pub(crate) mod blosclz;
mod copy;
pub(crate) mod lz4;
#[cfg(feature = "std")]
pub(crate) mod zlib;
pub(crate) mod zstd;

/// How many leading bytes of `x` equal those of `y` (at least as long): the match
/// length every encoder extends its matches by. The first word alone first (most
/// matches end in it), then 32 bytes a step while they all match (long matches in
/// repetitive data, compared as vectors), then 8, then one, over slices cut once (no
/// bounds test per word).
#[cfg(feature = "std")]
#[inline(always)]
pub(crate) fn equal_prefix(x: &[u8], y: &[u8]) -> usize {
    let y = &y[..x.len()];
    let word = |a: &[u8; 8], b: &[u8; 8]| u64::from_le_bytes(*a) ^ u64::from_le_bytes(*b);
    let mut n = 0;
    if let (Some((p, _)), Some((q, _))) = (x.split_first_chunk::<8>(), y.split_first_chunk::<8>()) {
        let diff = word(p, q);
        if diff != 0 {
            return (diff.trailing_zeros() / 8) as usize;
        }
        n = 8;
    }
    let (x32, _) = x[n..].as_chunks::<32>();
    let (y32, _) = y[n..].as_chunks::<32>();
    n += 32 * x32.iter().zip(y32).take_while(|(p, q)| p == q).count();
    let (x8, _) = x[n..].as_chunks::<8>();
    let (y8, _) = y[n..].as_chunks::<8>();
    for (p, q) in x8.iter().zip(y8) {
        let diff = word(p, q);
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + x[n..]
        .iter()
        .zip(&y[n..])
        .take_while(|(p, q)| p == q)
        .count()
}

/// Bytes an encoder keeps writable in `out` past what its stream may still need (the
/// LZ4 literals' last 16-byte copy runs up to 15 past their end). The encoders that
/// write into a slice (LZ4, BloscLZ) grow `out` with [`grow`] where C tests its
/// budget, then store into `out[base..]`: no capacity test and no length update per
/// byte, as a push has.
#[cfg(feature = "std")]
pub(crate) const SLACK: usize = 32;
/// The first room made in `out` for a stream, then twice as much each time.
#[cfg(feature = "std")]
pub(crate) const FIRST_ROOM: usize = 1 << 10;

/// Makes `out` (the stream from `base`) at least `base + need` long, and, within
/// `maxout + SLACK` and (when it allows `need`) `out`'s capacity, twice as long as it
/// was plus [`SLACK`]: zeros, which the stream overwrites.
#[cfg(feature = "std")]
#[cold]
#[inline(never)]
pub(crate) fn grow(out: &mut alloc::vec::Vec<u8>, base: usize, need: usize, maxout: usize) {
    let now = out.len() - base;
    let mut len = (2 * now)
        .max(need + SLACK)
        .min(maxout.saturating_add(SLACK));
    if base + len > out.capacity() {
        len = (out.capacity() - base).max(need);
    }
    out.resize(base + len.max(now), 0);
}
