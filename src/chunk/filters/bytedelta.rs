//! Bytedelta (filter 35): the block as `typesize` channels, each byte replaced by its
//! difference (mod 256) with the one before it in its channel (`bytedelta_forward` and
//! `bytedelta_backward`, `plugins/filters/bytedelta/bytedelta.c` of C-Blosc2 3.x).

#[cfg(feature = "std")]
use crate::simd::{ScalarKernel, Unit};

/// Bytedelta (filter 35) of `src` into `dst`: the block as `typesize` channels of
/// `len / typesize` bytes, each replaced by the difference (mod 256) with the byte
/// before it in its channel; the rest is copied as it is. Each byte less the one before
/// it, both read from `src` (no value carried from one byte to the next), a loop the
/// compiler vectorises for the scalar unit (`crate::simd`: AVX2 where the CPU has it).
#[cfg(feature = "std")]
pub(crate) fn bytedelta(typesize: usize, src: &[u8], dst: &mut [u8]) {
    Unit::scalar().run(Forward { typesize, src, dst });
}

/// [`bytedelta`] as a [`ScalarKernel`].
#[cfg(feature = "std")]
struct Forward<'a> {
    typesize: usize,
    src: &'a [u8],
    dst: &'a mut [u8],
}

#[cfg(feature = "std")]
impl ScalarKernel for Forward<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let (src, dst) = (self.src, self.dst);
        let stream_len = src.len() / self.typesize.max(1);
        let whole = stream_len * self.typesize;
        if stream_len > 0 {
            for (s, d) in src[..whole]
                .chunks_exact(stream_len)
                .zip(dst[..whole].chunks_exact_mut(stream_len))
            {
                d[0] = s[0];
                for ((o, &i), &previous) in d[1..].iter_mut().zip(&s[1..]).zip(s) {
                    *o = i.wrapping_sub(previous);
                }
            }
        }
        dst[whole..].copy_from_slice(&src[whole..]);
    }
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
