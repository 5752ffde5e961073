//! Bytedelta (filter 35): the block as `typesize` channels, each byte replaced by its
//! difference (mod 256) with the one before it in its channel (`bytedelta_forward` and
//! `bytedelta_backward`, `plugins/filters/bytedelta/bytedelta.c` of C-Blosc2 3.x).

/// Bytedelta (filter 35) of `src` into `dst`: the block as `typesize` channels of
/// `len / typesize` bytes, each replaced by the difference (mod 256) with the byte
/// before it in its channel; the rest is copied as it is.
#[cfg(feature = "std")]
pub(crate) fn bytedelta(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let stream_len = src.len() / typesize.max(1);
    let whole = stream_len * typesize;
    if stream_len > 0 {
        for (s, d) in src[..whole]
            .chunks_exact(stream_len)
            .zip(dst[..whole].chunks_exact_mut(stream_len))
        {
            let mut previous = 0u8;
            for (o, &i) in d.iter_mut().zip(s) {
                *o = i.wrapping_sub(previous);
                previous = i;
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

/// Undoes bytedelta (filter 35) from `src` into `dst` (same length): the block holds
/// `typesize` channels of `len / typesize` bytes, each a running difference (mod 256)
/// of its own bytes; the bytes past the last whole element are copied as they are
/// (C-Blosc2 3.x; 2.x left them unwritten).
pub(in crate::chunk) fn unbytedelta(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let stream_len = src.len() / typesize.max(1);
    let whole = stream_len * typesize;
    if stream_len > 0 {
        for (s, d) in src[..whole]
            .chunks_exact(stream_len)
            .zip(dst[..whole].chunks_exact_mut(stream_len))
        {
            let mut acc = 0u8;
            for (o, &i) in d.iter_mut().zip(s) {
                acc = acc.wrapping_add(i);
                *o = acc;
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "std")]
    use crate::chunk::filters::{sample, LENS};
    use alloc::vec;

    /// (element size, stored bytes, decoded): each of the `typesize` channels a running
    /// sum mod 256; the bytes past the last whole element stay as they are.
    #[test]
    fn unbytedelta_by_hand() {
        let cases: [(usize, &[u8], &[u8]); 5] = [
            (1, &[1, 1, 1, 0xff], &[1, 2, 3, 2]),
            (2, &[1, 1, 1, 5, 0xff, 2], &[1, 2, 3, 5, 4, 6]),
            (2, &[1, 1, 7], &[1, 1, 7]),
            (4, &[9, 8, 7], &[9, 8, 7]),
            (
                3,
                &[0x80, 0x80, 1, 1, 0xff, 0xff, 0xaa],
                &[0x80, 0, 1, 2, 0xff, 0xfe, 0xaa],
            ),
        ];
        for (i, (typesize, src, expected)) in cases.into_iter().enumerate() {
            let mut dst = vec![0; src.len()];
            unbytedelta(typesize, src, &mut dst);
            assert_eq!(dst, expected, "case {i}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn bytedelta_is_undone_by_unbytedelta() {
        for typesize in 1..=17 {
            for len in LENS {
                let src = sample(len);
                let (mut mid, mut back) = (vec![0; len], vec![0; len]);
                bytedelta(typesize, &src, &mut mid);
                unbytedelta(typesize, &mid, &mut back);
                assert_eq!(back, src, "{typesize} {len}");
            }
        }
    }
}
