//! What issue 31's fuzz targets found (fuzz/fuzz_targets/vlmeta_frame.rs): a frame_len
//! past the end of the input made the trailer read through a reader say the input held
//! as many bytes as the offset it tried (43,980,465,112,150), where the trailer parsed
//! from memory said 1,135; both now say where the input ends.

use std::io::Cursor;

use b2nd_meta::frame::{self, FrameErrorKind};

use crate::common::data_path;
use crate::common::scratch::Scratch;

#[test]
fn a_frame_len_past_the_input_says_where_the_input_ends_read_or_parsed() {
    let real = "values/blosc2-4.14.1/vlmeta_small.b2nd";
    let mut bytes = std::fs::read(data_path(real)).unwrap();
    // frame_len (uint64 at bytes 16..24): 1135 + 0x28 << 40.
    bytes[18] ^= 0x28;
    let header = frame::parse_header(&bytes).unwrap();
    assert_eq!(header.info.frame_len, 1135 + (0x28 << 40));
    let file = Scratch::of(real, "fuzzed-frame-len");
    std::fs::write(&file.0, &bytes).unwrap();

    let parsed = frame::parse_trailer(&bytes, &header).unwrap_err();
    let read = frame::read_trailer(Cursor::new(&bytes), &header).unwrap_err();
    let from_file = frame::read_trailer(std::fs::File::open(&file.0).unwrap(), &header);
    let from_file = from_file.unwrap_err();
    for e in [&parsed, &read, &from_file] {
        assert!(
            matches!(
                e.kind(),
                FrameErrorKind::Truncated {
                    available: 1135,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.offset(), Some(1135 + (0x28 << 40) - 25));
    }
    assert_eq!(read.to_string(), parsed.to_string());
    assert_eq!(from_file.to_string(), parsed.to_string());
}
