//! Any bytes after a real header: the trailer parses or is an error, never a panic,
//! and the in-memory and reader paths agree. An accepted trailer lies inside the frame,
//! each vlmetalayer's content is the bytes at its offset, and every chunk decodes or is
//! an error, never producing more than its header's nbytes. The raw input is also
//! decoded as a chunk on its own.
#![no_main]

use std::io::Cursor;

use b2nd_meta::chunk;
use b2nd_meta::frame::{self, FrameHeader};
use libfuzzer_sys::fuzz_target;

/// A header of python-blosc2 4.14.1 (an array with vlmeta): the fuzzed bytes follow it,
/// and frame_len is set to the whole input's length.
const HEADER: &[u8] = include_bytes!("../../tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");

fn check_chunk(bytes: &[u8]) {
    if let (Ok(header), Ok(out)) = (chunk::ChunkHeader::parse(bytes), chunk::decode(bytes, &chunk::DecodeBudget::default())) {
        assert_eq!(out.len(), header.nbytes as usize);
        assert!(header.cbytes as usize <= bytes.len());
    }
}

fuzz_target!(|data: &[u8]| {
    check_chunk(data);
    let Ok(real) = frame::parse_header(HEADER) else {
        return;
    };
    let header_len = real.info.header_len as usize;
    let mut frame_bytes = HEADER[..header_len].to_vec();
    frame_bytes.extend_from_slice(data);
    let mut header: FrameHeader = real;
    header.info.frame_len = frame_bytes.len() as u64;
    // Half the inputs as an empty frame: the trailer then starts right after the header.
    if data.first().is_some_and(|b| b & 1 == 1) {
        header.info.nbytes = 0;
    }
    let parsed = frame::parse_trailer(&frame_bytes, &header);
    let read = frame::read_trailer(Cursor::new(&frame_bytes), &header);
    match (&parsed, &read) {
        (Ok(p), Ok(r)) => assert_eq!(p, r),
        (Err(p), Err(r)) => assert_eq!(p.to_string(), r.to_string()),
        _ => panic!("parse_trailer: {parsed:?}, read_trailer: {read:?}"),
    }
    if let Ok(trailer) = parsed {
        assert!(trailer.offset + u64::from(trailer.len) <= header.info.frame_len);
        for vl in &trailer.vlmetalayers {
            let start = vl.content_offset() as usize;
            assert_eq!(
                &frame_bytes[start..start + vl.content.len()],
                &vl.content[..]
            );
            check_chunk(&vl.content);
            let _ = vl.decode();
        }
    }
});
