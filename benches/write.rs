//! Writing a new array to a file: `NewArray::write` against C-Blosc2 3.3.5's
//! `b2nd_from_cbuffer` (python-blosc2 4.14.1's `libblosc2.so`, loaded at run time: see
//! `c335/mod.rs`; what `blosc2.asarray` runs) in the same run, both on 2 threads (or
//! `B2ND_BENCH_THREADS`), the
//! same chunk and block shapes (python-blosc2's for the size, on this machine), the
//! issue's cases: zstd 5 + shuffle (python's default), zstd 1 + shuffle, lz4 5 + shuffle,
//! zstd 1 + bitshuffle and blosclz 5 + shuffle, of a float64 ramp with noise and an int32
//! counter. (benches/import_vs_python.py times python's whole `np.load` + `asarray`
//! against the `import` command.)
//!
//! Our time includes the staging file's syncs and rename (C's call neither syncs nor
//! stages); their share is printed apart after each case ("syncs and rename").
//!
//! Run with `cargo bench --bench write --all-features` (`B2ND_LIBBLOSC2_335` names the
//! library when it is not in the venv of this machine); `B2ND_BENCH_MB=64` (the default)
//! sets the input's size, `B2ND_BENCH_THREADS=2` (the default) both sides' threads.

#[allow(dead_code)] // The decoder benches' helpers.
mod c335;

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2nd_meta::array::write::{chunks_and_blocks, Caches, NewArray};
use b2nd_meta::blosc::{Codec, Filter};
use b2nd_meta::io::Steps;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// A float64 ramp with noise, or an int32 counter, of `bytes` bytes.
fn data(bytes: usize, float: bool) -> Vec<u8> {
    let mut x = 12345u32;
    let mut out = Vec::with_capacity(bytes);
    let mut i = 0usize;
    while out.len() < bytes {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        if float {
            let v = i as f64 * 0.25 + f64::from(x >> 16) / 65536.0 * 1e-3;
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            out.extend_from_slice(&(i as i32).to_le_bytes());
        }
        i += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let c335 = c335::Blosc2::load();
    let mb: usize = std::env::var("B2ND_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let threads: usize = std::env::var("B2ND_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let dir = std::env::temp_dir().join(format!("b2nd-meta-write-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("zstd5_shuffle", Codec::Zstd, 5, Filter::Shuffle),
        ("zstd1_shuffle", Codec::Zstd, 1, Filter::Shuffle),
        ("lz4_5_shuffle", Codec::Lz4, 5, Filter::Shuffle),
        ("zstd1_bitshuffle", Codec::Zstd, 1, Filter::BitShuffle),
        ("blosclz5_shuffle", Codec::BloscLz, 5, Filter::Shuffle),
    ];
    let caches = Caches::of_this_machine();
    for (kind, dtype, itemsize) in [("f64_ramp", "<f8", 8u64), ("i32_counter", "<i4", 4)] {
        let bytes = data(mb << 20, kind == "f64_ramp");
        let shape = [bytes.len() as u64 / itemsize];
        let (chunks, blocks) = chunks_and_blocks(&shape, itemsize, None, None, &caches).unwrap();
        let array = c335::Array {
            shape: vec![shape[0] as i64],
            chunks: chunks.iter().map(|&d| d as i32).collect(),
            blocks: blocks.iter().map(|&d| d as i32).collect(),
            dtype,
        };
        let mut group = c.benchmark_group(format!("write/{kind}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
        for (name, codec, clevel, filter) in cases {
            let mut filters = [(Filter::None, 0); 6];
            filters[5] = (filter, 0);
            let ours = NewArray::new(&shape, dtype)
                .unwrap()
                .chunks(&chunks)
                .blocks(&blocks)
                .codec(codec, clevel)
                .filters(filters)
                .threads(threads)
                .overwrite(true);
            let path = dir.join("ours.b2nd");
            // The syncs and the staging file's rename (what makes our write durable and
            // C's call does not do) timed apart, over the same writes.
            let (mut waited, mut writes) = (Duration::ZERO, 0u32);
            group.bench_function(BenchmarkId::new("ours", name), |b| {
                b.iter_custom(|iters| {
                    let steps = Steps::timed();
                    let ours = ours.clone().steps(steps.clone());
                    let start = Instant::now();
                    for _ in 0..iters {
                        ours.write(&path, black_box(&bytes)).unwrap();
                    }
                    let elapsed = start.elapsed();
                    waited += steps.waited();
                    writes += iters as u32;
                    elapsed
                })
            });
            if writes > 0 {
                eprintln!(
                    "write/{kind}/ours/{name}: syncs and rename {:.1} ms of each write",
                    waited.as_secs_f64() * 1e3 / f64::from(writes)
                );
            }
            let cpath = dir.join("c.b2nd");
            // splitmode 4: BLOSC_FORWARD_COMPAT_SPLIT, python's default.
            let mut cparams = c335::CParams::one_thread(
                codec.id().unwrap(),
                clevel,
                itemsize as i32,
                0,
                4,
                [0, 0, 0, 0, 0, filter.id()],
                [0; 6],
            );
            cparams.nthreads = threads as i16;
            group.bench_function(BenchmarkId::new("c335", name), |b| {
                b.iter(|| c335.write_array(&cpath, &array, cparams, black_box(&bytes)))
            });
            // Both files exist when both ran (a filter may have skipped either); a
            // previous case's file is removed so that its size is not reported again.
            if let (Ok(o), Ok(cc)) = (std::fs::metadata(&path), std::fs::metadata(&cpath)) {
                let (o, cc) = (o.len(), cc.len());
                eprintln!(
                    "write/{kind}/{name}: ours {o} bytes, C {cc} bytes ({:.4})",
                    o as f64 / cc as f64
                );
            }
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_file(&cpath);
        }
        group.finish();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
