//! What reading a header costs, whatever its length fields claim: the bytes read and
//! the largest allocation.

use std::fs;
use std::io::{self, Read};

use b2nd_meta::frame::{self, open, parse_header, read_header, rewrite_metalayer, FrameErrorKind};

use crate::common::frame::{fixstr, set_i32, set_u64};
use crate::{build, common, fixture, fixture_headers, scratch, Counting, ALLOC_LIMIT};

// ---------------------------------------------------------------------------
// Cost and allocation bounds

#[test]
fn reader_consumes_exactly_header_len() {
    for (name, bytes) in fixture_headers() {
        let header_len = parse_header(&bytes).unwrap().info.header_len as u64;
        // The frame goes on for a gigabyte after the fixture.
        let mut r = Counting {
            inner: (&bytes[..]).chain(io::repeat(0xab).take(1 << 30)),
            count: 0,
        };
        let h = read_header(&mut r).unwrap();
        assert_eq!(r.count, header_len, "{name}");
        assert_eq!(h, parse_header(&bytes).unwrap(), "{name}");
    }
}

#[test]
fn huge_file_opens_reading_only_the_header() {
    let dir = scratch("huge");
    let path = dir.join("big.b2nd");
    fs::write(&path, fixture("contiguous.b2nd")).unwrap();
    let f = fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(1 << 30).unwrap(); // sparse on disk: nothing to read but zeros
    drop(f);
    let file = open(&path).unwrap();
    assert_eq!(file.file_len, 1 << 30);
    assert!(!file.is_truncated());
    assert_eq!(file.header.names().collect::<Vec<_>>(), ["b2nd"]);
    fs::remove_dir_all(&dir).unwrap();
    assert!(common::alloc::largest_ever() < ALLOC_LIMIT);
}

#[test]
fn header_len_i32_max_in_tiny_input_errors_without_allocating() {
    let mut b = fixture("contiguous.b2nd")[..100].to_vec();
    set_i32(&mut b, 11, i32::MAX);
    set_u64(&mut b, 16, i64::MAX as u64);

    let err = parse_header(&b).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::Truncated { end, available: 100, .. } if *end == i32::MAX as u64),
        "{err}"
    );
    let err = read_header(&b[..]).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::Truncated { available: 100, .. }),
        "{err}"
    );
    let err =
        rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut b), "b2nd", &[0u8; 4]).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::Truncated { .. }),
        "{err}"
    );

    let dir = scratch("i32max");
    let path = dir.join("tiny.b2nd");
    fs::write(&path, &b).unwrap();
    let err = open(&path).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::Truncated { .. }),
        "{err}"
    );
    let err = rewrite_metalayer(&path, "b2nd", &[0; 34]).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::Truncated { .. }),
        "{err}"
    );
    assert_eq!(fs::read(&path).unwrap(), b);
    fs::remove_dir_all(&dir).unwrap();

    assert!(common::alloc::largest_ever() < ALLOC_LIMIT);
}

#[test]
fn header_len_bounds() {
    let base = fixture("contiguous.b2nd");
    for bad in [i32::MIN, -1, 0, 86] {
        let mut b = base.clone();
        set_i32(&mut b, 11, bad);
        let err = parse_header(&b).unwrap_err();
        assert!(
            matches!(err.kind(),
                FrameErrorKind::InvalidField {
                    field: "header_len",
                    ..
                } if err.offset() == Some(11)),
            "{bad}: {err}"
        );
    }
    // header_len larger than frame_len.
    let mut b = base.clone();
    set_u64(&mut b, 16, 145);
    let err = parse_header(&b).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::InvalidField { .. } if err.offset() == Some(11)),
        "{err}"
    );
    // frame_len beyond i64::MAX (C reads it as int64_t).
    let mut b = base.clone();
    set_u64(&mut b, 16, u64::MAX);
    let err = parse_header(&b).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::InvalidField { .. } if err.offset() == Some(16)),
        "{err}"
    );
    // header_len one byte short of the metalayer section: the last content is cut
    // (refused, as C refuses it); one byte past: read, as C reads it, and noted.
    for hl in [145, 147] {
        let mut b = base.clone();
        set_i32(&mut b, 11, hl);
        let parsed = parse_header(&b);
        assert!(
            match &parsed {
                Err(err) => hl == 145 && matches!(err.kind(), FrameErrorKind::OutOfHeader { .. }),
                Ok(h) => hl == 147 && h.info.notes.iter().any(|n| n.offset == 146),
            },
            "{hl}: {parsed:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Bounded reads: the fixed part, then the index, then the contents

#[test]
fn a_bogus_header_len_costs_only_the_bytes_the_checks_need() {
    // A 4 MB "file" whose header claims header_len 2^31 - 1 (and frame_len to match),
    // with a bad byte at 87 and then a bad map16 marker: refused after a few KB.
    let mut bytes = fixture("contiguous.b2nd");
    bytes.resize(4 << 20, 0);
    set_i32(&mut bytes, 11, i32::MAX);
    set_u64(&mut bytes, 16, i32::MAX as u64);
    bytes[87] = 0x00; // noted only: C never reads it
    bytes[91] = 0x00; // the map16 marker C checks
    let mut reader = Counting {
        inner: &bytes[..],
        count: 0,
    };
    let err = read_header(&mut reader).unwrap_err();
    assert_eq!(err.offset(), Some(91), "{err}");
    assert!(reader.count <= 4096, "{} bytes read", reader.count);
    // The same through open: positioned reads, a few KB.
    let dir = scratch("bogus-header-len");
    let path = dir.join("bogus.b2nd");
    fs::write(&path, &bytes).unwrap();
    assert_eq!(open(&path).unwrap_err().offset(), Some(91));
    // With a good index, the contents are read, then the claimed header's end is
    // looked for (and found missing): the file's length, never 2 GiB, is read.
    let mut bytes = fixture("contiguous.b2nd");
    bytes.resize(4 << 20, 0);
    set_i32(&mut bytes, 11, i32::MAX);
    set_u64(&mut bytes, 16, i32::MAX as u64);
    let mut reader = Counting {
        inner: &bytes[..],
        count: 0,
    };
    let err = read_header(&mut reader).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::Truncated { .. }),
        "{err}"
    );
    assert_eq!(reader.count, bytes.len() as u64);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn open_keeps_at_most_content_cap_bytes_of_a_content() {
    // A user metalayer of 3 MiB: open keeps 1 MiB of it, read_content gives the rest.
    let big: Vec<u8> = (0..3u32 << 20).map(|i| (i % 251) as u8).collect();
    let bytes = build(&[(fixstr(b"big"), big.clone()), (fixstr(b"m"), vec![7])]);
    let dir = scratch("content-cap");
    let path = dir.join("big.b2nd");
    fs::write(&path, &bytes).unwrap();
    let frame = open(&path).unwrap();
    let m = frame.header.metalayer("big").unwrap();
    assert_eq!(m.content_len as usize, big.len());
    assert_eq!(m.content, big[..frame::CONTENT_CAP]);
    assert_eq!(frame.header.metalayer("m").unwrap().content, [7]);
    let tail = frame.read_content("big", (2 << 20)..u64::MAX).unwrap();
    assert_eq!(tail, big[2 << 20..]);
    // From a slice or a reader, contents are whole.
    assert_eq!(
        parse_header(&bytes)
            .unwrap()
            .metalayer("big")
            .unwrap()
            .content,
        big
    );
    fs::remove_dir_all(&dir).unwrap();
}
