//! The chunk decoder against C-Blosc2 2.15.3's `blosc2_decompress` (blosc2-src, one
//! thread), in the same run: chunks C compressed at clevel 5 with BloscLZ, LZ4, LZ4HC
//! and ZSTD x SHUFFLE / BITSHUFFLE, of a float64 ramp with noise and an int32 counter,
//! 64 KiB, 1 MiB and 4 MiB.
//!
//! `ours` is `chunk::decode` (a new vector per call), `ours_into` is
//! `chunk::decode_into` a buffer reused across calls, as `c` (`blosc2_decompress`) is.
//!
//! Run with `cargo bench --bench chunk --all-features` (criterion prints each case's
//! throughput; `B2ND_BENCH_SIZES=1048576` restricts the sizes). The `lz4_stage` group
//! times the LZ4/LZ4HC stage alone: the same chunks with their filter removed, so that
//! neither side undoes a shuffle.

use std::ffi::c_void;
use std::hint::black_box;
use std::time::Duration;

use blosc2_src as c;
use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};

const CODECS: [(&str, u8); 4] = [("blosclz", 0), ("lz4", 1), ("lz4hc", 2), ("zstd", 5)];
const FILTERS: [(&str, u8); 2] = [("shuffle", 1), ("bitshuffle", 2)];

/// A float64 ramp with noise.
fn float_ramp(len: usize) -> Vec<u8> {
    let mut x = 12345u32;
    (0..len / 8)
        .flat_map(|i| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let noise = f64::from(x >> 16) / 65536.0 * 1e-3;
            (i as f64 * 0.25 + noise).to_le_bytes()
        })
        .collect()
}

/// An int32 counter.
fn counter(len: usize) -> Vec<u8> {
    (0..len as i32 / 4).flat_map(i32::to_le_bytes).collect()
}

fn c_compress(src: &[u8], codec: u8, typesize: i32, filter: u8) -> Vec<u8> {
    let cparams = c::blosc2_cparams {
        compcode: codec,
        compcode_meta: 0,
        clevel: 5,
        use_dict: 0,
        typesize,
        nthreads: 1,
        blocksize: 0,
        splitmode: 4, // BLOSC_FORWARD_COMPAT_SPLIT, C's default
        schunk: std::ptr::null_mut(),
        filters: [0, 0, 0, 0, 0, filter],
        filters_meta: [0; 6],
        prefilter: None,
        preparams: std::ptr::null_mut(),
        tuner_params: std::ptr::null_mut(),
        tuner_id: 0,
        instr_codec: false,
        codec_params: std::ptr::null_mut(),
        filter_params: [std::ptr::null_mut(); 6],
    };
    let mut dest = vec![0u8; src.len() + 64];
    unsafe {
        let ctx = c::blosc2_create_cctx(cparams);
        let n = c::blosc2_compress_ctx(
            ctx,
            src.as_ptr() as *const c_void,
            src.len() as i32,
            dest.as_mut_ptr() as *mut c_void,
            dest.len() as i32,
        );
        c::blosc2_free_ctx(ctx);
        assert!(n > 0);
        dest.truncate(n as usize);
    }
    dest
}

/// C's `blosc2_decompress` of `chunk` into `dest`, as case `c/<id>`.
fn bench_c(group: &mut BenchmarkGroup<'_, WallTime>, id: &str, chunk: &[u8], dest: &mut [u8]) {
    group.bench_with_input(BenchmarkId::new("c", id), chunk, |b, chunk| {
        b.iter(|| unsafe {
            c::blosc2_decompress(
                black_box(chunk).as_ptr() as *const c_void,
                chunk.len() as i32,
                dest.as_mut_ptr() as *mut c_void,
                dest.len() as i32,
            )
        })
    });
}

fn bench(cr: &mut Criterion) {
    unsafe { c::blosc2_init() };
    let sizes: Vec<usize> = std::env::var("B2ND_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![64 << 10, 1 << 20, 4 << 20]);
    let mut group = cr.benchmark_group("chunk");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for &size in &sizes {
        for (data_name, data, typesize) in [
            ("f64ramp", float_ramp(size), 8),
            ("i32counter", counter(size), 4),
        ] {
            for (codec_name, codec) in CODECS {
                for (filter_name, filter) in FILTERS {
                    let chunk = c_compress(&data, codec, typesize, filter);
                    assert_eq!(b2nd_meta::chunk::decode(&chunk).unwrap(), data);
                    let id = format!("{codec_name}/{filter_name}/{data_name}/{size}");
                    group.throughput(Throughput::Bytes(size as u64));
                    group.bench_with_input(BenchmarkId::new("ours", &id), &chunk, |b, chunk| {
                        b.iter(|| b2nd_meta::chunk::decode(black_box(chunk)).unwrap())
                    });
                    // Into a buffer reused across calls, as C decodes below.
                    let mut into = vec![0u8; size];
                    group.bench_with_input(
                        BenchmarkId::new("ours_into", &id),
                        &chunk,
                        |b, chunk| {
                            b.iter(|| {
                                b2nd_meta::chunk::decode_into(black_box(chunk), &mut into).unwrap()
                            })
                        },
                    );
                    bench_c(&mut group, &id, &chunk, &mut vec![0u8; size]);
                }
            }
        }
    }
    group.finish();
    codec_stage(cr, &sizes);
}

/// The codec stage alone, for LZ4 and LZ4HC: the same chunks with their filter removed
/// from the header (byte 21, the last filter slot), so that ours and C decompress the
/// streams and undo nothing (the output is the shuffled bytes).
fn codec_stage(cr: &mut Criterion, sizes: &[usize]) {
    let mut group = cr.benchmark_group("lz4_stage");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    for &size in sizes {
        for (data_name, data, typesize) in [
            ("f64ramp", float_ramp(size), 8),
            ("i32counter", counter(size), 4),
        ] {
            for (codec_name, codec) in [("lz4", 1), ("lz4hc", 2)] {
                for (filter_name, filter) in FILTERS {
                    let mut chunk = c_compress(&data, codec, typesize, filter);
                    chunk[21] = 0;
                    let mut dest = vec![0u8; size];
                    let rc = unsafe {
                        c::blosc2_decompress(
                            chunk.as_ptr() as *const c_void,
                            chunk.len() as i32,
                            dest.as_mut_ptr() as *mut c_void,
                            dest.len() as i32,
                        )
                    };
                    assert_eq!(rc as usize, size);
                    assert_eq!(b2nd_meta::chunk::decode(&chunk).unwrap(), dest);
                    let id = format!("{codec_name}/{filter_name}/{data_name}/{size}");
                    group.throughput(Throughput::Bytes(size as u64));
                    group.bench_with_input(BenchmarkId::new("ours", &id), &chunk, |b, chunk| {
                        b.iter(|| b2nd_meta::chunk::decode(black_box(chunk)).unwrap())
                    });
                    bench_c(&mut group, &id, &chunk, &mut dest);
                }
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
