//! The chunk decoder against C-Blosc2 3.3.5 (python-blosc2 4.14.1's `libblosc2.so`,
//! loaded at run time: see `c335/mod.rs`) and C-Blosc2 2.15.3 (blosc2-src), both one
//! thread, in the same run: chunks C-Blosc2 3.3.5 compressed at clevel 5 with BloscLZ,
//! LZ4, LZ4HC and ZSTD x SHUFFLE / BITSHUFFLE, of a float64 ramp with noise and an int32
//! counter, 64 KiB, 1 MiB and 4 MiB. Every decoder's output is checked before timing.
//!
//! `ours` is `chunk::decode` (a new vector per call), `ours_into` is
//! `chunk::decode_into` a buffer reused across calls, as `c335`
//! (`blosc2_decompress_ctx`, one thread) and `c2153` (`blosc2_decompress`) do.
//!
//! What criterion measures is this thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not
//! wall time: on the shared machine the time a decoder waits for a core is not counted
//! (every decoder here runs on the calling thread; on a quiet machine the two agree).
//!
//! Run with `cargo bench --bench chunk --all-features`, then
//! `python3 benches/chunk_report.py` for the table with the ratios
//! (`B2ND_BENCH_INTERLEAVED=1` for the fastest of interleaved rounds instead)
//! (`B2ND_BENCH_SIZES=1048576` restricts the sizes; criterion's filter argument the
//! cases). The `lz4_stage` group times the LZ4/LZ4HC stage alone: the same chunks with
//! their filter removed, so that no decoder undoes a shuffle.

mod c335;

use std::ffi::c_void;
use std::hint::black_box;
use std::time::Duration;

use blosc2_src as c;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, BenchmarkGroup, BenchmarkId, Criterion, Throughput};

/// This thread's CPU time, in nanoseconds as criterion's wall time counts them.
struct ThreadTime;

/// This thread's CPU time so far, in nanoseconds.
fn thread_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

impl Measurement for ThreadTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, ns: &u64) -> f64 {
        *ns as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, printed as wall time's are.
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

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

/// C's parameters: `codec` at clevel 5, one filter in the last slot, one thread.
fn cparams(codec: u8, typesize: i32, filter: u8) -> c335::CParams {
    // splitmode 4: BLOSC_FORWARD_COMPAT_SPLIT, C's default.
    c335::CParams::one_thread(codec, 5, typesize, 0, 4, [0, 0, 0, 0, 0, filter], [0; 6])
}

/// C-Blosc2 2.15.3's `blosc2_decompress` of `chunk` into `dest`: its return value.
fn c2153_decompress(chunk: &[u8], dest: &mut [u8]) -> i32 {
    unsafe {
        c::blosc2_decompress(
            chunk.as_ptr() as *const c_void,
            chunk.len() as i32,
            dest.as_mut_ptr() as *mut c_void,
            dest.len() as i32,
        )
    }
}

/// Every decoder of the bench on `chunk` (whose bytes are `expected`), as cases
/// `<decoder>/<id>`; C's and ours into buffers reused across calls, `ours` into a new
/// vector per call.
fn bench_all(
    group: &mut BenchmarkGroup<'_, ThreadTime>,
    c335: &c335::Blosc2,
    id: &str,
    chunk: &[u8],
    expected: &[u8],
) {
    let mut dest = vec![0u8; expected.len()];
    assert_eq!(c335.decompress(chunk, &mut dest) as usize, expected.len());
    assert_eq!(dest, expected, "C-Blosc2 {} on {id}", c335.version);
    dest.fill(0);
    assert_eq!(c2153_decompress(chunk, &mut dest) as usize, expected.len());
    assert_eq!(dest, expected, "C-Blosc2 2.15.3 on {id}");
    assert_eq!(
        b2nd_meta::chunk::decode(chunk, &b2nd_meta::chunk::DecodeBudget::default()).unwrap(),
        expected,
        "ours on {id}"
    );
    group.throughput(Throughput::Bytes(expected.len() as u64));
    group.bench_with_input(BenchmarkId::new("c335", id), chunk, |b, chunk| {
        b.iter(|| c335.decompress(black_box(chunk), &mut dest))
    });
    group.bench_with_input(BenchmarkId::new("c2153", id), chunk, |b, chunk| {
        b.iter(|| c2153_decompress(black_box(chunk), &mut dest))
    });
    group.bench_with_input(BenchmarkId::new("ours_into", id), chunk, |b, chunk| {
        b.iter(|| b2nd_meta::chunk::decode_into(black_box(chunk), &mut dest).unwrap())
    });
    group.bench_with_input(BenchmarkId::new("ours", id), chunk, |b, chunk| {
        // One budget for every call, without a limit in all (a default one would run out).
        let budget = b2nd_meta::chunk::DecodeBudget::unlimited();
        b.iter(|| b2nd_meta::chunk::decode(black_box(chunk), &budget).unwrap())
    });
}

fn sizes() -> Vec<usize> {
    std::env::var("B2ND_BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![64 << 10, 1 << 20, 4 << 20])
}

fn group<'a>(cr: &'a mut Criterion<ThreadTime>, name: &str) -> BenchmarkGroup<'a, ThreadTime> {
    let mut group = cr.benchmark_group(name);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(1));
    group
}

