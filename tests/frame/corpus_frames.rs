//! Real frames: every file python-blosc2 4.14.1 wrote into tests/data/corpus, read
//! header-only, against what python-blosc2 and C-Blosc2 reported (tests/data/manifest.json).

use crate::common;

use b2nd_meta::frame::{self, FrameError, FrameErrorKind, FrameKind, ShapeChangeRefusal};
use b2nd_meta::Meta;
use common::scratch::Scratch;
use common::{data_path, manifest, unhex};
use serde_json::Value;

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap()
}

#[test]
fn every_header_matches_the_manifest() {
    let manifest = manifest();
    let files = manifest["files"].as_array().unwrap();
    for file in files {
        let name = file["name"].as_str().unwrap();
        let opened = frame::open(data_path(file["path"].as_str().unwrap()))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!opened.is_truncated(), "{name}");
        let info = &opened.header.info;
        assert_eq!(
            u64::from(info.header_len),
            u(&file["header_len"]),
            "{name}: header_len"
        );
        assert_eq!(info.frame_len, u(&file["frame_len"]), "{name}: frame_len");
        assert_eq!(
            u64::from(info.typesize),
            u(&file["typesize"]),
            "{name}: typesize"
        );
        assert_eq!(
            info.blocksize as u64,
            u(&file["blocksize"]),
            "{name}: blocksize"
        );
        assert_eq!(
            info.chunksize as u64,
            u(&file["chunksize"]),
            "{name}: chunksize"
        );
        assert_eq!(info.nbytes as u64, u(&file["nbytes"]), "{name}: nbytes");
        assert_eq!(info.cbytes as u64, u(&file["cbytes"]), "{name}: cbytes");
        assert_eq!(
            info.codec.id().map(u64::from),
            Some(u(&file["codec_code"])),
            "{name}: codec"
        );
        assert_eq!(
            info.codec.name().to_uppercase(),
            file["codec"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(u64::from(info.clevel), u(&file["clevel"]), "{name}: clevel");
        let kind = if file["contiguous"] == true {
            FrameKind::Contiguous
        } else {
            FrameKind::Sparse
        };
        assert_eq!(info.kind, kind, "{name}: kind");
        let names: Vec<&str> = opened.header.names().collect();
        let expected: Vec<&str> = file["metalayer_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(names, expected, "{name}: metalayer names");
        for layer in file["metalayers"].as_array().unwrap() {
            let m = opened
                .header
                .metalayer(layer["name"].as_str().unwrap())
                .unwrap();
            assert_eq!(m.offset, u(&layer["offset"]), "{name}: offset");
            assert_eq!(
                m.content,
                unhex(layer["raw_hex"].as_str().unwrap()),
                "{name}: content"
            );
        }
        match opened.header.array_meta() {
            Ok(meta) => {
                assert_eq!(file["is_ndarray"], true, "{name}");
                let shape: Vec<i64> = file["shape"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                assert_eq!(meta.shape(), shape, "{name}");
            }
            Err(e) if matches!(e.kind(), FrameErrorKind::NoArrayMetalayer) => {
                assert_eq!(file["is_ndarray"], false, "{name}")
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
    assert!(files.len() >= 50);
}

#[test]
fn every_truncation_of_every_real_header_is_an_error() {
    let manifest = manifest();
    for file in manifest["files"].as_array().unwrap() {
        let name = file["name"].as_str().unwrap();
        let bytes = std::fs::read(data_path(file["header_path"].as_str().unwrap())).unwrap();
        let header_len = u(&file["header_len"]) as usize;
        for len in 0..header_len {
            assert!(
                frame::parse_header(&bytes[..len]).is_err(),
                "{name}: prefix of {len}"
            );
            assert!(
                frame::read_header(&bytes[..len]).is_err(),
                "{name}: reader prefix of {len}"
            );
        }
        // The header alone is enough: the data is never read.
        assert!(frame::parse_header(&bytes[..header_len]).is_ok(), "{name}");
    }
}

#[test]
fn set_shape_reproduces_python_blosc2_resize_byte_for_byte() {
    // The generator rewrote these in place, checked that python-blosc2 opens the
    // "after" file with the new shape, and that it equals what blosc2's resize() writes.
    let manifest = manifest();
    for rewrite in manifest["rewrites"].as_array().unwrap() {
        let name = rewrite["name"].as_str().unwrap();
        assert_eq!(rewrite["after_opens"], true);
        assert_eq!(rewrite["blosc2_resize_identical"], true);
        let scratch = Scratch::of(rewrite["before_path"].as_str().unwrap(), name);
        let new_shape: Vec<u64> = rewrite["new_shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let meta = frame::set_shape(&scratch.0, &new_shape).unwrap();
        assert_eq!(meta.shapes().unwrap().shape[..], new_shape);
        let after = std::fs::read(data_path(rewrite["after_path"].as_str().unwrap())).unwrap();
        assert_eq!(
            std::fs::read(&scratch.0).unwrap(),
            after,
            "{name}: whole file"
        );
    }
}

#[test]
fn set_shape_refuses_without_touching_the_file() {
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "refuse");
    let before = std::fs::read(&scratch.0).unwrap();
    let refusal =
        |shape: &[u64]| match frame::set_shape(&scratch.0, shape).map_err(FrameError::into_kind) {
            Err(FrameErrorKind::ShapeChange { reason }) => reason,
            other => panic!("{shape:?}: {other:?}"),
        };
    // (10, 7) in (4, 4) chunks is 3 x 2 chunks; 13 rows would need a fourth.
    assert_eq!(
        refusal(&[13, 7]),
        ShapeChangeRefusal::ChunkGrid {
            axis: 0,
            from: 3,
            to: 4
        }
    );
    assert_eq!(
        refusal(&[10, 4]),
        ShapeChangeRefusal::ChunkGrid {
            axis: 1,
            from: 2,
            to: 1
        }
    );
    assert_eq!(
        refusal(&[10, 7, 1]),
        ShapeChangeRefusal::Ndim { from: 2, to: 3 }
    );
    // The shape itself is checked first (issue 11.4).
    assert_eq!(
        refusal(&[1 << 63, 7]),
        ShapeChangeRefusal::TooLong {
            axis: 0,
            len: 1 << 63
        }
    );
    assert_eq!(
        std::fs::read(&scratch.0).unwrap(),
        before,
        "refusals leave the file as it was"
    );
    // The error says why, in words.
    let err = frame::set_shape(&scratch.0, &[13, 7])
        .unwrap_err()
        .to_string();
    assert!(err.contains("axis 0 would go from 3 to 4 chunks"), "{err}");

    let err = frame::set_shape(&scratch.0, &[u64::MAX, 7])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the new length of axis 0 is 18446744073709551615; lengths are at most i64::MAX (9223372036854775807)"),
        "{err}"
    );

    // Within the grid the shape changes, and only its bytes.
    let meta = frame::set_shape(&scratch.0, &[12, 7]).unwrap();
    assert_eq!(meta.shape(), [12, 7]);
    // Only the first shape entry's bytes changed.
    let after = std::fs::read(&scratch.0).unwrap();
    let changed: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    let content = frame::open(&scratch.0)
        .unwrap()
        .header
        .array_metalayer()
        .unwrap()
        .content_offset() as usize;
    assert_eq!(
        changed,
        [content + 4 + 8],
        "only the low byte of shape[0] (10 -> 12)"
    );
    let reread: Meta = b2nd_meta::from_slice(&after[content..content + 53]).unwrap();
    assert_eq!(reread.shape(), [12, 7]);
}

#[test]
fn set_shape_on_a_sparse_frame_rewrites_chunks_b2frame() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-sparse-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = data_path("corpus/sparse_2d.b2nd");
    for entry in std::fs::read_dir(&src).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let meta = frame::open(&dir).unwrap().header.array_meta().unwrap();
    let same_grid = common::frame::grid_filled(&meta);
    assert_ne!(
        same_grid,
        meta.shapes().unwrap().shape[..],
        "the test must change something"
    );
    frame::set_shape(&dir, &same_grid).unwrap();
    assert_eq!(
        frame::open(&dir)
            .unwrap()
            .header
            .array_meta()
            .unwrap()
            .shapes()
            .unwrap()
            .shape[..],
        same_grid
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_byte_in_the_array_metalayer_is_reported_at_its_frame_offset() {
    let mut bytes = std::fs::read(data_path("corpus/ndim2_i4.b2nd")).unwrap();
    let content_at = frame::parse_header(&bytes)
        .unwrap()
        .array_metalayer()
        .unwrap()
        .content_offset() as usize;
    bytes[content_at + 4] = 0x03; // a fixint where shape[0]'s int64 marker belongs
    let err = frame::parse_header(&bytes)
        .unwrap()
        .array_meta()
        .unwrap_err();
    assert_eq!(err.offset(), Some(content_at as u64 + 4), "{err}");
    assert!(
        matches!(err.kind(), FrameErrorKind::Metalayer { .. }),
        "{err}"
    );
    let text = err.to_string();
    assert!(text.contains(&format!("frame byte {content_at}")), "{text}");
    // The convention's form: the message, then the frame offset; the content offset inside.
    assert!(text.contains("byte 4 of its content"), "{text}");
    assert!(
        text.ends_with(&format!(" at byte {}", content_at + 4)),
        "{text}"
    );
}

// ---------------------------------------------------------------------------
// Producer fixtures: tests/data/producers (python-blosc2 2.7.1, 3.0.0, 3.12.2, 4.14.1
// and caterva 0.7.3), with the facts their producer and C-Blosc2 report.

fn producers() -> Vec<Value> {
    let text = std::fs::read_to_string(data_path("producers/manifest.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["files"].as_array().unwrap().clone()
}

fn ints<T: TryFrom<i64>>(v: &Value) -> Vec<T>
where
    T::Error: std::fmt::Debug,
{
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| T::try_from(x.as_i64().unwrap()).unwrap())
        .collect()
}

#[test]
fn every_producer_fixture_is_read_with_its_metalayers_and_facts() {
    let files = producers();
    assert!(files.len() >= 50);
    for f in &files {
        let rel = f["path"].as_str().unwrap();
        let frame = frame::open(data_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let info = &frame.header.info;
        let kind = match f["kind"].as_str().unwrap() {
            "sparse" => FrameKind::Sparse,
            _ => FrameKind::Contiguous,
        };
        assert_eq!(info.kind, kind, "{rel}");
        assert_eq!(
            i64::from(info.typesize),
            f["typesize"].as_i64().unwrap(),
            "{rel}"
        );
        assert_eq!(info.nbytes, f["nbytes"].as_i64().unwrap(), "{rel}");
        assert_eq!(
            i64::from(info.chunksize),
            f["chunksize"].as_i64().unwrap(),
            "{rel}"
        );
        assert_eq!(
            i64::from(info.blocksize),
            f["blocksize"].as_i64().unwrap(),
            "{rel}"
        );
        // Only caterva 0.7.3's empty arrays hold something C-Blosc2 would not write.
        let notes: Vec<String> = info.notes.iter().map(ToString::to_string).collect();
        if rel.starts_with("producers/caterva-0.7.3/") && info.nbytes == 0 {
            assert_eq!(notes, ["negative chunksize -1 at byte 58"], "{rel}");
        } else {
            assert!(notes.is_empty(), "{rel}: {notes:?}");
        }
        // The metalayers C-Blosc2 returns, by name, in full.
        let expected = f["metalayers"].as_object().unwrap();
        assert_eq!(frame.header.metalayers.len(), expected.len(), "{rel}");
        for (name, hex) in expected {
            let m = frame.header.metalayer(name).unwrap();
            assert_eq!(m.content, unhex(hex.as_str().unwrap()), "{rel}: {name}");
        }
        // The array, through the metalayer C and python choose.
        let array = &f["array"];
        if array.is_null() {
            assert!(frame.header.array_metalayer().is_none(), "{rel}");
            continue;
        }
        let chosen = frame.header.array_metalayer().unwrap();
        assert_eq!(chosen.name, array["metalayer"].as_str().unwrap(), "{rel}");
        let meta = frame
            .header
            .array_meta()
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        assert_eq!(meta.shape(), ints::<i64>(&array["shape"]), "{rel}");
        assert_eq!(
            meta.chunkshape(),
            ints::<i32>(&array["chunkshape"]),
            "{rel}"
        );
        assert_eq!(
            meta.blockshape(),
            ints::<i32>(&array["blockshape"]),
            "{rel}"
        );
        assert_eq!(meta.dtype(), array["dtype"].as_str(), "{rel}");
    }
}

/// The relations of `frame::check_array` on every producer fixture: each file, and the
/// relations that do not hold on it (empty for every file but these exceptions).
#[test]
fn metalayer_and_frame_agree_on_every_producer_fixture() {
    let mut exceptions = Vec::new();
    for f in producers() {
        let rel = f["path"].as_str().unwrap().to_owned();
        let header = frame::open(data_path(&rel)).unwrap().header;
        let Ok(meta) = header.array_meta() else {
            continue;
        };
        for m in frame::check_array(&header.info, &meta) {
            exceptions.push(format!("{rel}: {m}"));
        }
    }
    // The one exception: caterva 0.7.3 writes an empty array with chunksize -1.
    assert_eq!(
        exceptions,
        [
            "producers/caterva-0.7.3/empty_axis.cat: chunksize: the array metalayer implies 32 \
          (prod(ceil(chunkshape_i / blockshape_i) x blockshape_i) x typesize), the frame header \
          says -1"
        ]
    );
}
