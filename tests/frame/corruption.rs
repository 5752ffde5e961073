//! Truncation and corruption: every cut and every changed byte of a real header.

use std::fs;

use b2nd_meta::frame::{
    open, parse_header, read_header, rewrite_metalayer, FrameError, FrameErrorKind, FrameKind,
    FIXED_HEADER_LEN,
};

use crate::{copy_dir, data_dir, fixture, fixture_headers, scratch};

#[test]
fn every_truncation_of_every_fixture_header_is_an_error() {
    let dir = scratch("truncations");
    for (name, bytes) in fixture_headers() {
        let header = parse_header(&bytes).unwrap();
        let header_len = header.info.header_len as usize;
        for len in 0..header_len {
            let cut = &bytes[..len];
            let e1 = parse_header(cut).unwrap_err();
            assert!(
                matches!(e1.kind(), FrameErrorKind::Truncated { .. }),
                "{name}[..{len}]: {e1}"
            );
            let e2 = read_header(cut).unwrap_err();
            assert!(
                matches!(e2.kind(), FrameErrorKind::Truncated { .. }),
                "{name}[..{len}]: {e2}"
            );
            let mut copy = cut.to_vec();
            assert!(
                rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut copy), "b2nd", &[]).is_err()
            );
            assert_eq!(copy, cut);
        }
        // Cutting the data (after the header) is reported, not an error.
        let path = dir.join("cut");
        for len in (0..bytes.len())
            .step_by(7)
            .chain([header_len - 1, header_len])
        {
            fs::write(&path, &bytes[..len]).unwrap();
            match open(&path) {
                Ok(f) => {
                    assert!(len >= header_len, "{name}[..{len}]");
                    assert_eq!(f.header, header);
                    assert!(f.is_truncated());
                    assert_eq!(f.missing_bytes(), (bytes.len() - len) as u64);
                }
                Err(e) if matches!(e.kind(), FrameErrorKind::WrongKind { .. }) => {
                    assert_eq!(header.info.kind, FrameKind::Sparse);
                    assert!(len >= header_len);
                }
                Err(e) => {
                    assert!(len < header_len, "{name}[..{len}]: {e}");
                    assert!(matches!(e.kind(), FrameErrorKind::Truncated { .. }), "{e}");
                }
            }
        }
    }
    // A truncated sparse header file.
    let sparse = dir.join("sparse.b2nd");
    copy_dir(&data_dir().join("sparse.b2nd"), &sparse);
    let full = fs::read(sparse.join("chunks.b2frame")).unwrap();
    fs::write(sparse.join("chunks.b2frame"), &full[..200]).unwrap();
    let f = open(&sparse).unwrap();
    assert!(f.is_truncated());
    assert_eq!(f.missing_bytes(), 48);
    fs::write(sparse.join("chunks.b2frame"), &full[..100]).unwrap();
    assert!(matches!(
        open(&sparse).map_err(FrameError::into_kind),
        Err(FrameErrorKind::Truncated { .. })
    ));
    fs::remove_dir_all(&dir).unwrap();
}

/// Offsets in the fixed part of the magic: any change is refused.
const FIXED_STRUCTURAL: [usize; 8] = [2, 3, 4, 5, 6, 7, 8, 9];

/// The one byte of the fixed part nobody reads (reserved): a change goes unseen.
const UNREAD: usize = 86;

/// Offsets in the fixed part of the msgpack markers (and the has_vlmetalayers bool):
/// C-Blosc2 never reads them, so a change is read and noted at that byte, not refused.
const FIXED_MARKERS: [usize; 14] = [0, 1, 10, 15, 24, 29, 38, 47, 52, 57, 62, 65, 68, 69];

