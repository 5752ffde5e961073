//! The inputs and parameters compressed by both sides: every filter pipeline python-blosc2
//! users write, type sizes 1 to 16 and odd ones, levels 0 to 9, automatic and given
//! block sizes, over data that compresses like real arrays (ramps with noise, counters,
//! repeated values), random bytes, zeros, runs and tiny inputs.

use b2nd_meta::blosc::{Codec, Filter, SplitMode};
use b2nd_meta::chunk::CParams;

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `n` float64 of a ramp with noise in the low bits, little-endian.
pub fn f64_ramp(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    (0..n)
        .flat_map(|i| {
            let noise = (rng.next() % 1000) as f64 * 1e-5;
            (i as f64 * 0.001 + noise).to_le_bytes()
        })
        .collect()
}

/// `n` int32 counting up.
pub fn i32_counter(n: usize) -> Vec<u8> {
    (0..n as i32).flat_map(|i| i.to_le_bytes()).collect()
}

/// `n` elements of `typesize` bytes: a slowly growing counter in the low bytes, one
/// noisy byte, constant high bytes: what shuffling is for.
pub fn elements(typesize: usize, n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(typesize * n);
    for i in 0..n {
        let counter = (i / 3) as u64;
        for j in 0..typesize {
            out.push(match j {
                0 => counter as u8,
                1 => (counter >> 8) as u8,
                2 => (rng.next() % 7) as u8,
                _ => (j * 17) as u8,
            });
        }
    }
    out
}

pub fn random(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    (0..len).map(|_| rng.next() as u8).collect()
}

fn pipeline(slots: &[(usize, Filter, u8)]) -> [(Filter, u8); 6] {
    let mut filters = [(Filter::None, 0); 6];
    for &(slot, f, meta) in slots {
        filters[slot] = (f, meta);
    }
    filters
}

/// The filter pipelines tried with elements of `typesize` bytes.
pub fn pipelines(typesize: usize) -> Vec<[(Filter, u8); 6]> {
    let mut all = vec![
        pipeline(&[]),
        pipeline(&[(5, Filter::Shuffle, 0)]),
        pipeline(&[(5, Filter::BitShuffle, 0)]),
        pipeline(&[(4, Filter::Delta, 0), (5, Filter::Shuffle, 0)]),
        pipeline(&[(0, Filter::Shuffle, 0), (3, Filter::Delta, 0)]),
        pipeline(&[
            (4, Filter::Shuffle, 0),
            (5, Filter::ByteDelta, typesize.min(255) as u8),
        ]),
        pipeline(&[(1, Filter::BitShuffle, 0), (2, Filter::Shuffle, 0)]),
    ];
    if typesize == 4 || typesize == 8 {
        all.push(pipeline(&[
            (4, Filter::TruncPrec, 10),
            (5, Filter::Shuffle, 0),
        ]));
        all.push(pipeline(&[
            (0, Filter::TruncPrec, (-3i8) as u8),
            (5, Filter::BitShuffle, 0),
        ]));
    }
    if typesize == 8 {
        // Shuffle by groups of 4 bytes (the meta byte).
        all.push(pipeline(&[(5, Filter::Shuffle, 4)]));
    }
    all
}

pub const TYPESIZES: [usize; 22] = [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 33, 255, 256, 300,
];

/// Every codec x pipeline x type size x level over structured elements, plus the
/// special inputs, for `codecs`.
pub fn all(codecs: &[Codec]) -> Vec<(CParams, Vec<u8>)> {
    let mut cases = Vec::new();
    for &codec in codecs {
        let clevels: &[u8] = if codec == Codec::BloscLz {
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        } else {
            &[0, 1, 5, 9]
        };
        for (t, &typesize) in TYPESIZES.iter().enumerate() {
            let n = 40_000 / typesize + t;
            let data = elements(typesize, n, t as u64);
            for filters in pipelines(typesize) {
                for &clevel in clevels {
                    let p = CParams {
                        codec,
                        clevel,
                        typesize,
                        blocksize: 0,
                        splitmode: SplitMode::Auto,
                        filters,
                    };
                    cases.push((p, data.clone()));
                }
            }
        }
        let shuffle = pipeline(&[(5, Filter::Shuffle, 0)]);
        let p = |typesize: usize, clevel: u8, blocksize: usize, splitmode| CParams {
            codec,
            clevel,
            typesize,
            blocksize,
            splitmode,
            filters: shuffle,
        };
        for clevel in [1, 5, 9] {
            cases.push((p(8, clevel, 0, SplitMode::Auto), f64_ramp(200_000, 7)));
            cases.push((p(4, clevel, 0, SplitMode::Auto), i32_counter(300_000)));
            cases.push((
                p(8, clevel, 8 * 1000, SplitMode::Always),
                f64_ramp(30_000, 9),
            ));
            cases.push((p(4, clevel, 4 * 999, SplitMode::Never), i32_counter(20_000)));
            cases.push((p(2, clevel, 0, SplitMode::ForwardCompat), random(50_001, 3)));
            cases.push((p(4, clevel, 0, SplitMode::Auto), vec![0; 100_000]));
            cases.push((p(8, clevel, 0, SplitMode::Auto), vec![7; 100_000]));
            for len in [0, 1, 7, 31, 32, 33, 63, 64, 100, 129] {
                cases.push((p(8, clevel, 0, SplitMode::Auto), random(len, len as u64)));
                cases.push((p(1, clevel, 0, SplitMode::Auto), vec![3; len]));
            }
            // Blocks of fewer than 4 bytes: the header and block starts outgrow the input.
            cases.push((p(1, clevel, 2, SplitMode::Auto), elements(1, 100, 1)));
        }
    }
    cases
}
