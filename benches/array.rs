//! Reading array values: `Array::read_into` a buffer reused across calls, by thread
//! count, against C-Blosc2 2.15.3's `b2nd_get_slice_cbuffer` (blosc2-src, its default
//! of one thread) in the same run, on arrays C-Blosc2 wrote (`b2nd_from_cbuffer`) with
//! python-blosc2's default chunk and block shapes for their size: zstd + shuffle and
//! lz4 + shuffle of a float64 ramp with noise, zstd + bitshuffle of an int32 counter.
//!
//! Cases: the full array, one plane (`[i]`), a column across all chunks (`[:, j, k]`),
//! a 10x10x10 box, and a strided slice (`[::3, ::3, ::3]`, ours only: C has no step).
//! Both decode only the blocks a case needs.
//!
//! Run with `cargo bench --bench array --all-features`; `B2ND_BENCH_SHAPE=64,256,256`
//! (the default, 32 MiB of float64) sets the shape, chunks (shape[0]/2, ...) and blocks
//! (1, shape[1]/4, shape[2]) as python-blosc2 picks them for such arrays.

use std::hint::black_box;
use std::time::Duration;

use b2nd_meta::array::{Array, Selection};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

#[path = "../tests/c_ffi/b2nd.rs"]
mod c_b2nd;
use c_b2nd::{CArray, Geometry};

/// A float64 ramp with noise, or an int32 counter.
fn data(n: usize, float: bool) -> Vec<u8> {
    let mut x = 12345u32;
    (0..n)
        .flat_map(|i| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            if float {
                (i as f64 * 0.25 + f64::from(x >> 16) / 65536.0 * 1e-3)
                    .to_le_bytes()
                    .to_vec()
            } else {
                (i as i32).to_le_bytes().to_vec()
            }
        })
        .collect()
}

/// The box `[start, stop)` C reads for a case.
type CBox = (Vec<i64>, Vec<i64>);

fn bench(cr: &mut Criterion) {
    let shape: Vec<i64> = std::env::var("B2ND_BENCH_SHAPE")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![64, 256, 256]);
    let geometry = Geometry {
        chunks: vec![(shape[0] / 2) as i32, shape[1] as i32, shape[2] as i32],
        blocks: vec![1, (shape[1] / 4) as i32, shape[2] as i32],
        shape: shape.clone(),
    };
    let n = shape.iter().product::<i64>() as usize;
    let (a, b, cc) = (shape[0], shape[1], shape[2]);
    let dir = std::env::temp_dir().join(format!("b2nd-meta-bench-array-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let threads_max = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = cr.benchmark_group("array");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for (name, dtype, codec, filter) in [
        ("zstd_shuffle_f8", "<f8", 5u8, 1u8),
        ("lz4_shuffle_f8", "<f8", 1, 1),
        ("zstd_bitshuffle_i4", "<i4", 5, 2),
    ] {
        let bytes = data(n, dtype == "<f8");
        let path = dir.join(format!("{name}.b2nd"));
        c_b2nd::write(&path, &geometry, dtype, codec, filter, &bytes);
        let carray = CArray::open(&path);
        let itemsize = bytes.len() / n;
        // (case, our selection, C's box or none)
        let cases: Vec<(&str, String, Option<CBox>)> = vec![
            ("full", "...".into(), Some((vec![0, 0, 0], shape.clone()))),
            (
                "plane",
                format!("{}", a / 2),
                Some((vec![a / 2, 0, 0], vec![a / 2 + 1, b, cc])),
            ),
            (
                "column",
                format!(":, {}, {}", b / 2, cc / 2),
                Some((vec![0, b / 2, cc / 2], vec![a, b / 2 + 1, cc / 2 + 1])),
            ),
            (
                "box10",
                format!("{0}:{1}, {0}:{1}, {0}:{1}", a / 3, a / 3 + 10),
                Some((vec![a / 3; 3], vec![a / 3 + 10; 3])),
            ),
            ("strided", "::3, ::3, ::3".into(), None),
        ];
        for (case, spec, cbox) in cases {
            let sel: Selection = spec.parse().unwrap();
            let ours = Array::open(&path).unwrap();
            let len: u64 = ours.shape_of(&sel).unwrap().iter().product();
            let mut out = vec![0u8; len as usize * itemsize];
            group.throughput(Throughput::Bytes(out.len() as u64));
            let id = format!("{name}/{case}");
            if let Some((start, stop)) = &cbox {
                let mut theirs = vec![0u8; out.len()];
                carray.read(start, stop, &mut theirs);
                ours.read_into(&sel, &mut out).unwrap();
                assert!(out == theirs, "{id}: ours and C's differ");
                group.bench_function(BenchmarkId::new("c_t1", &id), |bch| {
                    bch.iter(|| carray.read(start, stop, black_box(&mut theirs)))
                });
            }
            let mut counts = vec![1, 2, threads_max];
            counts.dedup();
            for t in counts {
                let array = Array::open(&path).unwrap().with_threads(t);
                group.bench_function(BenchmarkId::new(format!("ours_t{t}"), &id), |bch| {
                    bch.iter(|| array.read_into(black_box(&sel), &mut out).unwrap())
                });
            }
        }
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