fn bench(cr: &mut Criterion<ThreadTime>) {
    unsafe { c::blosc2_init() };
    let c335 = c335::Blosc2::load();
    let sizes = sizes();
    let mut group = group(cr, "chunk");
    for &size in &sizes {
        for (data_name, data, typesize) in [
            ("f64ramp", float_ramp(size), 8),
            ("i32counter", counter(size), 4),
        ] {
            for (codec_name, codec) in CODECS {
                for (filter_name, filter) in FILTERS {
                    let chunk = c335.compress(cparams(codec, typesize, filter), &data);
                    let id = format!("{codec_name}/{filter_name}/{data_name}/{size}");
                    bench_all(&mut group, &c335, &id, &chunk, &data);
                }
            }
        }
    }
    group.finish();
    codec_stage(cr, &c335, &sizes);
}

/// The codec stage alone, for LZ4 and LZ4HC: the same chunks with their filter removed
/// from the header (byte 21, the last filter slot), so that no decoder undoes anything
/// (the output is the shuffled bytes).
fn codec_stage(cr: &mut Criterion<ThreadTime>, c335: &c335::Blosc2, sizes: &[usize]) {
    let mut group = group(cr, "lz4_stage");
    for &size in sizes {
        for (data_name, data, typesize) in [
            ("f64ramp", float_ramp(size), 8),
            ("i32counter", counter(size), 4),
        ] {
            for (codec_name, codec) in [("lz4", 1), ("lz4hc", 2)] {
                for (filter_name, filter) in FILTERS {
                    let mut chunk = c335.compress(cparams(codec, typesize, filter), &data);
                    chunk[21] = 0;
                    let mut shuffled = vec![0u8; size];
                    assert_eq!(c335.decompress(&chunk, &mut shuffled) as usize, size);
                    let id = format!("{codec_name}/{filter_name}/{data_name}/{size}");
                    bench_all(&mut group, c335, &id, &chunk, &shuffled);
                }
            }
        }
    }
    group.finish();
}

/// `B2ND_BENCH_INTERLEAVED=1`: no criterion; per case, rounds of every decoder in turn,
/// each the fastest of a batch, and the fastest of the rounds in CPU time (steadier than
/// criterion's one decoder after the other on a machine whose load changes by the
/// minute). Prints ours/C 3.3.5 for `decode_into` and `decode`, and `decode` against C
/// decompressing into a new `malloc`ed buffer (what `decode` does: the fair pair).
fn interleaved() {
    let c335 = c335::Blosc2::load();
    // Criterion's filter argument, as a substring of the case's name.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    println!(
        "| case | C 3.3.5 µs | `decode_into` | `decode` | into/C | decode/C | C new buffer µs | decode/C new |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for size in sizes() {
        for (data_name, data, typesize) in [
            ("f64ramp", float_ramp(size), 8),
            ("i32counter", counter(size), 4),
        ] {
            for (codec_name, codec) in CODECS {
                for (filter_name, filter_id) in FILTERS {
                    let id = format!("{codec_name}/{filter_name}/{data_name}/{size}");
                    if filter.as_ref().is_some_and(|f| !id.contains(f.as_str())) {
                        continue;
                    }
                    let chunk = c335.compress(cparams(codec, typesize, filter_id), &data);
                    let mut dest = vec![0u8; size];
                    let batch = (4 << 20) / size + 2;
                    let fastest = |f: &mut dyn FnMut()| {
                        (0..batch)
                            .map(|_| {
                                let t = thread_ns();
                                f();
                                thread_ns() - t
                            })
                            .min()
                            .unwrap_or(0)
                    };
                    let unlimited = b2nd_meta::chunk::DecodeBudget::unlimited();
                    let mut best = [u64::MAX; 4];
                    for _ in 0..15 {
                        let t = [
                            fastest(&mut || _ = c335.decompress(&chunk, &mut dest)),
                            fastest(&mut || {
                                b2nd_meta::chunk::decode_into(&chunk, &mut dest).unwrap();
                            }),
                            fastest(&mut || {
                                _ = black_box(b2nd_meta::chunk::decode(&chunk, &unlimited))
                            }),
                            fastest(&mut || _ = black_box(c335.decompress_new(&chunk, size))),
                        ];
                        for (b, t) in best.iter_mut().zip(t) {
                            *b = (*b).min(t);
                        }
                    }
                    let us = best.map(|ns| ns as f64 / 1e3);
                    println!(
                        "| {id} | {:.1} | {:.1} | {:.1} | **{:.2}x** | {:.2}x | {:.1} | {:.2}x |",
                        us[0],
                        us[1],
                        us[2],
                        us[1] / us[0],
                        us[2] / us[0],
                        us[3],
                        us[2] / us[3]
                    );
                }
            }
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadTime);
    targets = bench
}

fn main() {
    if std::env::var_os("B2ND_BENCH_INTERLEAVED").is_some() {
        return interleaved();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
