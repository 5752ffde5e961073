//! Instruction counts, for iterating on speed on a shared machine where wall time is
//! noise: `cargo bench --features repo-tests --bench icount --no-run`, then run the binary under
//! `valgrind --tool=callgrind` with `<op> <ndim> <iterations>` twice (e.g. 1 and 10001
//! iterations) and divide the difference by the extra iterations. `benches/icount.sh`
//! does that for every operation. Ops: c_decode, owned, owned_meta, view, to_vec,
//! encode_into, encode_to_vec, to_slice, c_encode, decode_from.

#[path = "../tests/c_ffi/mod.rs"]
mod c_ffi;
mod common;

use common::{checked_bytes, meta};

use std::hint::black_box;

use b2nd_meta::{Meta, MetaB2ndV1, MetaRef};

/// Out of line, so that its code can be read in a disassembly.
#[inline(never)]
fn view(bytes: &[u8]) -> b2nd_meta::Result<MetaRef<'_>> {
    MetaRef::parse(bytes)
}

/// Out of line, so that its code can be read in a disassembly; the value is seen where
/// it was decoded, as the benches see it (returned, it would be copied to the caller).
#[inline(never)]
fn owned_meta(bytes: &[u8]) -> bool {
    let meta = b2nd_meta::from_slice::<Meta>(bytes);
    black_box(&meta);
    meta.is_ok()
}

/// As `owned_meta`, for the typed struct.
#[inline(never)]
fn owned(bytes: &[u8]) -> bool {
    let meta = b2nd_meta::from_slice::<MetaB2ndV1>(bytes);
    black_box(&meta);
    meta.is_ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        // `cargo bench` runs every bench target with its own arguments: nothing to do.
        return;
    }
    let (op, ndim, iters) = (
        args[1].as_str(),
        args[2].parse::<usize>().unwrap(),
        args[3].parse::<usize>().unwrap(),
    );
    let m = meta(ndim);
    let bytes = checked_bytes(&m);
    let mut buf = vec![0u8; 512];
    let dtype = std::ffi::CString::new(m.dtype.as_str()).unwrap();
    // One loop per operation, chosen once, so that the counts hold the operation alone
    // (a string match inside the loop added some 200 instructions to each).
    macro_rules! repeat {
        ($body:expr) => {
            for _ in 0..iters {
                // The value as the operation returns it, seen by reference and dropped
                // (as C's output arrays are seen and its dtype freed): unwrapping it or
                // passing it by value would add a move of 320 bytes that C never makes.
                // Checked to be `Ok` once, below.
                let value = $body;
                black_box(&value);
            }
        };
    }
    assert!(owned_meta(&bytes) && view(&bytes).is_ok());
    assert_eq!(b2nd_meta::to_slice(&m, &mut buf).unwrap(), bytes.len());
    match op {
        "c_decode" => repeat!(c_ffi::c_decode_timed(&bytes)),
        "c_encode" => repeat!(c_ffi::c_encode_timed(
            &m.shape,
            &m.chunkshape,
            &m.blockshape,
            &dtype
        )),
        "owned" => repeat!(owned(black_box(&bytes))),
        "owned_meta" => repeat!(owned_meta(black_box(&bytes))),
        "owned_meta_inline" => repeat!(b2nd_meta::from_slice::<Meta>(black_box(&bytes))),
        "view" => repeat!(view(black_box(&bytes))),
        "to_vec" => repeat!(b2nd_meta::to_vec(black_box(&m))),
        "to_slice" => repeat!(b2nd_meta::to_slice(black_box(&m), &mut buf)),
        "encode_into" => repeat!(black_box(&m).encode_into(&mut buf)),
        "encode_to_vec" => repeat!(black_box(&m).encode_to_vec()),
        "decode_from" => {
            let mut kept = Meta::from(m.clone());
            repeat!(kept.decode_from(black_box(&bytes)))
        }
        other => panic!("unknown op {other}"),
    }
}
