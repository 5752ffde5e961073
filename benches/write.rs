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
mod write_cases;

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2nd_meta::io::Steps;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use write_cases::{Input, CASES, DATA};

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
    for (kind, dtype, itemsize, float) in DATA {
        let input = Input::new(mb, dtype, itemsize, float);
        let bytes = &input.bytes;
        let array = input.c_array();
        let mut group = c.benchmark_group(format!("write/{kind}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
        for (name, codec, clevel, filter) in CASES {
            let ours = input.ours(codec, clevel, filter, threads);
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
                        ours.write(&path, black_box(bytes)).unwrap();
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
            let cparams = input.c_params(codec, clevel, filter, threads);
            group.bench_function(BenchmarkId::new("c335", name), |b| {
                b.iter(|| c335.write_array(&cpath, &array, cparams, black_box(bytes)))
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