#[test]
fn corrupting_any_header_byte_never_panics() {
    for (name, bytes) in fixture_headers() {
        let good = parse_header(&bytes).unwrap();
        let header_len = good.info.header_len as usize;
        // Bytes of contents (anything goes) and of names (must stay valid).
        let mut content = vec![false; header_len];
        let mut name_byte = vec![false; header_len];
        for m in &good.metalayers {
            let start = m.content_offset() as usize;
            content[start..start + m.content.len()].fill(true);
        }
        let mut pos = FIXED_HEADER_LEN + 7;
        for m in &good.metalayers {
            name_byte[pos + 1..pos + 1 + m.name.len()].fill(true);
            pos += 1 + m.name.len() + 5;
        }

        for at in 0..header_len {
            let orig = bytes[at];
            for v in [
                orig ^ 0xff,
                orig ^ 0x01,
                orig ^ 0x80,
                0x00,
                0xff,
                orig.wrapping_add(1),
            ] {
                if v == orig {
                    continue;
                }
                let mut b = bytes.clone();
                b[at] = v;
                let parsed = parse_header(&b);
                let streamed = read_header(&b[..]);
                assert_eq!(
                    parsed.as_ref().map_err(|e| e.to_string()),
                    streamed.as_ref().map_err(|e| e.to_string()),
                    "{name} byte {at} = {v:#04x}"
                );
                if FIXED_STRUCTURAL.contains(&at) {
                    assert!(parsed.is_err(), "{name}: byte {at} = {v:#04x} accepted");
                }
                // Any other change C lets through is seen: a refusal, a note, or a
                // different header.
                if let Ok(h) = &parsed {
                    assert!(
                        at == UNREAD || !h.info.notes.is_empty() || *h != good,
                        "{name}: byte {at} = {v:#04x} unseen"
                    );
                }
                if FIXED_MARKERS.contains(&at) && !(at == 68 && (v == 0xc2 || v == 0xc3)) {
                    let h = parsed.as_ref().unwrap();
                    assert!(
                        h.info.notes.iter().any(|n| n.offset == at as u64),
                        "{name}: byte {at} = {v:#04x} not noted"
                    );
                }
                if content[at] {
                    // A content byte: parses, and only that content changes.
                    let h = parsed.as_ref().unwrap();
                    assert_eq!(h.info, good.info);
                    assert_eq!(
                        h.names().collect::<Vec<_>>(),
                        good.names().collect::<Vec<_>>()
                    );
                    let changed: Vec<_> = h
                        .metalayers
                        .iter()
                        .zip(&good.metalayers)
                        .filter(|(a, b)| a != b)
                        .collect();
                    assert_eq!(changed.len(), 1, "{name} byte {at}");
                }
                if let Ok(h) = &parsed {
                    for m in &h.metalayers {
                        assert!(m.content_offset() as usize + m.content.len() <= header_len);
                        assert_eq!(b[m.offset as usize], 0xc6);
                    }
                }
                let mut copy = b.clone();
                let _ =
                    rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut copy), "b2nd", &[0; 3]);
                assert_eq!(copy, b);
            }
        }
    }
}

#[test]
fn errors_name_offset_expected_and_found() {
    // A marker C-Blosc2 never reads: read, and noted with offset, expected and found.
    let mut b = fixture("contiguous.b2nd");
    b[47] = 0xd3;
    let notes = parse_header(&b).unwrap().info.notes;
    assert_eq!(notes.len(), 1);
    let msg = notes[0].to_string();
    assert!(
        msg.contains("byte 47") && msg.contains("0xd2") && msg.contains("typesize"),
        "{msg}"
    );
    assert!(msg.contains("found 0xd3"), "{msg}");

    // A field C refuses: an error with offset, expected and found.
    let mut b = fixture("contiguous.b2nd");
    b[48..52].copy_from_slice(&0i32.to_be_bytes());
    let err = parse_header(&b).unwrap_err();
    assert_eq!(err.offset(), Some(48));
    let msg = err.to_string();
    assert!(
        msg.ends_with("at byte 48") && msg.contains("typesize 0"),
        "{msg}"
    );

    // Not a frame: C checks the magic (byte 2 on), not the markers before it.
    let err = parse_header(b"hello, world, this is no frame").unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::BadMagic {
                found: b'l',
                ..
            } if err.offset() == Some(2)),
        "{err}"
    );

    let mut b = fixture("contiguous.b2nd");
    b[5] = b'X';
    let err = parse_header(&b).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::BadMagic {
                expected: b'r',
                found: b'X'
            } if err.offset() == Some(5)),
        "{err}"
    );
    assert!(err.to_string().contains("not a Blosc2 frame"));

    let err = parse_header(&fixture("contiguous.b2nd")[..120]).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("146") && msg.contains("120"), "{msg}");
}
