//! Our chunk sizes against C-Blosc2 3.3.5's for the same input and parameters, on the
//! data of issue 33's figures (a float64 ramp with noise, an int32 counter) and a
//! structured 2-byte one, shuffle and bitshuffle, 1 MiB chunks: each codec and level
//! within its bound of C's size. `cargo test --test compress sizes -- --nocapture`
//! prints the table.

use b2nd_meta::blosc::{Codec, Filter, SplitMode};
use b2nd_meta::chunk::CParams;

use crate::cases::{elements, f64_ramp, i32_counter};

/// How much larger than C's our chunk may be, per codec and level (`None`: reported
/// only).
fn bound(codec: Codec, clevel: u8) -> Option<f64> {
    match (codec, clevel) {
        // Byte-identical streams.
        (Codec::BloscLz | Codec::Lz4, _) => Some(1.0),
        // zstd 22's optimal parsing (btultra2) is not ours: kilobytes of difference on
        // outputs of a few hundred bytes, reported only.
        (Codec::Zstd, 9) => None,
        _ => Some(1.05),
    }
}

#[test]
fn chunk_sizes_are_close_to_c_blosc2_335s() {
    let data = [
        ("f64 ramp+noise", 8, f64_ramp(1 << 17, 5)),
        ("i32 counter", 4, i32_counter(1 << 18)),
        ("u16 structured", 2, elements(2, 1 << 19, 3)),
    ];
    let mut cases = Vec::new();
    for codec in [
        Codec::BloscLz,
        Codec::Lz4,
        Codec::Lz4Hc,
        Codec::Zlib,
        Codec::Zstd,
    ] {
        for clevel in [1, 5, 9] {
            for filter in [Filter::Shuffle, Filter::BitShuffle] {
                for (name, typesize, src) in &data {
                    let mut filters = [(Filter::None, 0); 6];
                    filters[5] = (filter, 0);
                    let p = CParams {
                        codec,
                        clevel,
                        typesize: *typesize,
                        blocksize: 0,
                        splitmode: SplitMode::Auto,
                        filters,
                    };
                    cases.push(((name, p), src.clone()));
                }
            }
        }
    }
    let plain: Vec<(CParams, Vec<u8>)> = cases
        .iter()
        .map(|((_, p), s)| (p.clone(), s.clone()))
        .collect();
    let Some(results) = crate::run(&plain) else {
        return;
    };
    let mut over = Vec::new();
    println!(
        "{:<8} {:>2} {:<10} {:<15} {:>9} {:>9} {:>6}",
        "codec", "cl", "filter", "data", "ours", "C", "ratio"
    );
    for (((name, p), _), r) in cases.iter().zip(&results) {
        let ratio = r.ours.len() as f64 / r.c.chunk.len() as f64;
        println!(
            "{:<8} {:>2} {:<10} {:<15} {:>9} {:>9} {:>6.3}",
            format!("{:?}", p.codec),
            p.clevel,
            p.filters[5].0.to_string(),
            name,
            r.ours.len(),
            r.c.chunk.len(),
            ratio
        );
        if bound(p.codec, p.clevel).is_some_and(|b| ratio > b) {
            over.push(format!(
                "{:?} {} {} {name}: {ratio:.3}",
                p.codec, p.clevel, p.filters[5].0
            ));
        }
    }
    assert!(
        over.is_empty(),
        "larger than C's beyond the bound:\n{}",
        over.join("\n")
    );
}
