//! Random slices of the fixtures against the same slice of the full read, taken by a
//! plain walk over the elements (numpy's rules written out, position by position); and
//! the chunks and blocks a slice touches against its elements' own chunk and block.

use std::collections::BTreeSet;

use b2nd_meta::array::{Array, Index, Selection};
use proptest::prelude::*;

use crate::{fixtures, open};

/// The arrays the properties read: every fixture of python-blosc2 4.14.1, each with
/// its full read.
fn arrays() -> &'static [(String, Array, Vec<u8>)] {
    static ARRAYS: std::sync::OnceLock<Vec<(String, Array, Vec<u8>)>> = std::sync::OnceLock::new();
    ARRAYS.get_or_init(|| {
        fixtures()
            .into_iter()
            .filter(|(p, _)| *p == "blosc2-4.14.1")
            .map(|(p, f)| {
                let array = open(p, &f).unwrap().with_threads(2);
                let full = array.read_bytes(&Selection::all()).unwrap();
                (f["id"].as_str().unwrap().to_string(), array, full)
            })
            .collect()
    })
}

/// python's positions of `item` along an axis of `len`, or None when numpy refuses.
fn positions(item: Index, len: i64) -> Option<Vec<i64>> {
    match item {
        Index::Int(i) => {
            let at = if i < 0 { i + len } else { i };
            (0..len).contains(&at).then(|| vec![at])
        }
        Index::Slice { start, stop, step } => {
            let step = step.unwrap_or(1);
            if step == 0 {
                return None;
            }
            let norm = |v: i64| if v < 0 { v + len } else { v };
            let mut out = Vec::new();
            if step > 0 {
                let a = start.map_or(0, norm).clamp(0, len);
                let b = stop.map_or(len, norm).clamp(0, len);
                let mut i = a;
                while i < b {
                    out.push(i);
                    i += step;
                }
            } else {
                let a = start.map_or(len - 1, norm).clamp(-1, len - 1);
                let b = stop.map_or(-1, norm).clamp(-1, len - 1);
                let mut i = a;
                while i > b {
                    out.push(i);
                    i += step;
                }
            }
            Some(out)
        }
        Index::Ellipsis | Index::NewAxis => None,
    }
}

/// The selection's elements (their C-order numbers in the array), in output order, or
/// None when numpy refuses it.
fn walk(shape: &[u64], items: &[Index]) -> Option<Vec<u64>> {
    let per_axis: Vec<Vec<i64>> = items
        .iter()
        .zip(shape)
        .map(|(&item, &len)| positions(item, len as i64))
        .collect::<Option<_>>()?;
    let mut out = vec![0u64];
    for (axis, taken) in per_axis.iter().enumerate() {
        let len = shape[axis];
        out = out
            .iter()
            .flat_map(|&base| taken.iter().map(move |&p| base * len + p as u64))
            .collect();
    }
    Some(out)
}

fn item(len: i64) -> impl Strategy<Value = Index> {
    let bound = -len - 3..len + 3;
    prop_oneof![
        (-len - 1..len + 1).prop_map(Index::Int),
        (
            proptest::option::of(bound.clone()),
            proptest::option::of(bound),
            proptest::option::of(prop_oneof![1i64..5, -4i64..0]),
        )
            .prop_map(|(a, b, s)| Index::slice(a, b, s)),
    ]
}

fn case() -> impl Strategy<Value = (usize, Vec<Index>, bool)> {
    (0..arrays().len()).prop_flat_map(|n| {
        let items: Vec<_> = arrays()[n]
            .1
            .shape()
            .iter()
            .map(|&l| item(l as i64))
            .collect();
        (Just(n), items, any::<bool>())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn a_slice_is_the_full_read_walked((n, items, ellipsis) in case()) {
        let (id, array, full) = &arrays()[n];
        let size = array.itemsize();
        // The same selection written with a leading `...` in place of full axes.
        let sel = if ellipsis && items.first() == Some(&Index::full()) {
            Selection::new(std::iter::once(Index::Ellipsis).chain(items[1..].iter().copied()))
        } else {
            Selection::new(items.iter().copied())
        };
        match (walk(array.shape(), &items), array.read_bytes(&sel)) {
            (Some(elements), Ok(got)) => {
                let want: Vec<u8> = elements
                    .iter()
                    .flat_map(|&e| full[e as usize * size..(e as usize + 1) * size].iter().copied())
                    .collect();
                prop_assert!(got == want, "{id} [{sel}]");
            }
            (None, Err(e)) => prop_assert!(e.axis().is_some(), "{id} [{sel}]: {e}"),
            (want, got) => prop_assert!(false, "{id} [{sel}]: {:?} vs {:?}", want.map(|w| w.len()), got.map(|g| g.len())),
        }
    }

    #[test]
    fn touched_blocks_are_the_elements_blocks((n, items, _) in case()) {
        let (id, array, _) = &arrays()[n];
        let sel = Selection::new(items.iter().copied());
        let Some(elements) = walk(array.shape(), &items) else { return Ok(()) };
        let (shape, chunks, blocks) = (array.shape(), array.chunkshape(), array.blockshape());
        let mut want = BTreeSet::new();
        for e in elements {
            // The element's coordinates, then its chunk's number and its block's.
            let mut rest = e;
            let mut coords = vec![0u64; shape.len()];
            for d in (0..shape.len()).rev() {
                coords[d] = rest % shape[d];
                rest /= shape[d];
            }
            let (mut chunk, mut block) = (0u64, 0u64);
            for d in 0..shape.len() {
                chunk = chunk * shape[d].div_ceil(chunks[d]) + coords[d] / chunks[d];
                block = block * chunks[d].div_ceil(blocks[d]) + (coords[d] % chunks[d]) / blocks[d];
            }
            want.insert((chunk, block));
        }
        let got: BTreeSet<(u64, u64)> = array
            .touched(&sel)
            .unwrap()
            .iter()
            .flat_map(|t| t.blocks.iter().enumerate().filter(|(_, b)| **b).map(move |(i, _)| (t.chunk, i as u64)))
            .collect();
        prop_assert_eq!(got, want, "{} [{}]", id, sel);
    }
}

#[test]
fn arrays_cover_every_ndim() {
    let ndims: BTreeSet<usize> = arrays().iter().map(|(_, a, _)| a.ndim()).collect();
    assert_eq!(ndims, (0..=8).collect());
}
