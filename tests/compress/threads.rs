//! A chunk's blocks compressed on several threads are the bytes one thread writes, for
//! every codec, filter, type size, block size and thread count, on data that compresses,
//! that does not (stored as it is), zeros (the zeros special chunk), and data that
//! compresses to just about its own size, where each stream's budget decides.

use b2nd_meta::blosc::{Codec, Filter, SplitMode};
use b2nd_meta::chunk::{self, CParams};

use crate::cases::{elements, random};

const CODECS: [Codec; 5] = [
    Codec::BloscLz,
    Codec::Lz4,
    Codec::Lz4Hc,
    Codec::Zlib,
    Codec::Zstd,
];

fn filters(typesize: usize) -> Vec<[(Filter, u8); 6]> {
    let none = [(Filter::None, 0); 6];
    let mut all = Vec::new();
    for f in [
        (Filter::None, 0),
        (Filter::Shuffle, 0),
        (Filter::BitShuffle, 0),
        (Filter::Delta, 0),
        (Filter::ByteDelta, typesize as u8),
    ] {
        let mut p = none;
        p[5] = f;
        all.push(p);
    }
    let mut two = none;
    two[4] = (Filter::Delta, 0);
    two[5] = (Filter::Shuffle, 0);
    all.push(two);
    all
}

/// Random bytes with a tail of `zeros`: about as long compressed as they are.
fn almost_incompressible(len: usize, zeros: usize, seed: u64) -> Vec<u8> {
    let mut v = random(len, seed);
    let n = v.len();
    v[n - zeros.min(n)..].fill(0);
    v
}

fn same_on_threads(p: &CParams, src: &[u8]) {
    let one = chunk::compress(src, p).unwrap();
    for threads in 2..=4 {
        let many = chunk::compress_threads(src, p, threads).unwrap();
        assert!(one == many, "{threads} threads, {} bytes, {p:?}", src.len());
    }
}

#[test]
fn chunks_compressed_on_threads_are_one_threads_bytes() {
    for typesize in [1, 2, 4, 8] {
        // A leftover block: the length is no multiple of any block size.
        let len = 24_000 + 3 * typesize;
        let data = [
            elements(typesize, len / typesize, 7),
            random(len, 11),
            vec![0; len],
            almost_incompressible(len, 700, 13),
        ];
        for codec in CODECS {
            for filters in filters(typesize) {
                for blocksize in [0, 256 * typesize, 1024 * typesize + typesize] {
                    for src in &data {
                        let p = CParams {
                            codec,
                            clevel: 5,
                            typesize,
                            blocksize,
                            splitmode: SplitMode::Auto,
                            filters,
                        };
                        same_on_threads(&p, src);
                    }
                }
            }
        }
    }
}

#[test]
fn chunks_near_their_budget_are_one_threads_bytes_on_threads() {
    // Tails of zeros from a few bytes to two blocks long: the chunk's compressed length
    // crosses its budget (nbytes + 32), and streams meet what is left of it.
    for codec in CODECS {
        for (typesize, splitmode) in [(1, SplitMode::Never), (4, SplitMode::Always)] {
            let mut filters = [(Filter::None, 0); 6];
            filters[5] = (Filter::Shuffle, 0);
            let p = CParams {
                codec,
                clevel: 5,
                typesize,
                blocksize: 2048,
                splitmode,
                filters,
            };
            for zeros in (0..4096).step_by(61) {
                same_on_threads(&p, &almost_incompressible(40_000, zeros, zeros as u64 + 1));
            }
        }
    }
}

#[test]
fn a_stream_that_fits_alone_but_not_what_is_left_is_one_threads_bytes() {
    // Eight blocks of noise (stored as they are), then a leftover block of a motif of
    // 70 to 250 bytes: what is left of the budget before the leftover is its length
    // less 72, which sweeps past the leftover's compressed length and past BloscLZ's
    // least budget (66 bytes).
    for codec in CODECS {
        let p = CParams {
            codec,
            clevel: 5,
            typesize: 1,
            blocksize: 2048,
            splitmode: SplitMode::Never,
            filters: [(Filter::None, 0); 6],
        };
        for leftover in 70..250 {
            let mut src = random(8 * 2048, leftover as u64);
            src.extend((0..leftover).map(|i| b"motif!"[i % 6]));
            same_on_threads(&p, &src);
        }
    }
}
