//! Random inputs and parameters: every chunk we write decodes, in our decoder and in
//! C-Blosc2 3.3.5, to what C's own chunk of the same input decodes to; BloscLZ and LZ4
//! chunks are C's bytes.

use b2nd_meta::blosc::{Codec, Filter, SplitMode};
use b2nd_meta::chunk::CParams;
use proptest::prelude::*;

fn codec() -> impl Strategy<Value = Codec> {
    prop_oneof![
        Just(Codec::BloscLz),
        Just(Codec::Lz4),
        Just(Codec::Lz4Hc),
        Just(Codec::Zlib),
        Just(Codec::Zstd)
    ]
}

fn filter(typesize: usize) -> impl Strategy<Value = (Filter, u8)> {
    let mut options = vec![
        Just((Filter::None, 0)).boxed(),
        Just((Filter::Shuffle, 0)).boxed(),
        Just((Filter::BitShuffle, 0)).boxed(),
        Just((Filter::Delta, 0)).boxed(),
        Just((Filter::ByteDelta, typesize.min(255) as u8)).boxed(),
    ];
    if typesize == 4 || typesize == 8 {
        let bits = if typesize == 4 { 22i8 } else { 51 };
        options.push(
            (1..=bits)
                .prop_map(|b| (Filter::TruncPrec, b as u8))
                .boxed(),
        );
    }
    proptest::strategy::Union::new(options)
}

/// Bytes that compress somewhat: runs, a repeated motif, noise, in random proportions.
fn data() -> impl Strategy<Value = Vec<u8>> {
    (0usize..40_000, any::<u64>(), 0u8..4).prop_map(|(len, seed, kind)| {
        let mut x = seed | 1;
        (0..len)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match kind {
                    0 => x as u8,
                    1 => (i / 97) as u8,
                    2 => [0u8, 1, 2, 3, 0, 0, 0, 9][i % 8] ^ ((x % 16 == 0) as u8),
                    _ => (x % 3) as u8,
                }
            })
            .collect()
    })
}

/// At most two filters and one delta, in any slots: C-Blosc2 3.3.5 writes the third
/// filter's output over its input block (see `c_overwrites_input`), and undoes a delta
/// in place in the output block even when the filter undone before it wrote elsewhere,
/// so that it does not decode its own chunks of such pipelines to their input.
fn within_c_blosc2s_pipeline(mut filters: [(Filter, u8); 6]) -> [(Filter, u8); 6] {
    let (mut active, mut deltas) = (0, 0);
    for slot in &mut filters {
        if slot.0 == Filter::None {
            continue;
        }
        if active == 2 || (slot.0 == Filter::Delta && deltas == 1) {
            *slot = (Filter::None, 0);
            continue;
        }
        active += 1;
        deltas += usize::from(slot.0 == Filter::Delta);
    }
    filters
}

fn params() -> impl Strategy<Value = CParams> {
    (
        codec(),
        0u8..=9,
        prop_oneof![1usize..=17, Just(33), Just(256)],
    )
        .prop_flat_map(|(codec, clevel, typesize)| {
            (
                proptest::array::uniform6(filter(typesize)),
                prop_oneof![Just(0usize), (1usize..200).prop_map(move |k| k * typesize)],
                prop_oneof![
                    Just(SplitMode::Auto),
                    Just(SplitMode::Always),
                    Just(SplitMode::Never),
                    Just(SplitMode::ForwardCompat)
                ],
            )
                .prop_map(move |(filters, blocksize, splitmode)| CParams {
                    codec,
                    clevel,
                    typesize,
                    blocksize,
                    splitmode,
                    filters: within_c_blosc2s_pipeline(filters),
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
    #[test]
    fn random_chunks_decode_in_ours_and_c(cases in proptest::collection::vec((params(), data()), 24)) {
        // Whole elements, as arrays' chunks hold: C-Blosc2 3.3.5 refuses to decode
        // bytedelta chunks with a partial element (its own as well as ours).
        let cases: Vec<_> = cases
            .into_iter()
            .map(|(p, mut data)| {
                data.truncate(data.len() / p.typesize * p.typesize);
                (p, data)
            })
            .collect();
        let Some(results) = crate::run(&cases) else { return Ok(()) };
        for ((p, _), r) in cases.iter().zip(&results) {
            if crate::EXACT.contains(&p.codec) && !crate::c_overwrites_input(p) {
                prop_assert_eq!(&r.ours, &r.c.chunk, "{:?}", p);
            }
        }
    }
}
