//! Library-level vlmeta writes: several changes in one write, and refusals the command
//! line cannot express, each leaving every byte as it was.

use b2nd_meta::frame::{self, FrameErrorKind, VlmetaRefusal};
use b2nd_meta::vlmeta::{self, VlmetaChange};

use crate::common::scratch::Scratch;

const BASE: &str = "vlmeta_write/base/4.14.1.b2nd";

fn refusal(err: &frame::FrameError) -> &VlmetaRefusal {
    match err.kind() {
        FrameErrorKind::VlmetaChange { reason } => reason,
        other => panic!("not a vlmeta refusal: {other}"),
    }
}

#[test]
fn several_changes_are_one_write_or_none() {
    let copy = Scratch::of(BASE, "vlmany");
    let plan = vlmeta::update_vlmeta(
        &copy.0,
        &[
            VlmetaChange::set("a", &1).unwrap(),
            VlmetaChange::set("n", &[1, 2]).unwrap(),
            VlmetaChange::delete("existing"),
            VlmetaChange::set("b", "two").unwrap(),
        ],
    )
    .unwrap();
    assert_eq!(plan.added, ["a", "b"]);
    assert_eq!(plan.replaced, ["n"]);
    assert_eq!(plan.deleted, ["existing"]);
    // Replaced values keep their place, new ones go last (as C-Blosc2 orders them).
    assert_eq!(plan.names, ["n", "a", "b"]);
    let f = frame::open(&copy.0).unwrap();
    assert_eq!(f.vlmeta_names().unwrap(), ["n", "a", "b"]);
    assert_eq!(f.vlmeta::<Vec<i32>>("n").unwrap(), [1, 2]);
    // One bad change refuses them all.
    let before = std::fs::read(&copy.0).unwrap();
    let err = vlmeta::update_vlmeta(
        &copy.0,
        &[
            VlmetaChange::set("c", &3).unwrap(),
            VlmetaChange::delete("nope"),
        ],
    )
    .unwrap_err();
    assert!(matches!(refusal(&err), VlmetaRefusal::Unknown { name } if name == "nope"));
    assert_eq!(std::fs::read(&copy.0).unwrap(), before);
}

#[test]
fn names_and_counts_c_refuses_are_refused_and_nothing_is_written() {
    let copy = Scratch::of(BASE, "vlnames");
    let before = std::fs::read(&copy.0).unwrap();
    let seventeen: Vec<VlmetaChange> = (0..15)
        .map(|i| VlmetaChange::set(&format!("k{i}"), &i).unwrap())
        .collect();
    let long = "é".repeat(16); // 32 bytes of UTF-8
    type Expected = fn(&VlmetaRefusal) -> bool;
    let cases: [(Vec<VlmetaChange>, Expected); 3] = [
        (vec![VlmetaChange::set("a\0b", &1).unwrap()], |r| {
            matches!(r, VlmetaRefusal::NameHasNul { .. })
        }),
        (
            vec![VlmetaChange::set(&long, &1).unwrap()],
            |r| matches!(r, VlmetaRefusal::NameTooLong { name } if name.len() == 32),
        ),
        (seventeen, |r| {
            matches!(r, VlmetaRefusal::TooMany { count: 17 })
        }),
    ];
    for (changes, expected) in cases {
        let err = vlmeta::update_vlmeta(&copy.0, &changes).unwrap_err();
        assert!(expected(refusal(&err)), "{err}");
        assert_eq!(std::fs::read(&copy.0).unwrap(), before, "{err}");
    }
}

#[test]
fn a_trailer_python_would_not_write_is_not_rewritten() {
    let copy = Scratch::of(BASE, "vlv0");
    let mut bytes = std::fs::read(&copy.0).unwrap();
    let header = frame::parse_header(&bytes).unwrap();
    let trailer = frame::parse_trailer(&bytes, &header).unwrap();
    // Trailer version 0 (C-Blosc2 before 2.0.0-beta.3): still read, not rewritten.
    bytes[trailer.offset as usize + 1] = 0;
    std::fs::write(&copy.0, &bytes).unwrap();
    assert!(frame::open(&copy.0).unwrap().vlmeta_names().is_ok());
    let err = vlmeta::set_vlmeta(&copy.0, "k", &1).unwrap_err();
    assert!(matches!(refusal(&err), VlmetaRefusal::UnusualTrailer));
    assert_eq!(std::fs::read(&copy.0).unwrap(), bytes);
}

#[test]
fn entries_not_changed_keep_their_stored_chunks_and_the_same_value_writes_nothing() {
    let copy = Scratch::of(BASE, "vlkeep");
    let stored = |name: &str| {
        let t = frame::open(&copy.0).unwrap().trailer().unwrap();
        t.vlmetalayer(name).unwrap().content.clone()
    };
    // python-blosc2 4.14.1 stored these (zstd, or memcpyed): kept byte for byte.
    let (existing, n) = (stored("existing"), stored("n"));
    vlmeta::set_vlmeta(&copy.0, "units", "m/s").unwrap();
    vlmeta::set_vlmeta(&copy.0, "big", &"x".repeat(4000)).unwrap();
    vlmeta::del_vlmeta(&copy.0, "big").unwrap();
    assert_eq!(stored("existing"), existing);
    assert_eq!(stored("n"), n);
    // Setting a value it already holds changes nothing, not even the chunk's codec.
    let before = std::fs::read(&copy.0).unwrap();
    let plan = vlmeta::set_vlmeta(&copy.0, "existing", "python wrote me").unwrap();
    assert_eq!(plan.replaced, ["existing"]);
    assert!(!plan.changed);
    assert_eq!(std::fs::read(&copy.0).unwrap(), before);
}
