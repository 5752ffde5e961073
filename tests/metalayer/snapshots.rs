//! Annotated hex dumps of what we encode, kept in the top-level snapshots/ directory.
//! Each snapshot was read line by line against SPEC.md before it was accepted.

use crate::common;

use b2nd_meta::{MetaB2nd, MetaB2ndV1, MetaV0Caterva};
use common::annotate;
use serde::Serialize;

fn snapshot<T: Serialize>(name: &str, value: &T) {
    let bytes = b2nd_meta::to_vec(value).unwrap();
    insta::with_settings!({
        snapshot_path => "../../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, annotate(&bytes));
    });
}

#[test]
fn b2nd_v1_c_vector() {
    snapshot(
        "b2nd_v1_c_vector",
        &MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4"),
    );
}

#[test]
fn b2nd_v1_ndim_0() {
    snapshot(
        "b2nd_v1_ndim_0",
        &MetaB2ndV1::new(vec![], vec![], vec![], "<f8"),
    );
}

#[test]
fn b2nd_v1_ndim_16() {
    snapshot(
        "b2nd_v1_ndim_16",
        &MetaB2ndV1::new(
            (1..=16).collect::<Vec<i64>>(),
            vec![2; 16],
            vec![1; 16],
            "|u1",
        ),
    );
}

#[test]
fn b2nd_v1_extremes() {
    let mut meta = MetaB2ndV1::new(
        vec![i64::MAX, i64::MIN],
        vec![i32::MAX, 0],
        vec![-1, 1],
        "|b1",
    );
    meta.dtype_format = 127;
    snapshot("b2nd_v1_extremes", &meta);
}

#[test]
fn b2nd_draft() {
    let meta = MetaB2nd {
        shape: vec![100].into(),
        chunkshape: vec![10].into(),
        blockshape: vec![5].into(),
        dtype: "int32".into(),
    };
    snapshot("b2nd_draft", &meta);
}

#[test]
fn caterva_v0() {
    let meta = MetaV0Caterva {
        shape: vec![10, 7].into(),
        chunkshape: vec![4, 4].into(),
        blockshape: vec![2, 2].into(),
    };
    snapshot("caterva_v0", &meta);
}
