//! The geometry against brute force: every position of a selection placed by hand.

use proptest::prelude::*;
use std::collections::BTreeMap;
use std::vec::Vec;

use super::{resolve, touched, Grid, Index, Resolved, Selection};

/// Shape, chunkshape and blockshape (shape >= chunks >= blocks, as C requires) and a
/// selection of one item per axis.
fn case() -> impl Strategy<Value = (Grid, Resolved)> {
    let axis = (
        1u64..9,
        1u64..6,
        1u64..4,
        -10i64..10,
        -10i64..10,
        -3i64..4,
        any::<bool>(),
    );
    proptest::collection::vec(axis, 0..4).prop_map(|axes| {
        let shape: Vec<u64> = axes.iter().map(|a| a.0.max(a.1).max(a.2)).collect();
        let chunks: Vec<u64> = axes.iter().map(|a| a.1.max(a.2)).collect();
        let blocks: Vec<u64> = axes.iter().map(|a| a.2).collect();
        let items = axes.iter().zip(&shape).map(|(a, &len)| match a.6 {
            true => Index::Int(a.3.rem_euclid(len as i64)),
            false => Index::slice(Some(a.3), Some(a.4), Some(if a.5 == 0 { 1 } else { a.5 })),
        });
        let sel = resolve(&Selection::new(items), &shape).unwrap();
        (Grid::new(&shape, &chunks, &blocks).unwrap(), sel)
    })
}

/// Every position the selection takes (array coordinates), in C order of the result.
fn positions(sel: &Resolved) -> Vec<Vec<u64>> {
    let mut out = std::vec![Vec::new()];
    for axis in &sel.axes {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..axis.count).map(move |k| {
                    let mut p = p.clone();
                    p.push(axis.position(k));
                    p
                })
            })
            .collect();
    }
    out
}

/// `coords` numbered in C order over a grid of `per` along each axis.
fn number(coords: impl Iterator<Item = u64>, per: &[u64]) -> u64 {
    coords.zip(per).fold(0, |n, (c, &p)| n * p + c)
}

proptest! {
    #[test]
    fn touched_is_the_blocks_of_every_position((grid, sel) in case()) {
        let mut want: BTreeMap<u64, Vec<bool>> = BTreeMap::new();
        if sel.len() > 0 {
            for p in positions(&sel) {
                let chunk = number(p.iter().zip(&grid.chunkshape).map(|(&i, &c)| i / c), &grid.chunks_per_axis);
                let block = number(
                    p.iter().zip(&grid.chunkshape).zip(&grid.blockshape).map(|((&i, &c), &b)| i % c / b),
                    &grid.blocks_per_chunk,
                );
                want.entry(chunk).or_insert_with(|| std::vec![false; grid.nblocks()])[block as usize] = true;
            }
        }
        let got: Vec<(u64, Vec<bool>)> = touched(&grid, &sel).into_iter().map(|t| (t.chunk, t.blocks)).collect();
        prop_assert_eq!(got, want.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn rows_cut_only_where_a_block_ends((grid, sel) in case(), rows in 1u64..5) {
        let Some(axis) = sel.axes.iter().position(|a| a.kept && a.count > 0) else {
            return Ok(());
        };
        let whole = sel.axes[axis];
        let key = |at: u64| (at / grid.chunkshape[axis], at % grid.chunkshape[axis] / grid.blockshape[axis]);
        let mut next = 0;
        let mut last_key = None;
        for part in grid.rows(&sel, axis, rows) {
            let a = part.axes[axis];
            // The parts follow one another, and only that axis is cut.
            prop_assert!(a.count > 0);
            prop_assert_eq!(a.start, whole.position(next));
            prop_assert_eq!((a.step, a.kept), (whole.step, whole.kept));
            for d in (0..sel.axes.len()).filter(|&d| d != axis) {
                prop_assert_eq!(part.axes[d], sel.axes[d]);
            }
            // No block in two parts; longer than asked only for one block.
            prop_assert_ne!(last_key, Some(key(a.start)));
            let keys: Vec<_> = (0..a.count).map(|k| key(a.position(k))).collect();
            prop_assert!(a.count <= rows || keys.iter().all(|&k| k == keys[0]));
            last_key = keys.last().copied();
            next += a.count;
        }
        prop_assert_eq!(next, whole.count);
    }
}
