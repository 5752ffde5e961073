//! Resize interop (issue 11.6): `set_shape` on a copy of each case of
//! `tests/data/resize/cases.json` (written by the fixtures generator, which patches the
//! shape on its own and checks the result in python-blosc2) gives the same verdict, the
//! same reason and, when it writes, a file with the same sha256. Until that file
//! exists, the two python-blosc2 rewrite pairs of tests/data/manifest.json stand in.

mod common;

use std::path::{Path, PathBuf};

use b2nd_meta::frame::{self, FrameError, FrameErrorKind, ShapeChangeRefusal};
use common::data_path;
use serde_json::Value;

/// One resize: the file (relative to tests/data), the new shape, and what must follow.
struct Case {
    file: String,
    new_shape: Vec<i64>,
    expect: String,
    reason: Option<String>,
    after_sha256: Option<String>,
}

fn cases() -> Vec<Case> {
    let path = data_path("resize/cases.json");
    let shape = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .collect()
    };
    if let Ok(text) = std::fs::read_to_string(&path) {
        let doc: Value = serde_json::from_str(&text).unwrap();
        return doc["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                if c["expect"] == "ok" {
                    assert_eq!(c["python"]["opens"], true, "{c}");
                    assert_eq!(c["python"]["shape"], c["new_shape"], "{c}");
                    assert_eq!(c["python"]["data_equal_to_python_resize"], true, "{c}");
                }
                Case {
                    file: c["file"].as_str().unwrap().to_owned(),
                    new_shape: shape(&c["new_shape"]),
                    expect: c["expect"].as_str().unwrap().to_owned(),
                    reason: c["reason"].as_str().map(str::to_owned),
                    after_sha256: c["after_sha256"].as_str().map(str::to_owned),
                }
            })
            .collect();
    }
    // The stand-in: python-blosc2's own resize of the "before" files, checked by
    // tests/data/generate.py (after_opens, blosc2_resize_identical).
    common::manifest()["rewrites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["after_opens"], true);
            assert_eq!(r["blosc2_resize_identical"], true);
            let after = std::fs::read(data_path(r["after_path"].as_str().unwrap())).unwrap();
            Case {
                file: r["before_path"].as_str().unwrap().to_owned(),
                new_shape: shape(&r["new_shape"]),
                expect: "ok".to_owned(),
                reason: None,
                after_sha256: Some(sha256_hex(&after)),
            }
        })
        .collect()
}

/// A copy of a file or sparse directory; the path of the file whose sha256 counts.
fn copy(relative: &str, n: usize) -> (PathBuf, PathBuf) {
    let src = data_path(relative);
    let dst = std::env::temp_dir().join(format!("b2nd-meta-resize-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    let _ = std::fs::remove_file(&dst);
    if src.is_dir() {
        std::fs::create_dir_all(&dst).unwrap();
        for entry in std::fs::read_dir(&src).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dst.join(entry.file_name())).unwrap();
        }
        let header = dst.join("chunks.b2frame");
        (dst, header)
    } else {
        std::fs::copy(&src, &dst).unwrap();
        (dst.clone(), dst)
    }
}

fn remove(path: &Path) {
    let _ = std::fs::remove_dir_all(path);
    let _ = std::fs::remove_file(path);
}

/// The reason, in the words of cases.json, for one of our refusals.
fn reason(err: &FrameError) -> &'static str {
    match err.kind() {
        FrameErrorKind::ShapeChange {
            reason: ShapeChangeRefusal::ChunkGrid { .. },
        } => "grid",
        FrameErrorKind::ShapeChange {
            reason: ShapeChangeRefusal::Ndim { .. },
        } => "ndim",
        // Data cut short, or the header itself.
        FrameErrorKind::TruncatedFrame { .. } | FrameErrorKind::Truncated { .. } => "truncated",
        FrameErrorKind::ShapeChange {
            reason: ShapeChangeRefusal::Negative { .. } | ShapeChangeRefusal::Invalid(_),
        } => "invalid",
        _ => "other",
    }
}

/// Files our header parser still refuses though C-Blosc2 opens them, with the issue
/// that fixes it: their cases must fail that way until then (and this list be emptied).
const PENDING: &[(&str, &str)] = &[(
    "producers/caterva-0.7.3/empty_axis.cat",
    "issue 10.1: chunksize -1 is refused even when nbytes is 0",
)];

#[test]
fn set_shape_agrees_with_the_python_verified_resizes() {
    let cases = cases();
    assert!(!cases.is_empty());
    for (n, case) in cases.iter().enumerate() {
        let (path, hashed) = copy(&case.file, n);
        let before = std::fs::read(&hashed).unwrap();
        let result = frame::set_shape(&path, &case.new_shape);
        if let Some((_, why)) = PENDING.iter().find(|(f, _)| *f == case.file) {
            let err = result.expect_err("a PENDING case now passes: remove it from PENDING");
            assert!(
                matches!(
                    err.kind(),
                    FrameErrorKind::InvalidField {
                        field: "chunksize",
                        ..
                    }
                ),
                "{}: {why}: {err}",
                case.file
            );
            remove(&path);
            continue;
        }
        let after = std::fs::read(&hashed).unwrap();
        remove(&path);
        let what = format!("{} -> {:?}", case.file, case.new_shape);
        match (case.expect.as_str(), result) {
            ("ok", Ok(meta)) => assert_eq!(meta.shape(), case.new_shape, "{what}"),
            ("refused", Err(e)) => {
                assert_eq!(Some(reason(&e)), case.reason.as_deref(), "{what}: {e}");
                assert_eq!(after, before, "{what}: a refusal writes nothing");
            }
            (expect, got) => panic!("{what}: expected {expect}, got {got:?}"),
        }
        if let Some(sha) = &case.after_sha256 {
            assert_eq!(&sha256_hex(&after), sha, "{what}");
        }
    }
}

#[test]
fn the_sha256_here_is_sha256() {
    // FIPS 180-2 examples.
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    // sha256sum of a committed file.
    let file = std::fs::read(data_path("corpus/rewrite_2d_after.b2nd")).unwrap();
    assert_eq!(
        sha256_hex(&file),
        "4cd8f3d339dc403e202881e01ace19d3ea58e12ec0524ea35d6cfc53631fe875"
    );
}

/// SHA-256 (FIPS 180-4), as lowercase hex: small enough to keep the tests free of a
/// dependency, checked above against the standard's examples.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}
