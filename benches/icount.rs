//! Instruction counts, for iterating on speed on a shared machine where wall time is
//! noise: `cargo bench --bench icount --no-run`, then run the binary under
//! `valgrind --tool=callgrind` with `<op> <ndim> <iterations>` twice (e.g. 1 and 10001
//! iterations) and divide the difference by the extra iterations. `benches/icount.sh`
//! does that for every operation. Ops: c_decode, owned, owned_meta, view, to_vec,
//! encode_into, to_slice, c_encode.

#[path = "../tests/c_ffi/mod.rs"]
mod c_ffi;

use std::hint::black_box;

use b2nd_meta::{Meta, MetaB2ndV1, MetaRef};

fn meta(ndim: usize) -> MetaB2ndV1 {
    let shape: Vec<i64> = (0..ndim as i64).map(|i| 1000 + i).collect();
    MetaB2ndV1::new(shape, vec![100; ndim], vec![10; ndim], "<f8")
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
    let bytes = b2nd_meta::to_vec(&m).unwrap();
    let mut buf = vec![0u8; 512];
    let dtype = std::ffi::CString::new(m.dtype.as_str()).unwrap();
    for _ in 0..iters {
        match op {
            "c_decode" => {
                black_box(c_ffi::c_decode_timed(&bytes));
            }
            "c_encode" => {
                black_box(c_ffi::c_encode_timed(
                    &m.shape,
                    &m.chunkshape,
                    &m.blockshape,
                    &dtype,
                ));
            }
            "owned" => {
                black_box(b2nd_meta::from_slice::<MetaB2ndV1>(black_box(&bytes)).unwrap());
            }
            "owned_meta" => {
                black_box(b2nd_meta::from_slice::<Meta>(black_box(&bytes)).unwrap());
            }
            "view" => {
                black_box(MetaRef::parse(black_box(&bytes)).unwrap());
            }
            "to_vec" => {
                black_box(b2nd_meta::to_vec(black_box(&m)).unwrap());
            }
            "to_slice" => {
                black_box(b2nd_meta::to_slice(black_box(&m), &mut buf).unwrap());
            }
            "encode_into" => {
                black_box(black_box(&m).encode_into(&mut buf).unwrap());
            }
            other => panic!("unknown op {other}"),
        }
    }
}
