//! Issue 48's table: `chunk::compress` against C-Blosc2 3.3.5's `blosc2_compress_ctx`
//! (python-blosc2 4.14.1's `libblosc2.so`, loaded with `dlopen`, one thread, one context
//! kept for the run as C's users keep theirs, a new output buffer per call as ours), interleaved in one process: rounds of one
//! call of C and one of ours taking turns (which goes first alternates), so that both see
//! the same machine; for each case the median over rounds of ours / C, C's median time
//! and both chunks' sizes (ours / C).
//!
//! Cases: 1 MiB chunks of a float64 ramp with noise, an int32 counter and a float32
//! sine, each with shuffle and with bitshuffle, split mode auto, automatic blocks; the
//! codecs at the levels of the issue (blosclz 5, lz4 5, lz4hc 5, zlib 5, zstd 1, 5 and
//! 9), then the delta and bytedelta pipelines (delta + shuffle, shuffle + bytedelta)
//! with lz4 5 and zstd 5.
//!
//! Run with `cargo bench --all-features --bench compress_table` (all 54 cases), or with
//! words that the printed case names must contain, e.g.
//! `cargo bench --all-features --bench compress_table -- lz4_5 zstd1`. `ROUNDS=n` sets
//! the rounds per case (default 31; fewer for the slow zstd 9: each case stops after
//! about 3 s). `B2ND_LIBBLOSC2_335` names the library when it is not in the venv of this
//! machine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2nd_meta::blosc::{Codec, Filter, SplitMode};
use b2nd_meta::chunk::{self, CParams};

#[allow(dead_code)] // The forked-child helpers are the tests'.
#[path = "../tests/compress/c335.rs"]
mod c335;
mod table;

use table::{median, wanted};

/// A float64 ramp with noise in its last digits (as benches/compress.rs).
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

fn f32_sine(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| (i as f32 * 0.001).sin().to_le_bytes())
        .collect()
}

fn params(codec: Codec, clevel: u8, typesize: usize, pipeline: &[Filter]) -> CParams {
    let mut filters = [(Filter::None, 0); 6];
    let first = 6 - pipeline.len();
    for (slot, filter) in filters[first..].iter_mut().zip(pipeline) {
        // bytedelta by the type's bytes, as python-blosc2 sets its meta.
        let meta = if *filter == Filter::ByteDelta {
            typesize as u8
        } else {
            0
        };
        *slot = (*filter, meta);
    }
    CParams {
        codec,
        clevel,
        typesize,
        blocksize: 0,
        splitmode: SplitMode::Auto,
        filters,
    }
}

/// Median over rounds of ours / C, and C's median time in ms.
#[inline(never)]
fn compare(
    rounds: usize,
    c: impl FnMut() -> usize,
    ours: impl FnMut() -> usize,
) -> (f64, f64, usize) {
    fn timed(mut f: impl FnMut() -> usize) -> impl FnMut() -> f64 {
        move || {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64()
        }
    }
    let times = table::alternate(rounds, Duration::from_secs(3), timed(c), timed(ours));
    let mut ratios: Vec<f64> = times.iter().map(|(tc, to)| to / tc).collect();
    let mut c_times: Vec<f64> = times.iter().map(|(tc, _)| tc * 1e3).collect();
    (median(&mut ratios), median(&mut c_times), times.len())
}

fn main() {
    let Some(args) = table::words() else {
        return;
    };
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(31);
    let lib = c335::library()
        .map(|path| c335::lib335::Library::open(&path).unwrap_or_else(|why| panic!("{why}")))
        .expect("C-Blosc2 3.3.5 (run .ci/references or set B2ND_LIBBLOSC2_335)");
    let data = [
        ("f64ramp", 8, f64_ramp(1 << 17)),
        ("i32counter", 4, i32_counter(1 << 18)),
        ("f32sine", 4, f32_sine(1 << 18)),
    ];
    let mut cases: Vec<(String, Codec, u8, Vec<Filter>)> = Vec::new();
    for (codec, clevel, name) in [
        (Codec::BloscLz, 5, "blosclz5"),
        (Codec::Lz4, 5, "lz4_5"),
        (Codec::Lz4Hc, 5, "lz4hc5"),
        (Codec::Zlib, 5, "zlib5"),
        (Codec::Zstd, 1, "zstd1"),
        (Codec::Zstd, 5, "zstd5"),
        (Codec::Zstd, 9, "zstd9"),
    ] {
        for (fname, filter) in [
            ("shuffle", Filter::Shuffle),
            ("bitshuffle", Filter::BitShuffle),
        ] {
            cases.push((format!("{name}_{fname}"), codec, clevel, vec![filter]));
        }
    }
    for (codec, name) in [(Codec::Lz4, "lz4_5"), (Codec::Zstd, "zstd5")] {
        cases.push((
            format!("{name}_delta_shuffle"),
            codec,
            5,
            vec![Filter::Delta, Filter::Shuffle],
        ));
        cases.push((
            format!("{name}_shuffle_bytedelta"),
            codec,
            5,
            vec![Filter::Shuffle, Filter::ByteDelta],
        ));
    }
    println!(
        "| case | data | ours/C time | C time | ours/C size | ours bytes | C bytes | rounds |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, codec, clevel, pipeline) in &cases {
        for (dname, typesize, src) in &data {
            let full = format!("{name}/{dname}");
            if !wanted(&args, &full) {
                continue;
            }
            let p = params(*codec, *clevel, *typesize, pipeline);
            let mut filters = [0u8; 6];
            let mut metas = [0u8; 6];
            for (slot, (f, m)) in p.filters.iter().enumerate() {
                filters[slot] = f.id();
                metas[slot] = *m;
            }
            let case = c335::CCase {
                compcode: codec.id().expect("a codec with an id"),
                clevel: *clevel,
                typesize: *typesize as i32,
                blocksize: 0,
                splitmode: 3,
                filters,
                filters_meta: metas,
            };
            let cp = case.cparams();
            let ctx = unsafe { (lib.create_cctx)(cp) };
            assert!(!ctx.is_null());
            // A new output buffer per call on both sides, as `chunk::compress` returns
            // one (and python-blosc2's `compress2` allocates one): both pay its faults.
            let c_compress = || unsafe {
                let mut dest = Vec::<u8>::with_capacity(src.len() + 64);
                let n = (lib.compress_ctx)(
                    ctx,
                    black_box(src.as_ptr()).cast(),
                    src.len() as i32,
                    dest.as_mut_ptr().cast(),
                    dest.capacity() as i32,
                );
                black_box(&mut dest);
                n as usize
            };
            let c_len = c_compress();
            let ours_len = chunk::compress(src, &p).unwrap().len();
            let (ratio, c_ms, n) = compare(rounds, c_compress, || {
                chunk::compress(black_box(src), &p).unwrap().len()
            });
            unsafe { (lib.free_ctx)(ctx) };
            println!(
                "| {name} | {dname} | {ratio:.2}x | {c_ms:.2} ms | {:.3} | {ours_len} | {c_len} | {n} |",
                ours_len as f64 / c_len as f64
            );
        }
    }
}
