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
//! counter (`write_cases`, as `benches/write.rs`), python-blosc2's chunks and blocks for the size
//! on this machine, on 1 thread and on 2.
//!
//! Run with `cargo bench --all-features --bench write_table`, or with words that the
//! printed case names must contain (`-- t1 zstd1`). `ROUNDS=n` (default 11) sets the
//! rounds per case, `B2ND_BENCH_MB=n` (default 64) the input's size.

#[allow(dead_code)] // The decoder benches' helpers.
mod c335;
mod table;
mod write_cases;

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2nd_meta::io::Steps;
use table::{median, wanted};
use write_cases::{Input, CASES, DATA};

/// One round's times in seconds: C's, ours, and ours without syncs and rename.
struct Round {
    c: f64,
    ours: f64,
    ours_unsynced: f64,
}

fn main() {
    let Some(args) = table::words() else {
        return;
    };
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
    println!(
        "| case | data | ours/C time | without syncs, rename | C time | ours/C size | rounds |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (kind, dtype, itemsize, float) in DATA {
        let kind = kind.replace('_', "");
        let input = Input::new(mb, dtype, itemsize, float);
        let bytes = &input.bytes;
        let array = input.c_array();
        for threads in [1usize, 2] {
            for (name, codec, clevel, filter) in CASES {
                let full = format!("t{threads}/{name}/{kind}");
                if !wanted(&args, &full) {
                    continue;
                }
                let ours = input.ours(codec, clevel, filter, threads);
                let cparams = input.c_params(codec, clevel, filter, threads);
                let (path, cpath) = (dir.join("ours.b2nd"), dir.join("c.b2nd"));
                let run_c = || {
                    let start = Instant::now();
                    c335.write_array(&cpath, &array, cparams, black_box(bytes));
                    start.elapsed().as_secs_f64()
                };
                let run_ours = || {
                    let steps = Steps::timed();
                    let start = Instant::now();
                    ours.clone()
                        .steps(steps.clone())
                        .write(&path, black_box(bytes))
                        .unwrap();
                    let took = start.elapsed().as_secs_f64();
                    (took, took - steps.waited().as_secs_f64())
                };
                // The untimed first write of each makes the files exist, pages mapped.
                let timed: Vec<Round> =
                    table::alternate(rounds, Duration::from_secs(20), run_c, run_ours)
                        .into_iter()
                        .map(|(c, (ours, ours_unsynced))| Round {
                            c,
                            ours,
                            ours_unsynced,
                        })
                        .collect();
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
