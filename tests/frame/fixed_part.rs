//! The fixed part of the header: its values checked as C-Blosc2 checks them, and the
//! constants it is laid out by.

use b2nd_meta::frame::{self, parse_header};

use crate::fixture;

// ---------------------------------------------------------------------------
// Fixed-part field checks

/// What a fixed-part value does: refused at an offset as C-Blosc2 refuses it, or read
/// and noted at an offset (C does not check it), or simply read.
#[derive(Debug, PartialEq)]
enum Verdict {
    Refused(u64),
    Noted(u64),
    Read,
}

#[test]
fn fixed_part_values_are_checked_as_c_blosc2_checks_them() {
    use Verdict::*;
    // The fixture has nbytes 40, chunksize 20: data, so C checks chunksize and cbytes.
    let base = fixture("contiguous.b2nd");
    #[rustfmt::skip]
    let cases: &[(usize, &[u8], Verdict)] = &[
        (25, &[0x10], Noted(25)),              // version 0: C only refuses > 3
        (25, &[0x14], Refused(25)),            // version 4
        (25, &[0x1f], Refused(25)),            // version 15
        (25, &[0x11], Read), (25, &[0x13], Read), (25, &[0x53], Read), (25, &[0x93], Read),
        (26, &[2], Refused(26)),               // frame type
        (30, &(-1i64).to_be_bytes(), Noted(30)), // nbytes -1: C reads "no data"
        (39, &i64::MIN.to_be_bytes(), Refused(39)), // cbytes < 0 with data
        (48, &0i32.to_be_bytes(), Refused(48)),  // typesize 0
        (48, &(-1i32).to_be_bytes(), Refused(48)), // typesize -1
        (53, &(-8i32).to_be_bytes(), Noted(53)), // blocksize: C does not check
        (58, &(-1i32).to_be_bytes(), Refused(58)), // chunksize < 0 with data
        (68, &[0xc4], Noted(68)),              // has_vlmetalayers: C does not check
        (70, &[7], Refused(70)),               // 7 filters
    ];
    for (at, bytes, verdict) in cases {
        let mut b = base.clone();
        b[*at..at + bytes.len()].copy_from_slice(bytes);
        let got = match parse_header(&b) {
            Err(e) => Refused(e.offset().unwrap()),
            Ok(h) if h.info.notes.is_empty() => Read,
            Ok(h) => Noted(h.info.notes[0].offset),
        };
        assert_eq!(&got, verdict, "byte {at} = {bytes:02x?}");
    }
    for v in [0x11u8, 0x13, 0x53, 0x93] {
        let mut b = base.clone();
        b[25] = v;
        let h = parse_header(&b).unwrap();
        assert_eq!(h.info.version, v & 0x0f);
        assert_eq!(h.info.variable_chunks, v & 0x40 != 0);
        assert_eq!(h.info.vl_blocks, v & 0x80 != 0);
    }
    // Without data (nbytes 0) C checks neither chunksize nor cbytes: caterva 0.7.3
    // writes chunksize -1 for an empty array.
    let mut b = base.clone();
    b[30..38].copy_from_slice(&0i64.to_be_bytes());
    b[58..62].copy_from_slice(&(-1i32).to_be_bytes());
    assert_eq!(parse_header(&b).unwrap().info.chunksize, -1);

    // A bool of 0xc3 and use_dict are decoded.
    let mut b = base.clone();
    b[68] = 0xc3;
    b[85] = 1;
    let h = parse_header(&b).unwrap();
    assert!(h.info.has_vlmetalayers && h.info.use_dict);
}

#[test]
fn constants_match_c_blosc2() {
    assert_eq!(frame::FIXED_HEADER_LEN, 87);
    assert_eq!(frame::MAX_METALAYERS, 16);
    assert_eq!(frame::METALAYER_NAME_MAXLEN, 31);
    assert_eq!(b2nd_meta::blosc::MAX_FILTERS, 6);
    assert_eq!(frame::SPARSE_HEADER_FILE, "chunks.b2frame");
}
