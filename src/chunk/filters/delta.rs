//! Delta: each element XORed with the one before it in the chunk's first block, and
//! with the same element of the first block in the others (`delta_encoder` and
//! `delta_decoder` in C-Blosc2's `blosc/delta.c`).

/// Delta of `src` into `dst` (same length), elements of [`delta_width`] bytes. The first
/// block (`reference` is `None`) XORs each element with the one before it (in `src`);
/// later blocks XOR with the chunk's first block as given (unfiltered), `reference`.
#[cfg(feature = "std")]
pub(crate) fn delta(typesize: usize, reference: Option<&[u8]>, src: &[u8], dst: &mut [u8]) {
    let width = delta_width(typesize);
    let whole = src.len() - src.len() % width;
    match reference {
        None => {
            let w = width.min(whole);
            dst[..w].copy_from_slice(&src[..w]);
            for i in width..whole {
                dst[i] = src[i] ^ src[i - width];
            }
        }
        Some(first) => {
            for ((d, s), r) in dst[..whole].iter_mut().zip(src).zip(first) {
                *d = s ^ r;
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

/// The element width delta works on: 1, 2, 4 or 8 bytes (8 for other multiples of 8,
/// else 1), as `delta_decoder` picks it.
pub(super) fn delta_width(typesize: usize) -> usize {
    match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    }
}

/// Undoes delta on `block` in place. The first block (`reference` is `None`) XORs each
/// whole element with the decoded one before it; later blocks XOR with the chunk's
/// first decoded bytes (`reference`: the first block, or for variable-length blocks all
/// before this one). Bytes past the last whole element stay as they are, as in C.
pub(in crate::chunk) fn undelta(typesize: usize, reference: Option<&[u8]>, block: &mut [u8]) {
    let width = delta_width(typesize);
    let len = block.len() - block.len() % width;
    let block = &mut block[..len];
    match reference {
        None => match width {
            1 => prefix_xor::<1>(block),
            2 => prefix_xor::<2>(block),
            4 => prefix_xor::<4>(block),
            _ => prefix_xor::<8>(block),
        },
        Some(first) if first.len() >= block.len() => {
            for (byte, r) in block.iter_mut().zip(first) {
                *byte ^= r;
            }
        }
        // A variable-length block longer than the bytes before it: C XORs element by
        // element with the chunk's start, reading on into the block as it rewrites it.
        Some(first) => {
            for e in (0..block.len()).step_by(width) {
                let mut r = [0u8; 8];
                for (k, r) in r[..width].iter_mut().enumerate() {
                    let i = e + k;
                    *r = if i < first.len() {
                        first[i]
                    } else {
                        block[i - first.len()]
                    };
                }
                for (byte, r) in block[e..e + width].iter_mut().zip(r) {
                    *byte ^= r;
                }
            }
        }
    }
}

/// Running XOR of `W`-byte elements: element `i` becomes the XOR of elements `0..=i`.
fn prefix_xor<const W: usize>(block: &mut [u8]) {
    let (elements, _) = block.as_chunks_mut::<W>();
    let mut previous = [0u8; W];
    for element in elements {
        for (b, p) in element.iter_mut().zip(previous.iter()) {
            *b ^= p;
        }
        previous = *element;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "std")]
    use crate::chunk::filters::{sample, LENS};
    use alloc::vec;

    /// (typesize, first block's decoded bytes or none, stored, decoded): a running XOR
    /// of 1, 2, 4 or 8-byte elements in the first block, an XOR with the first block in
    /// the others; bytes past the last whole element stay.
    #[test]
    fn undelta_by_hand() {
        type Case<'a> = (usize, Option<&'a [u8]>, &'a [u8], &'a [u8]);
        let cases: [Case; 7] = [
            (1, None, &[1, 1, 1, 1], &[1, 0, 1, 0]),
            (
                2,
                None,
                &[1, 2, 3, 4, 5, 6, 0xff],
                &[1, 2, 2, 6, 7, 0, 0xff],
            ),
            (
                4,
                None,
                &[1, 0, 0, 0, 1, 0, 0, 0, 9],
                &[1, 0, 0, 0, 0, 0, 0, 0, 9],
            ),
            (
                16,
                None,
                &[1; 16],
                &[1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            // Other typesizes work on bytes.
            (3, None, &[1, 2, 4, 8], &[1, 3, 7, 15]),
            (1, Some(&[1, 0, 1, 0]), &[1, 2, 3, 4], &[0, 2, 2, 4]),
            (
                2,
                Some(&[0xf0, 0xf0]),
                &[0x0f, 0x0f, 0x0f],
                &[0xff, 0xff, 0x0f],
            ),
        ];
        for (i, (typesize, reference, src, expected)) in cases.into_iter().enumerate() {
            let mut block = src.to_vec();
            undelta(typesize, reference, &mut block);
            assert_eq!(block, expected, "case {i}");
        }
        assert_eq!(
            [1, 2, 3, 4, 5, 8, 16, 24, 12].map(delta_width),
            [1, 2, 1, 4, 1, 8, 8, 8, 1]
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn delta_is_undone_by_undelta() {
        for typesize in 1..=17 {
            for len in LENS {
                let src = sample(len);
                let other = sample(len + 3)[3..].to_vec();
                let mut first = vec![0; len];
                delta(typesize, None, &src, &mut first);
                undelta(typesize, None, &mut first);
                assert_eq!(first, src, "{typesize} {len}");
                let mut later = vec![0; len];
                delta(typesize, Some(&other), &src, &mut later);
                undelta(typesize, Some(&other), &mut later);
                assert_eq!(later, src, "{typesize} {len}");
            }
        }
    }
}
