//! Issue 48's writer goal: `NewArray::write` of an in-memory buffer into a file against
//! C-Blosc2 3.3.5's `b2nd_from_cbuffer` (python-blosc2 4.14.1's `libblosc2.so`, what
//! `blosc2.asarray` runs), interleaved in one process: rounds of one write of C and one
//! of ours taking turns (which goes first alternates), so that both see the same
//! machine, where `benches/write.rs` (criterion) runs all of ours, then all of C's.
//!
//! For each case: the median over rounds of ours / C, and of ours without our syncs and
//! the staging file's rename / C (what makes our write durable; C's call neither syncs
//! nor stages, so that part is reported apart), C's median time and both files' sizes.
//! Cases: issue 33's five codecs and filters on a float64 ramp with noise and an int32
//! counter (`benches/write.rs`'s data), python-blosc2's chunks and blocks for the size
//! on this machine, on 1 thread and on 2.
//!
//! Run with `cargo bench --all-features --bench write_table`, or with words that the
//! printed case names must contain (`-- t1 zstd1`). `ROUNDS=n` (default 11) sets the
//! rounds per case, `B2ND_BENCH_MB=n` (default 64) the input's size.

#[allow(dead_code)] // The decoder benches' helpers.
mod c335;

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2nd_meta::array::write::{chunks_and_blocks, Caches, NewArray};
use b2nd_meta::blosc::{Codec, Filter};
use b2nd_meta::io::Steps;

/// A float64 ramp with noise, or an int32 counter, of `bytes` bytes (as benches/write.rs).
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

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One round's times in seconds: C's, ours, and ours without syncs and rename.
struct Round {
    c: f64,
    ours: f64,
    ours_unsynced: f64,
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (rounds, mb) = (env("ROUNDS", 11).max(1), env("B2ND_BENCH_MB", 64));
    let c335 = c335::Blosc2::load();
    let dir = std::env::temp_dir().join(format!("b2nd-meta-write-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("zstd5_shuffle", Codec::Zstd, 5, Filter::Shuffle),
        ("zstd1_shuffle", Codec::Zstd, 1, Filter::Shuffle),
        ("lz4_5_shuffle", Codec::Lz4, 5, Filter::Shuffle),
        ("zstd1_bitshuffle", Codec::Zstd, 1, Filter::BitShuffle),
        ("blosclz5_shuffle", Codec::BloscLz, 5, Filter::Shuffle),
    ];
    println!(
        "| case | data | ours/C time | without syncs, rename | C time | ours/C size | rounds |"
    );
    println!("|---|---|---|---|---|---|---|");
    let caches = Caches::of_this_machine();
    for (kind, dtype, itemsize) in [("f64ramp", "<f8", 8u64), ("i32counter", "<i4", 4)] {
        let bytes = data(mb << 20, kind == "f64ramp");
        let shape = [bytes.len() as u64 / itemsize];
        let (chunks, blocks) = chunks_and_blocks(&shape, itemsize, None, None, &caches).unwrap();
        let array = c335::Array {
            shape: vec![shape[0] as i64],
            chunks: chunks.iter().map(|&d| d as i32).collect(),
            blocks: blocks.iter().map(|&d| d as i32).collect(),
            dtype,
        };
        for threads in [1usize, 2] {
            for (name, codec, clevel, filter) in cases {
                let full = format!("t{threads}/{name}/{kind}");
                if !args.is_empty() && !args.iter().any(|a| full.contains(a.as_str())) {
                    continue;
                }
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
                let (path, cpath) = (dir.join("ours.b2nd"), dir.join("c.b2nd"));
                let run_c = || {
                    let start = Instant::now();
                    c335.write_array(&cpath, &array, cparams, black_box(&bytes));
                    start.elapsed().as_secs_f64()
                };
                let run_ours = || {
                    let steps = Steps::timed();
                    let start = Instant::now();
                    ours.clone()
                        .steps(steps.clone())
                        .write(&path, black_box(&bytes))
                        .unwrap();
                    let took = start.elapsed().as_secs_f64();
                    (took, took - steps.waited().as_secs_f64())
                };
                // One untimed write of each first: files exist, pages are mapped.
                run_c();
                run_ours();
                let started = Instant::now();
                let mut timed = Vec::new();
                for round in 0..rounds {
                    let (c, (ours, ours_unsynced)) = if round % 2 == 0 {
                        let c = run_c();
                        (c, run_ours())
                    } else {
                        let o = run_ours();
                        (run_c(), o)
                    };
                    timed.push(Round {
                        c,
                        ours,
                        ours_unsynced,
                    });
                    if round >= 4 && started.elapsed() > Duration::from_secs(20) {
                        break;
                    }
                }
                let n = timed.len();
                let ratio = median(&mut timed.iter().map(|r| r.ours / r.c).collect::<Vec<_>>());
                let unsynced = median(
                    &mut timed
                        .iter()
                        .map(|r| r.ours_unsynced / r.c)
                        .collect::<Vec<_>>(),
                );
                let c_ms = median(&mut timed.iter().map(|r| r.c * 1e3).collect::<Vec<_>>());
                let size = |p: &std::path::Path| std::fs::metadata(p).map_or(0, |m| m.len());
                let (o, c) = (size(&path), size(&cpath));
                println!(
                    "| t{threads}/{name} | {kind} | {ratio:.2}x | {unsynced:.2}x | {c_ms:.1} ms | {:.4} | {n} |",
                    o as f64 / c as f64
                );
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::remove_file(&cpath);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
