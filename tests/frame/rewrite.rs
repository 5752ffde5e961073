//! In-place rewrite of a metalayer's content: exactly its bytes change, or nothing does.

use std::fs;

use b2nd_meta::frame::{open, parse_header, rewrite_metalayer, FrameError, FrameErrorKind};

use crate::{copy_dir, data_dir, scratch, snapshot_dir};

#[test]
fn rewrite_changes_exactly_the_content_bytes_contiguous() {
    let dir = scratch("rewrite-contiguous");
    for name in ["contiguous.b2nd", "usermeta.b2nd"] {
        let path = dir.join(name);
        fs::copy(data_dir().join(name), &path).unwrap();
        let header = open(&path).unwrap().header;
        for m in header.metalayers.clone() {
            let before = fs::read(&path).unwrap();
            let new: Vec<u8> = m.content.iter().map(|b| !b).collect();
            rewrite_metalayer(&path, &m.name, &new).unwrap();
            let after = fs::read(&path).unwrap();
            assert_eq!(after.len(), before.len());
            let start = m.content_offset() as usize;
            let end = start + new.len();
            assert_eq!(&after[..start], &before[..start], "{name}/{}", m.name);
            assert_eq!(&after[start..end], &new[..]);
            assert_eq!(&after[end..], &before[end..]);
            let reread = open(&path).unwrap().header;
            assert_eq!(reread.metalayer(&m.name).unwrap().content, new);
            // The buffer variant does the same thing.
            let mut buf = before.clone();
            rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut buf), &m.name, &new).unwrap();
            assert_eq!(buf, after);
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rewrite_sparse_touches_only_chunks_b2frame() {
    let dir = scratch("rewrite-sparse");
    let sparse = dir.join("sparse.b2nd");
    copy_dir(&data_dir().join("sparse.b2nd"), &sparse);
    let before = snapshot_dir(&sparse);
    let m = open(&sparse).unwrap().header.metalayers[0].clone();
    let mut new = m.content.clone();
    new[1] ^= 0x55;
    rewrite_metalayer(&sparse, "b2nd", &new).unwrap();
    let after = snapshot_dir(&sparse);
    assert_eq!(before.len(), after.len());
    for ((p, b), (q, a)) in before.iter().zip(&after) {
        assert_eq!(p, q);
        if p.ends_with("chunks.b2frame") {
            let mut expected = b.clone();
            let s = m.content_offset() as usize;
            expected[s..s + new.len()].copy_from_slice(&new);
            assert_eq!(a, &expected);
            assert_ne!(a, b);
        } else {
            assert_eq!(a, b, "{}", p.display());
        }
    }
    assert_eq!(open(&sparse).unwrap().header.metalayers[0].content, new);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rewrite_refusals_leave_files_byte_identical() {
    let dir = scratch("rewrite-refusals");
    let path = dir.join("contiguous.b2nd");
    fs::copy(data_dir().join("contiguous.b2nd"), &path).unwrap();
    let original = fs::read(&path).unwrap();
    let len = open(&path).unwrap().header.metalayers[0].content.len();

    for wrong in [0, len - 1, len + 1, 4 * len] {
        let err = rewrite_metalayer(&path, "b2nd", &vec![0u8; wrong]).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::ContentLengthMismatch { expected, found, .. }
                if *expected == len && *found == wrong),
            "{err}"
        );
        assert_eq!(fs::read(&path).unwrap(), original);
    }
    for unknown in ["caterva", "B2ND", "b2n", ""] {
        let err = rewrite_metalayer(&path, unknown, &vec![0u8; len]).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::UnknownMetalayer { .. }),
            "{err}"
        );
        assert_eq!(fs::read(&path).unwrap(), original);
    }

    // Files that are not (valid) frames.
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "text.b2nd",
            b"this is not a frame at all, just some text".repeat(10),
        ),
        ("empty.b2nd", vec![]),
        ("cut.b2nd", original[..120].to_vec()),
        ("badmarker.b2nd", {
            let mut b = original.clone();
            b[91] = 0xdf; // the map16 marker C-Blosc2 checks
            b
        }),
        ("badoffset.b2nd", {
            let mut b = original.clone();
            b[103] = 0x6c; // offset 107 -> 108
            b
        }),
    ];
    for (name, bytes) in cases {
        let p = dir.join(name);
        fs::write(&p, &bytes).unwrap();
        let err = rewrite_metalayer(&p, "b2nd", &vec![0u8; len]).unwrap_err();
        assert!(
            !matches!(err.kind(), FrameErrorKind::Io { .. }),
            "{name}: {err}"
        );
        assert_eq!(fs::read(&p).unwrap(), bytes, "{name}");
        let mut buf = bytes.clone();
        assert!(rewrite_metalayer(
            b2nd_meta::frame::Target::bytes(&mut buf),
            "b2nd",
            &vec![0u8; len]
        )
        .is_err());
        assert_eq!(buf, bytes, "{name}");
    }

    // A sparse frame's header file given as a plain file.
    let sparse = dir.join("sparse.b2nd");
    copy_dir(&data_dir().join("sparse.b2nd"), &sparse);
    let hdr = sparse.join("chunks.b2frame");
    let before = fs::read(&hdr).unwrap();
    let slen = parse_header(&before).unwrap().metalayers[0].content.len();
    let err = rewrite_metalayer(&hdr, "b2nd", &vec![0u8; slen]).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::WrongKind { .. }),
        "{err}"
    );
    assert_eq!(fs::read(&hdr).unwrap(), before);

    // A contiguous frame posing as a sparse directory's header.
    fs::write(&hdr, &original).unwrap();
    let err = rewrite_metalayer(&sparse, "b2nd", &vec![0u8; len]).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::WrongKind { .. }),
        "{err}"
    );
    assert_eq!(fs::read(&hdr).unwrap(), original);

    // Missing paths and directories without chunks.b2frame.
    let empty_dir = dir.join("empty_dir");
    fs::create_dir(&empty_dir).unwrap();
    for p in [dir.join("missing.b2nd"), empty_dir] {
        let err = rewrite_metalayer(&p, "b2nd", &[]).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::Io(_)) && err.path().is_some(),
            "{err}"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("{}: I/O error", err.path().unwrap().display())),
            "{err}"
        );
        assert!(matches!(
            open(&p).map_err(FrameError::into_kind),
            Err(FrameErrorKind::Io(_))
        ));
    }
    fs::remove_dir_all(&dir).unwrap();
}
