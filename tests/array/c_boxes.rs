//! Boxes of arrays C-Blosc2 wrote (`b2nd_from_cbuffer`, random shapes, chunks, blocks,
//! dtypes, codecs and filters) against C's own read of the same box
//! (`b2nd_get_slice_cbuffer`), through the shared module tests/c_ffi/b2nd.rs.

use std::sync::atomic::{AtomicUsize, Ordering};

use b2nd_meta::array::{Array, Selection};
use proptest::prelude::*;

use crate::c_b2nd::{self, CArray, Geometry};

/// An array's geometry: (shape, chunks, blocks), blocks within chunks within the shape.
fn geometry() -> impl Strategy<Value = Geometry> {
    prop::collection::vec(1i64..=12, 1..=4).prop_flat_map(|shape| {
        let chunks: Vec<_> = shape.iter().map(|&l| 1..=l as i32).collect();
        (Just(shape), chunks).prop_flat_map(|(shape, chunks)| {
            let blocks: Vec<_> = chunks.iter().map(|&c| 1..=c).collect();
            (Just(shape), Just(chunks), blocks).prop_map(|(shape, chunks, blocks)| Geometry {
                shape,
                chunks,
                blocks,
            })
        })
    })
}

/// A geometry and a non-empty box `[start, stop)` inside it.
fn case() -> impl Strategy<Value = (Geometry, Vec<i64>, Vec<i64>)> {
    geometry().prop_flat_map(|g| {
        let bounds: Vec<_> = g
            .shape
            .iter()
            .map(|&l| (0..l).prop_flat_map(move |a| (Just(a), a + 1..=l)))
            .collect();
        (Just(g), bounds).prop_map(|(g, b)| {
            let (start, stop) = b.into_iter().unzip();
            (g, start, stop)
        })
    })
}

/// The DELTA filter's id.
const DELTA: u8 = 3;

/// The box `[start, stop)` of a C-order array of `shape` (`size` bytes an element).
fn cut(bytes: &[u8], shape: &[i64], start: &[i64], stop: &[i64], size: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = start.to_vec();
    'walk: loop {
        let flat = at.iter().zip(shape).fold(0, |f, (&i, &l)| f * l + i) as usize;
        out.extend_from_slice(&bytes[flat * size..(flat + 1) * size]);
        for d in (0..shape.len()).rev() {
            at[d] += 1;
            if at[d] < stop[d] {
                continue 'walk;
            }
            at[d] = start[d];
        }
        return out;
    }
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_box_is_cs_box(
        (g, start, stop) in case(),
        dtype in prop::sample::select(vec!["<f8", "<i4", "<i2", "|u1"]),
        // BloscLZ, LZ4, ZSTD; no filter, shuffle, bitshuffle, delta.
        codec in prop::sample::select(vec![0u8, 1, 5]),
        filter in 0u8..=3,
        threads in 1usize..=3,
    ) {
        let n: i64 = g.shape.iter().product();
        let size: usize = dtype[2..].parse().unwrap();
        // Runs of small numbers: compressible, and every byte position varies.
        let bytes: Vec<u8> = (0..n as usize * size).map(|i| (i / 3 % 7 + i % size) as u8).collect();
        let path = std::env::temp_dir().join(format!(
            "b2nd-meta-c-boxes-{}-{}.b2nd",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        c_b2nd::write(&path, &g, dtype, codec, filter, &bytes);
        let len: i64 = start.iter().zip(&stop).map(|(a, b)| b - a).product();
        let carray = CArray::open(&path);
        let theirs = if filter == DELTA {
            // C-Blosc2 2.15.3's box of a DELTA chunk decodes only the box's blocks, each
            // referring to the chunk's first block, which it may not have decoded: C's
            // whole read, cut to the box, is the values.
            let mut whole = vec![0u8; bytes.len()];
            carray.read(&vec![0; g.shape.len()], &g.shape, &mut whole);
            assert_eq!(whole, bytes, "C's whole read of {g:?}");
            cut(&whole, &g.shape, &start, &stop, size)
        } else {
            let mut theirs = vec![0u8; len as usize * size];
            carray.read(&start, &stop, &mut theirs);
            theirs
        };
        let spec: Vec<String> = start.iter().zip(&stop).map(|(a, b)| format!("{a}:{b}")).collect();
        let sel: Selection = spec.join(",").parse().unwrap();
        let ours = Array::open(&path).and_then(|a| a.with_threads(threads).read_bytes(&sel));
        let _ = std::fs::remove_file(&path);
        prop_assert!(ours.as_ref().ok() == Some(&theirs), "{g:?} [{sel}]: {:?}", ours.err());
    }
}
