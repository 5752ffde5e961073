//! zlib streams (C's `compress2`: header, deflate, Adler-32) at the chunk's level, as
//! C-Blosc2 passes it (`zlib_wrap_compress`): levels 3 to 6 from our own deflate
//! (zlib-ng's bytes, as C-Blosc2 3.3.5 links it), the others from zlib-rs (zlib-ng's
//! port) with the `zlib-rs` feature, else from miniz_oxide.

use alloc::vec::Vec;

/// Appends the zlib stream of `src` at level `clevel` (1 to 9) to `out` and returns
/// true, or false when it is longer than `maxout` bytes.
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    if super::deflate::covers(clevel) {
        super::deflate::compress(clevel, src, maxout, out)
    } else {
        other_levels(clevel, src, maxout, out)
    }
}

/// [`compress`] at the levels our deflate does not cover, by miniz_oxide.
#[cfg(not(feature = "zlib-rs"))]
fn other_levels(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let stream = miniz_oxide::deflate::compress_to_vec_zlib(src, clevel.min(9));
    if stream.len() > maxout {
        return false;
    }
    out.extend_from_slice(&stream);
    true
}

/// A thread's deflate state and output buffer, kept across blocks and chunks.
#[cfg(feature = "zlib-rs")]
struct Kept {
    /// The level `deflate` was made for.
    level: i32,
    /// Reset for each block rather than made anew, as `compress_slice` would: that
    /// allocated and zeroed its window, chains and hash table per block.
    deflate: zlib_rs::Deflate,
    /// Where the stream is written before it is appended: zeroed once when it grows
    /// rather than `maxout` bytes of `out` per block.
    buf: Vec<u8>,
}

#[cfg(feature = "zlib-rs")]
std::thread_local! {
    static KEPT: core::cell::RefCell<Option<Kept>> = const { core::cell::RefCell::new(None) };
}

/// [`compress`] at the levels our deflate does not cover, by zlib-rs.
#[cfg(feature = "zlib-rs")]
fn other_levels(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    use zlib_rs::{Deflate, DeflateFlush, Status};
    let level = i32::from(clevel.min(9));
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        let kept = match &mut *kept {
            Some(k) if k.level == level => {
                k.deflate.reset();
                k
            }
            slot => slot.insert(Kept {
                level,
                deflate: Deflate::new(level, true, 15),
                buf: Vec::new(),
            }),
        };
        if kept.buf.len() < maxout {
            kept.buf.resize(maxout, 0);
        }
        let done = kept
            .deflate
            .compress(src, &mut kept.buf[..maxout], DeflateFlush::Finish);
        if done != Ok(Status::StreamEnd) {
            return false;
        }
        let n = kept.deflate.total_out() as usize;
        out.extend_from_slice(&kept.buf[..n]);
        true
    })
}

#[cfg(all(test, feature = "zlib-rs"))]
mod tests {
    use super::*;
    use alloc::vec;

    /// A fresh stream per call, as before the state was kept: the bytes to match.
    fn fresh(clevel: u8, src: &[u8]) -> Vec<u8> {
        let mut buf = vec![0; src.len() + 64];
        let config = zlib_rs::DeflateConfig::new(i32::from(clevel));
        let (stream, rc) = zlib_rs::compress_slice(&mut buf, src, config);
        assert_eq!(rc, zlib_rs::ReturnCode::Ok);
        stream.to_vec()
    }

    /// The kept state gives a fresh stream's bytes after a block that did not fit and
    /// across changes of level, and appends after what `out` holds.
    #[test]
    fn kept_state_gives_fresh_streams() {
        let text: Vec<u8> = (0..40_000u32).flat_map(|i| (i / 7).to_le_bytes()).collect();
        let noise: Vec<u8> = (0..5000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut out = vec![7u8; 3];
        assert!(!compress(5, &noise, 100, &mut out));
        assert_eq!(out, [7, 7, 7]);
        for clevel in [5, 5, 1, 9, 5] {
            out.truncate(3);
            assert!(compress(clevel, &text, text.len(), &mut out));
            assert_eq!(out[3..], fresh(clevel, &text)[..], "level {clevel}");
        }
    }
}
