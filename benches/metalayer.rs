//! Speed against C-Blosc2 (through blosc2-src, in the same run) and rmp-serde.
//!
//! Run with `cargo bench --features repo-tests --bench metalayer`, then `python3 benches/report.py` for the
//! table of ratios in BENCHMARKS.md.

#[path = "../tests/c_ffi/mod.rs"]
mod c_ffi;
mod common;

use common::{checked_bytes, meta};

use std::hint::black_box;
use std::time::Duration;

use b2nd_meta::{Meta, MetaB2ndV1, MetaRef};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde::{Deserialize, Serialize};

/// The same fields, with serde's derive, for rmp-serde (which writes compact widths).
#[derive(Serialize, Deserialize)]
struct Derived {
    version: u8,
    ndim: u8,
    shape: Vec<i64>,
    chunkshape: Vec<i32>,
    blockshape: Vec<i32>,
    dtype_format: u8,
    dtype: String,
}

const NDIMS: [usize; 5] = [0, 1, 3, 8, 16];

fn derived(m: &MetaB2ndV1) -> Derived {
    Derived {
        version: 0,
        ndim: m.ndim() as u8,
        shape: m.shape.to_vec(),
        chunkshape: m.chunkshape.to_vec(),
        blockshape: m.blockshape.to_vec(),
        dtype_format: m.dtype_format,
        dtype: m.dtype.to_string(),
    }
}

/// The value as the operation returned it, seen by reference and dropped inside the
/// timing (as C's output arrays are seen and its dtype freed). Returning it to criterion
/// or unwrapping it would add a move of the value (320 bytes for a `Meta`) that C's
/// caller-provided arrays never make. Every operation is checked to succeed once, before
/// it is timed.
#[inline(always)]
fn seen<T>(value: T) {
    black_box(&value);
}

fn decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    for ndim in NDIMS {
        let m = meta(ndim);
        let bytes = checked_bytes(&m);
        if ndim <= c_ffi::C_B2ND_MAX_DIM {
            group.bench_with_input(BenchmarkId::new("c", ndim), &bytes, |b, bytes| {
                b.iter(|| c_ffi::c_decode_timed(bytes))
            });
        }
        group.bench_with_input(BenchmarkId::new("owned", ndim), &bytes, |b, bytes| {
            b.iter(|| seen(b2nd_meta::from_slice::<MetaB2ndV1>(black_box(bytes))))
        });
        group.bench_with_input(BenchmarkId::new("meta", ndim), &bytes, |b, bytes| {
            b.iter(|| seen(b2nd_meta::from_slice::<Meta>(black_box(bytes))))
        });
        group.bench_with_input(
            BenchmarkId::new("owned_via_view", ndim),
            &bytes,
            |b, bytes| b.iter(|| seen(MetaRef::parse(black_box(bytes)).map(|view| view.to_meta()))),
        );
        group.bench_with_input(BenchmarkId::new("view", ndim), &bytes, |b, bytes| {
            b.iter(|| seen(MetaRef::parse(black_box(bytes))))
        });
        let compact = rmp_serde::to_vec(&derived(&m)).unwrap();
        rmp_serde::from_slice::<Derived>(&compact).unwrap();
        group.bench_with_input(BenchmarkId::new("rmp_serde", ndim), &compact, |b, bytes| {
            b.iter(|| seen(rmp_serde::from_slice::<Derived>(black_box(bytes))))
        });
    }
    group.finish();
}

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode");
    for ndim in NDIMS {
        let m = meta(ndim);
        let dtype = std::ffi::CString::new(m.dtype.as_str()).unwrap();
        // C's serialize allocates its output, which the caller frees.
        group.bench_with_input(BenchmarkId::new("c", ndim), &m, |b, m| {
            b.iter(|| c_ffi::c_encode_timed(&m.shape, &m.chunkshape, &m.blockshape, &dtype))
        });
        let mut buf = vec![0u8; m.encoded_len()];
        assert_eq!(m.encode_into(&mut buf).unwrap(), buf.len());
        assert_eq!(b2nd_meta::to_vec(&m).unwrap(), buf);
        group.bench_with_input(BenchmarkId::new("encode_into", ndim), &m, |b, m| {
            b.iter(|| seen(black_box(m).encode_into(&mut buf)))
        });
        group.bench_with_input(BenchmarkId::new("to_slice", ndim), &m, |b, m| {
            b.iter(|| seen(b2nd_meta::to_slice(black_box(m), &mut buf)))
        });
        group.bench_with_input(BenchmarkId::new("to_vec", ndim), &m, |b, m| {
            b.iter(|| seen(b2nd_meta::to_vec(black_box(m))))
        });
        let d = derived(&m);
        group.bench_with_input(BenchmarkId::new("rmp_serde", ndim), &d, |b, d| {
            b.iter(|| seen(rmp_serde::to_vec(black_box(d))))
        });
    }
    group.finish();
}

/// The metalayers of a 1 KB frame and of a 1 GB one (same header, frame_len and file
/// length set to 1 GiB; a sparse file, so it takes no disk).
fn frame(c: &mut Criterion) {
    let src = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/ndim3_u2.b2nd"
    );
    let small = std::env::temp_dir().join(format!("b2nd-bench-1k-{}.b2nd", std::process::id()));
    let large = std::env::temp_dir().join(format!("b2nd-bench-1g-{}.b2nd", std::process::id()));
    std::fs::copy(src, &small).unwrap();
    let mut bytes = std::fs::read(src).unwrap();
    const GIB: u64 = 1 << 30;
    bytes[16..24].copy_from_slice(&GIB.to_be_bytes());
    std::fs::write(&large, &bytes).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&large)
        .unwrap()
        .set_len(GIB)
        .unwrap();
    assert_eq!(
        b2nd_meta::frame::open(&large)
            .unwrap()
            .header
            .info
            .frame_len,
        GIB
    );

    let mut group = c.benchmark_group("frame");
    for (name, path) in [("1KB", &small), ("1GB", &large)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let f = b2nd_meta::frame::open(black_box(path)).unwrap();
                f.header.array_meta().unwrap()
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_file(&small);
    let _ = std::fs::remove_file(&large);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = decode, encode, frame
}
criterion_main!(benches);
