//! Each operation against C-Blosc2, interleaved: short bursts of C and of ours take
//! turns, so that both see the same machine (on a shared machine the speed drifts by
//! tens of percent within seconds, which makes ratios of benchmarks run one after the
//! other, as criterion runs them, unreliable).
//!
//! Run with `cargo bench --features repo-tests --bench ratio`; it prints the first table of
//! BENCHMARKS.md: for each operation, the median over rounds of (our burst's time / C's burst's
//! time), with C's time per call beside it.

#[path = "../tests/c_ffi/mod.rs"]
mod c_ffi;
mod common;

use common::{checked_bytes, meta};

use std::hint::black_box;
use std::time::{Duration, Instant};

use b2nd_meta::{Meta, MetaB2ndV1, MetaRef};

const NDIMS: [usize; 4] = [0, 1, 3, 8];
/// Calls per burst, and rounds (pairs of bursts) per operation.
const BURST: u32 = 2_000;
const ROUNDS: usize = 401;

/// The time of `BURST` calls.
#[inline(always)]
fn burst<T>(mut op: impl FnMut() -> T) -> Duration {
    let start = Instant::now();
    for _ in 0..BURST {
        // Seen by reference and dropped, as C's outputs are seen and freed.
        let value = op();
        black_box(&value);
    }
    start.elapsed()
}

/// Median over rounds of ours / C, and C's median time per call in ns. Out of line, one
/// copy per pair of operations, so that how much `main` inlines cannot change the code
/// that is timed (it did: adding a column moved another by 30%).
#[inline(never)]
fn compare<A, B>(mut c: impl FnMut() -> A, mut ours: impl FnMut() -> B) -> (f64, f64) {
    // Warm up both.
    burst(&mut c);
    burst(&mut ours);
    let mut ratios = Vec::with_capacity(ROUNDS);
    let mut c_times = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        // Alternate which goes first, so that neither always follows the other.
        let (tc, to) = if round % 2 == 0 {
            let tc = burst(&mut c);
            (tc, burst(&mut ours))
        } else {
            let to = burst(&mut ours);
            (burst(&mut c), to)
        };
        ratios.push(to.as_secs_f64() / tc.as_secs_f64());
        c_times.push(tc.as_secs_f64() * 1e9 / f64::from(BURST));
    }
    (median(&mut ratios), median(&mut c_times))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // `cargo test --benches` and filters pass arguments; this bench takes none.
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    println!(
        "| ndim | C decode | `from_slice::<Meta>` | `from_slice::<MetaB2ndV1>` | `Meta::decode_from` | `MetaRef::parse` | C encode | `encode_into` | `encode_to_vec` | `to_vec` |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for ndim in NDIMS {
        let m = meta(ndim);
        let bytes = checked_bytes(&m);
        let dtype = std::ffi::CString::new(m.dtype.as_str()).unwrap();
        let mut buf = vec![0u8; m.encoded_len()];

        let c_decode = || c_ffi::c_decode_timed(black_box(&bytes));
        let (meta, c_dec) = compare(c_decode, || {
            b2nd_meta::from_slice::<Meta>(black_box(&bytes))
        });
        let (owned, _) = compare(c_decode, || {
            b2nd_meta::from_slice::<MetaB2ndV1>(black_box(&bytes))
        });
        let (view, _) = compare(c_decode, || MetaRef::parse(black_box(&bytes)));
        // Into one value reused across calls, as a decoding loop would.
        let mut reused: Meta = b2nd_meta::from_slice(&bytes).unwrap();
        let (into_meta, _) = compare(c_decode, || reused.decode_from(black_box(&bytes)));

        let c_encode =
            || c_ffi::c_encode_timed(black_box(&m.shape), &m.chunkshape, &m.blockshape, &dtype);
        let (into, c_enc) = compare(c_encode, || black_box(&m).encode_into(&mut buf));
        let (to_vec, _) = compare(c_encode, || b2nd_meta::to_vec(black_box(&m)));
        let (encode_to_vec, _) = compare(c_encode, || black_box(&m).encode_to_vec());

        println!(
            "| {ndim} | {c_dec:.0} ns | {meta:.2}x | {owned:.2}x | {into_meta:.2}x | {view:.2}x | {c_enc:.0} ns | {into:.2}x | {encode_to_vec:.2}x | {to_vec:.2}x |"
        );
    }
}
