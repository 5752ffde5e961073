//! Any bytes parse to a frame header or an error, never a panic. An accepted header
//! holds metalayer contents that are the bytes at their offsets, inside header_len;
//! read_header agrees with parse_header; rewriting a content with its own bytes, or
//! the array's shape with its own shape, changes nothing; and the array metalayer
//! decodes to a value that re-encodes to the start of its content (stale bytes may
//! follow, as in C-Blosc2) and can be validated.
#![no_main]

use b2nd_meta::frame::{self, FrameHeader};
use libfuzzer_sys::fuzz_target;

fn check(header: &FrameHeader, data: &[u8]) {
    let header_len = header.info.header_len as usize;
    assert!(header_len >= frame::FIXED_HEADER_LEN && header_len <= data.len());
    assert!(header.metalayers.len() <= frame::MAX_METALAYERS);
    for m in &header.metalayers {
        // At most 31 bytes on disk; a byte that is not UTF-8 is one U+FFFD.
        assert!(m.name.chars().count() <= frame::METALAYER_NAME_MAXLEN);
        assert!(!m.name.contains('\0'));
        let start = m.content_offset() as usize;
        let end = start + m.content.len();
        assert_eq!(m.content.len(), m.content_len as usize);
        assert!(end <= header_len);
        assert_eq!(&data[start..end], &m.content[..]);
        // A repeated name finds its first metalayer, as in C-Blosc2: only that one is
        // rewritten with its own bytes here.
        if !std::ptr::eq(header.metalayer(&m.name).unwrap(), m) {
            continue;
        }
        let mut copy = data.to_vec();
        let rewritten = frame::rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut copy), &m.name, &m.content);
        // Rewritten in place only where C-Blosc2 lays the contents out.
        assert_eq!(rewritten.is_ok(), header.info.contents_as_c_writes);
        assert_eq!(copy, data);
    }
    if !header.info.contents_as_c_writes {
        return;
    }
    if let Ok(meta) = header.array_meta() {
        let content = &header.array_metalayer().unwrap().content;
        // The metalayer, then any stale bytes (C-Blosc2 ignores them; set_shape keeps them).
        let encoded = b2nd_meta::to_vec(&meta).unwrap();
        assert!(
            content.starts_with(&encoded),
            "{encoded:02x?} / {content:02x?}"
        );
        let _ = meta.validate_with_typesize(header.info.typesize.into());
        let mut copy = data.to_vec();
        // `set_shape` takes `u64`: a negative length wraps past i64::MAX and is refused.
        let unsigned = |shape: &[i64]| shape.iter().map(|&s| s as u64).collect::<Vec<u64>>();
        if let Ok(again) = frame::set_shape(b2nd_meta::frame::Target::bytes(&mut copy), &unsigned(meta.shape())) {
            assert_eq!(again, meta);
            assert_eq!(copy, data);
        }
        // Another shape: if accepted, only the array metalayer's content changed, and
        // reading the header again gives the new shape.
        let layer = header.array_metalayer().unwrap();
        let (start, end) = (layer.content_offset() as usize, layer.content.len());
        let new_shape: Vec<i64> = meta.shape().iter().map(|&s| s.wrapping_add(1)).collect();
        let mut copy = data.to_vec();
        if frame::set_shape(b2nd_meta::frame::Target::bytes(&mut copy), &unsigned(&new_shape)).is_ok() {
            assert_eq!(copy[..start], data[..start]);
            assert_eq!(copy[start + end..], data[start + end..]);
            let reread = frame::parse_header(&copy).unwrap().array_meta().unwrap();
            assert_eq!(reread.shape(), &new_shape[..]);
        } else {
            assert_eq!(copy, data);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let parsed = frame::parse_header(data);
    let read = frame::read_header(data);
    match (&parsed, &read) {
        (Ok(p), Ok(r)) => {
            assert_eq!(p, r);
            check(p, data);
        }
        (Err(p), Err(r)) => assert_eq!(p.to_string(), r.to_string()),
        _ => panic!("parse_header: {parsed:?}, read_header: {read:?}"),
    }
});
