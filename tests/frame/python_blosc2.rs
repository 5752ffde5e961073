//! Real python-blosc2 files: each fixture read as python-blosc2 and C-Blosc2 read it.

use b2nd_meta::frame::{open, parse_header, read_header, FrameErrorKind, FrameKind};

use crate::common::unhex;
use crate::{data_dir, fixture, meta_hex};

const CONTIGUOUS_B2ND: &str =
    "97000191d3000000000000000a91d20000000591d20000000500db000000033c6934";
const SPARSE_B2ND: &str = "97000292d30000000000000002d3000000000000000392d200000001d20000000392d200000001d20000000300db000000033c6638";
const USERMETA_B2ND: &str = "97000292d30000000000000004d3000000000000000492d200000002d20000000492d200000001d20000000400db000000033c7532";

#[test]
fn contiguous_fixture_matches_python_blosc2() {
    let bytes = fixture("contiguous.b2nd");
    let file = open(data_dir().join("contiguous.b2nd")).unwrap();
    // The three entry points agree.
    assert_eq!(parse_header(&bytes).unwrap(), file.header);
    assert_eq!(read_header(&bytes[..]).unwrap(), file.header);
    assert_eq!(parse_header(&bytes).unwrap(), file.header);

    let i = &file.header.info;
    assert_eq!(i.kind, FrameKind::Contiguous);
    assert_eq!(i.header_len, 146);
    assert_eq!(i.frame_len, 333);
    assert_eq!(file.file_len, 333);
    assert!(!file.is_truncated());
    assert_eq!(file.missing_bytes(), 0);
    assert_eq!(i.version, 2);
    assert!(i.offsets_64bit && !i.variable_chunks && !i.vl_blocks);
    assert_eq!(i.typesize, 4);
    assert_eq!(i.blocksize, 20);
    assert_eq!(i.chunksize, 20);
    assert_eq!(i.nbytes, 40);
    assert_eq!(i.cbytes, 104);
    assert_eq!(i.codec, 1);
    assert_eq!(i.codec.name(), "lz4");
    assert_eq!(i.clevel, 5);
    assert!(!i.use_dict);
    assert_eq!(i.splitmode, 3);
    assert_eq!(i.nfilters, 6);
    assert_eq!(i.filters, [0, 0, 0, 0, 0, 1]);
    assert_eq!(i.filters_meta, [0; 6]);
    assert!(!i.has_vlmetalayers);

    let names: Vec<_> = file.header.names().collect();
    assert_eq!(names, ["b2nd"]);
    let m = &file.header.metalayers[0];
    assert_eq!(m.offset, 107);
    assert_eq!(m.content_offset(), 112);
    assert_eq!(bytes[m.offset as usize], 0xc6);
    assert_eq!(m.content, unhex(CONTIGUOUS_B2ND));
}

#[test]
fn sparse_fixture_matches_python_blosc2() {
    let dir = data_dir().join("sparse.b2nd");
    let file = open(&dir).unwrap();
    assert_eq!(file.header_path, dir.join("chunks.b2frame"));
    let i = &file.header.info;
    assert_eq!(i.kind, FrameKind::Sparse);
    assert_eq!(i.header_len, 165);
    // frame_len covers chunks.b2frame only.
    assert_eq!(i.frame_len, 248);
    assert_eq!(file.file_len, 248);
    assert!(!file.is_truncated());
    assert_eq!(i.typesize, 8);
    assert_eq!(i.blocksize, 24);
    assert_eq!(i.chunksize, 24);
    assert_eq!(i.nbytes, 48);
    assert_eq!(i.cbytes, 112);
    assert_eq!(i.codec, 5);
    assert_eq!(i.codec.name(), "zstd");
    assert_eq!(i.clevel, 3);
    assert!(i.use_dict);
    assert_eq!(i.splitmode, 3);
    assert_eq!(file.header.names().collect::<Vec<_>>(), ["b2nd"]);
    assert_eq!(meta_hex(&file.header, "b2nd"), unhex(SPARSE_B2ND));

    // Its header file is a sparse frame: refused where a contiguous one is expected.
    let err = open(dir.join("chunks.b2frame")).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            FrameErrorKind::WrongKind {
                expected: FrameKind::Contiguous,
                found: FrameKind::Sparse,
                ..
            }
        ),
        "{err}"
    );
    // ... but parses as a buffer, reporting its kind.
    let h = parse_header(&fixture("sparse.b2nd/chunks.b2frame")).unwrap();
    assert_eq!(h, file.header);
}

#[test]
fn usermeta_fixture_matches_python_blosc2() {
    let file = open(data_dir().join("usermeta.b2nd")).unwrap();
    let i = &file.header.info;
    assert_eq!(i.kind, FrameKind::Contiguous);
    assert_eq!((i.header_len, i.frame_len, file.file_len), (235, 360, 360));
    assert_eq!(i.typesize, 2);
    assert_eq!(i.blocksize, 8);
    assert_eq!(i.chunksize, 16);
    assert_eq!(i.nbytes, 32);
    assert_eq!(i.cbytes, 0);
    assert_eq!(i.codec, 0);
    assert_eq!(i.codec.name(), "blosclz");
    assert_eq!(i.clevel, 9);
    assert!(i.has_vlmetalayers);
    let long = "m".repeat(31);
    assert_eq!(
        file.header.names().collect::<Vec<_>>(),
        ["b2nd", "user", long.as_str()]
    );
    assert_eq!(meta_hex(&file.header, "b2nd"), unhex(USERMETA_B2ND));
    assert_eq!(meta_hex(&file.header, "user"), unhex("81a6616e737765722a"));
    assert_eq!(meta_hex(&file.header, &long), unhex("93010203"));
    let offsets: Vec<_> = file.header.metalayers.iter().map(|m| m.offset).collect();
    assert_eq!(offsets, [154, 212, 226]);
}

#[test]
fn udcodec_nibble_takes_code_from_byte_77() {
    // C-Blosc2 writes codecs >= 6 as nibble 6 with the code in byte 77 (seen
    // in a python-blosc2 ZFP_RATE frame: byte 27 = 0x56, byte 77 = 35).
    let mut b = fixture("contiguous.b2nd");
    b[27] = 0x56;
    b[77] = 35;
    let h = parse_header(&b).unwrap();
    assert_eq!(h.info.codec, 35);
    assert_eq!(h.info.codec.name(), "zfp_rate");
    assert_eq!(h.info.clevel, 5);
    // Other nibbles ignore byte 77; unknown codes are named "unknown".
    b[27] = 0x93;
    let h = parse_header(&b).unwrap();
    assert_eq!(
        (h.info.codec.id(), h.info.codec.name(), h.info.clevel),
        (Some(3), "unknown", 9)
    );
}
