//! The chunk compressor against C-Blosc2 3.3.5's `blosc2_compress_ctx` (python-blosc2
//! 4.14.1's `libblosc2.so`, loaded with `dlopen`, one thread), in the same run: 1 MiB
//! chunks of a float64 ramp with noise and an int32 counter, the cases of issue 33's
//! figures (zstd 5 and 1 with shuffle, lz4 5 shuffle, zstd 1 bitshuffle, blosclz 5
//! shuffle), and the three of them whose import was slower than python's with the
//! import's 128 KiB blocks (`_b128k`: the same per-block work as its 64 MiB chunks).
//! Each case also prints both chunk sizes.
//!
//! Run with `cargo bench --bench compress --all-features` (`B2ND_LIBBLOSC2_335` names the
//! library when it is not in the venv of this machine; without it only ours runs).

use std::hint::black_box;
use std::time::Duration;

use b2nd_meta::blosc::{Codec, Filter, SplitMode};
use b2nd_meta::chunk::{self, CParams};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

#[allow(dead_code)] // The forked-child helpers are the tests'.
#[path = "../tests/compress/c335.rs"]
mod c335;

fn f64_ramp(n: usize) -> Vec<u8> {
    let mut x = 12345u64;
    (0..n)
        .flat_map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (i as f64 * 0.001 + (x % 1000) as f64 * 1e-5).to_le_bytes()
        })
        .collect()
}

fn i32_counter(n: usize) -> Vec<u8> {
    (0..n as i32).flat_map(i32::to_le_bytes).collect()
}

fn params(codec: Codec, clevel: u8, filter: Filter, typesize: usize, blocksize: usize) -> CParams {
    let mut filters = [(Filter::None, 0); 6];
    filters[5] = (filter, 0);
    CParams {
        codec,
        clevel,
        typesize,
        blocksize,
        splitmode: SplitMode::Auto,
        filters,
    }
}

fn bench(c: &mut Criterion) {
    let lib = c335::library()
        .map(|path| c335::lib335::Library::open(&path).unwrap_or_else(|why| panic!("{why}")));
    let data = [
        ("f64ramp", 8, f64_ramp(1 << 17)),
        ("i32counter", 4, i32_counter(1 << 18)),
    ];
    let cases = [
        ("zstd5_shuffle", Codec::Zstd, 5, Filter::Shuffle, 0),
        ("zstd1_shuffle", Codec::Zstd, 1, Filter::Shuffle, 0),
        ("lz4_5_shuffle", Codec::Lz4, 5, Filter::Shuffle, 0),
        ("zstd1_bitshuffle", Codec::Zstd, 1, Filter::BitShuffle, 0),
        ("blosclz5_shuffle", Codec::BloscLz, 5, Filter::Shuffle, 0),
        (
            "zstd5_shuffle_b128k",
            Codec::Zstd,
            5,
            Filter::Shuffle,
            128 << 10,
        ),
        (
            "lz4_5_shuffle_b128k",
            Codec::Lz4,
            5,
            Filter::Shuffle,
            128 << 10,
        ),
        (
            "zstd1_bitshuffle_b128k",
            Codec::Zstd,
            1,
            Filter::BitShuffle,
            128 << 10,
        ),
    ];
    for (name, codec, clevel, filter, blocksize) in cases {
        let mut group = c.benchmark_group(format!("compress/{name}"));
        group
            .sample_size(20)
            .measurement_time(Duration::from_secs(2))
            .warm_up_time(Duration::from_millis(500));
        for (dname, typesize, src) in &data {
            let p = params(codec, clevel, filter, *typesize, blocksize);
            group.throughput(Throughput::Bytes(src.len() as u64));
            let ours = chunk::compress(src, &p).unwrap();
            group.bench_with_input(BenchmarkId::new("ours", dname), src, |b, src| {
                b.iter(|| chunk::compress(black_box(src), &p).unwrap())
            });
            if let Some(lib) = &lib {
                let case = c335::CCase {
                    compcode: codec.id().expect("a codec with an id"),
                    clevel,
                    typesize: *typesize as i32,
                    blocksize: blocksize as i32,
                    splitmode: 3,
                    filters: [0, 0, 0, 0, 0, if filter == Filter::Shuffle { 1 } else { 2 }],
                    filters_meta: [0; 6],
                };
                let theirs = c335::c_compress(lib, &case, src);
                println!(
                    "{name}/{dname}: ours {} bytes, C {} bytes",
                    ours.len(),
                    theirs.len()
                );
                group.bench_with_input(BenchmarkId::new("c335", dname), src, |b, src| {
                    b.iter(|| c335::c_compress(lib, &case, black_box(src)))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
