//! Tests for `b2nd_meta::frame`.
//!
//! Fixtures in `tests/data/frame/` were written by python-blosc2 4.14.1
//! (C-Blosc2 3.3.5) with `tests/data/frame/gen_fixtures.py`; the expected
//! values below come from that script's output (`expected.json`): sizes, codec
//! and clevel from python-blosc2's `SChunk` properties, and the metalayer
//! content bytes from `blosc2.blosc2_ext.meta__getitem__`, which calls C-Blosc2's
//! `blosc2_meta_get()` in the libblosc2 shipped with python-blosc2 — i.e. C's
//! own header parser, not this crate's.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

mod common;

use common::frame::{build_with, fixstr, set_i32, set_u64, Fixed};

use b2nd_meta::frame::{
    self, open, parse_header, read_header, rewrite_metalayer, rewrite_metalayer_in_slice,
    FrameError, FrameErrorKind, FrameHeader, FrameKind, FIXED_HEADER_LEN,
};
use common::unhex;

// ---------------------------------------------------------------------------
// Largest single allocation seen by this test binary, to prove that bogus
// length fields never turn into big allocations.

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

/// No test in this binary legitimately allocates more than this at once.
const ALLOC_LIMIT: usize = 16 << 20;

// ---------------------------------------------------------------------------
// Helpers

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/frame")
}

fn fixture(rel: &str) -> Vec<u8> {
    fs::read(data_dir().join(rel)).unwrap()
}

/// (name, header bytes) of every fixture's header file.
fn fixture_headers() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("contiguous.b2nd", fixture("contiguous.b2nd")),
        ("sparse.b2nd", fixture("sparse.b2nd/chunks.b2frame")),
        ("usermeta.b2nd", fixture("usermeta.b2nd")),
    ]
}

/// A fresh, empty scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "b2nd-meta-frame-tests-{}-{}",
        std::process::id(),
        test
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(src: &Path, dst: &Path) {
    fs::create_dir_all(dst).unwrap();
    for entry in fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dst.join(entry.file_name())).unwrap();
    }
}

fn snapshot_dir(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

/// A `Read` that counts the bytes it hands out.
struct Counting<R> {
    inner: R,
    count: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// A well-formed header (on the synthetic fixed part: version 2, zstd clevel 1,
/// typesize 8) whose index holds the given already-encoded names.
fn build(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    build_with(&Fixed::default().bytes(), entries).bytes
}

fn simple(names: &[&str]) -> Vec<u8> {
    let entries: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (fixstr(n.as_bytes()), vec![i as u8; i + 1]))
        .collect();
    build(&entries)
}

fn meta_hex(h: &FrameHeader, name: &str) -> Vec<u8> {
    h.metalayer(name).unwrap().content.clone()
}

// ---------------------------------------------------------------------------
// Real python-blosc2 files

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
    assert_eq!(i.codec.code, 1);
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
    assert_eq!(i.codec.code, 5);
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
    assert_eq!(i.codec.code, 0);
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
    assert_eq!(h.info.codec.code, 35);
    assert_eq!(h.info.codec.name(), "zfp_rate");
    assert_eq!(h.info.clevel, 5);
    // Other nibbles ignore byte 77; unknown codes are named "unknown".
    b[27] = 0x93;
    let h = parse_header(&b).unwrap();
    assert_eq!(
        (h.info.codec.code, h.info.codec.name(), h.info.clevel),
        (3, "unknown", 9)
    );
}

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
    let err = rewrite_metalayer_in_slice(&mut b, "b2nd", &[0u8; 4]).unwrap_err();
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
// Truncation and corruption

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
            assert!(rewrite_metalayer_in_slice(&mut copy, "b2nd", &[]).is_err());
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
                let _ = rewrite_metalayer_in_slice(&mut copy, "b2nd", &[0; 3]);
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

// ---------------------------------------------------------------------------
// Hand-crafted metalayer sections

#[test]
fn handcrafted_header_roundtrips() {
    let h = parse_header(&simple(&["a", "bb", "ccc"])).unwrap();
    assert_eq!(h.names().collect::<Vec<_>>(), ["a", "bb", "ccc"]);
    assert_eq!(h.metalayer("bb").unwrap().content, [1, 1]);
    assert_eq!(h.info.nthreads_comp, 2);
    assert_eq!(h.info.nthreads_decomp, 3);
    assert_eq!(h.info.splitmode, 4);
    // No metalayers, an empty content, and exactly 16 metalayers are fine.
    assert!(parse_header(&build(&[])).unwrap().metalayers.is_empty());
    let h = parse_header(&build(&[(fixstr(b""), vec![])])).unwrap();
    assert_eq!(
        (h.metalayers[0].name.as_str(), h.metalayers[0].content.len()),
        ("", 0)
    );
    let names: Vec<String> = (0..16).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(parse_header(&simple(&refs)).unwrap().metalayers.len(), 16);
}

#[test]
fn name_of_31_bytes_ok_32_bytes_error() {
    let n31 = [b'x'; 31];
    let h = parse_header(&build(&[(fixstr(&n31), vec![7])])).unwrap();
    assert_eq!(h.metalayers[0].name, "x".repeat(31));
    assert_eq!(h.metalayers[0].content, [7]);

    // 32 bytes cannot be a fixstr; msgpack would use str8 (0xd9).
    let mut str8 = vec![0xd9, 32];
    str8.extend_from_slice(&[b'x'; 32]);
    let err = parse_header(&build(&[(str8, vec![7])])).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::NameTooLong {
                len: 32
            } if err.offset() == Some(94)),
        "{err}"
    );

    let mut str16 = vec![0xda, 0, 40];
    str16.extend_from_slice(&[b'x'; 40]);
    let err = parse_header(&build(&[(str16, vec![])])).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::NameTooLong { len: 40, .. }),
        "{err}"
    );

    // Other markers are not names at all.
    let err = parse_header(&build(&[(vec![0xc4, 1, b'x'], vec![])])).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::BadMarker {
                found: 0xc4,
                ..
            } if err.offset() == Some(94)),
        "{err}"
    );
}

#[test]
fn names_are_read_as_c_blosc2_reads_them_and_noted() {
    // Not UTF-8: read (C holds bytes), shown with U+FFFD, noted where the bytes are.
    let h = parse_header(&build(&[(fixstr(&[0xff, 0xfe]), vec![])])).unwrap();
    assert_eq!(h.metalayers[0].name, "\u{fffd}\u{fffd}");
    assert_eq!(h.info.notes[0].offset, 95);
    // A NUL: C's name ends there.
    let h = parse_header(&build(&[(fixstr(b"a\0b"), vec![])])).unwrap();
    assert_eq!(h.metalayers[0].name, "a");
    assert_eq!(h.info.notes[0].offset, 96);
    // Twice the same name: both kept, the first found (as blosc2_meta_get finds it).
    let h = parse_header(&simple(&["b2nd", "x", "b2nd"])).unwrap();
    assert_eq!(h.names().collect::<Vec<_>>(), ["b2nd", "x", "b2nd"]);
    assert_eq!(h.metalayer("b2nd").unwrap().content, [0]);
    assert!(h.info.notes[0]
        .note
        .contains("second metalayer named \"b2nd\""));
    // Non-ASCII UTF-8 is fine.
    let h = parse_header(&build(&[(fixstr("métá".as_bytes()), vec![1])])).unwrap();
    assert_eq!(h.metalayers[0].name, "métá");
    assert!(h.info.notes.is_empty());
}

#[test]
fn metalayer_counts_are_checked_or_noted() {
    // 17 in both places.
    let names: Vec<String> = (0..17).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let err = parse_header(&simple(&refs)).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::TooManyMetalayers {
                count: 17
            } if err.offset() == Some(92)),
        "{err}"
    );

    // The contents array count disagrees with the index.
    let mut h = simple(&["a", "b"]);
    let dc = FIXED_HEADER_LEN + 7 + 2 * 7;
    assert_eq!(h[dc], 0xdc);
    h[dc + 2] = 1;
    // C never reads it: read, and noted.
    let notes = parse_header(&h).unwrap().info.notes;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].offset, dc as u64 + 1);
    assert!(notes[0]
        .note
        .contains("holds 1 metalayers, but the index holds 2"));

    // A huge count in the index with a small header.
    let mut h = simple(&["a"]);
    h[92..94].copy_from_slice(&u16::MAX.to_be_bytes());
    assert!(matches!(
        parse_header(&h).unwrap_err().kind(),
        FrameErrorKind::TooManyMetalayers {
            count: u16::MAX,
            ..
        }
    ));

    // Index size that does not match the index.
    let mut h = simple(&["a"]);
    h[89..91].copy_from_slice(&13u16.to_be_bytes());
    // C never reads it: read, and noted.
    let notes = parse_header(&h).unwrap().info.notes;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].offset, 89);
    assert!(notes[0]
        .note
        .contains("index size is 13, but the index spans 14 bytes"));
}

#[test]
fn offsets_and_lengths_never_point_outside_the_header() {
    // Entry layout for name "a": 0xa1 'a' 0xd2 [offset at 97..101].
    let base = simple(&["a", "b"]);
    let header_len = base.len() as i32;
    for bad in [i32::MIN, -1, header_len, header_len + 1, i32::MAX] {
        let mut h = base.clone();
        set_i32(&mut h, 97, bad);
        let err = parse_header(&h).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::OffsetOutsideHeader { value, .. } if *value == bad && err.offset() == Some(97)),
            "{bad}: {err}"
        );
    }
    // In the header but not where the content is (e.g. swapped, or pointing
    // at some other 0xc6 or into the fixed part).
    let first = i32::from_be_bytes(base[97..101].try_into().unwrap());
    let second = i32::from_be_bytes(base[104..108].try_into().unwrap());
    // C checks that an offset points at a bin32 (0xc6) content inside the header,
    // nothing more: elsewhere it is refused at the byte pointed at, at the other
    // content it is read (and noted).
    for bad in [0, 50, first + 1] {
        let mut h = base.clone();
        set_i32(&mut h, 97, bad);
        let err = parse_header(&h).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::BadMarker { .. } if err.offset() == Some(bad as u64)),
            "{bad}: {err}"
        );
    }
    let mut h = base.clone();
    set_i32(&mut h, 97, second);
    let header = parse_header(&h).unwrap();
    assert_eq!(header.metalayers[0].content, header.metalayers[1].content);
    assert!(header.info.notes.iter().any(|n| n.offset == second as u64));
    // Contents C reads elsewhere than where it writes them are not rewritten in place.
    assert!(!header.info.contents_as_c_writes);
    let before = h.clone();
    let err = rewrite_metalayer_in_slice(&mut h, "b", &[9, 9]).unwrap_err();
    assert!(matches!(err.kind(), FrameErrorKind::UnusualLayout), "{err}");
    assert_eq!(h, before);
    assert!(parse_header(&base).unwrap().info.contents_as_c_writes);
    // Content lengths: negative, past the header, overflowing.
    let c0 = first as usize;
    // One byte longer runs into the next content's marker: inside the header, C reads
    // it so (and the next content from its own offset); noted.
    let mut h = base.clone();
    set_i32(&mut h, c0 + 1, 2);
    let header = parse_header(&h).unwrap();
    assert_eq!(header.metalayers[0].content, [0, 0xc6]);
    assert_eq!(header.metalayers[1].content, [1, 1]);
    assert!(!header.info.notes.is_empty());
    for bad in [-1, i32::MIN, 1000, i32::MAX] {
        let mut h = base.clone();
        set_i32(&mut h, c0 + 1, bad);
        let err = parse_header(&h).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                FrameErrorKind::InvalidField { .. }
                    | FrameErrorKind::OutOfHeader { .. }
                    | FrameErrorKind::BadMarker { .. }
            ),
            "{bad}: {err}"
        );
    }
    let mut h = base.clone();
    set_i32(&mut h, c0 + 1, i32::MAX);
    assert!(matches!(parse_header(&h).unwrap_err().kind(),
        FrameErrorKind::OutOfHeader { end, .. } if *end == (c0 + 5) as u64 + i32::MAX as u64
    ));
    // A wrong content marker.
    let mut h = base.clone();
    h[c0] = 0xc5;
    assert!(matches!(
        parse_header(&h).unwrap_err().kind(),
        FrameErrorKind::BadMarker { found: 0xc5, .. }
    ));
    assert!(common::alloc::largest_ever() < ALLOC_LIMIT);
}

// ---------------------------------------------------------------------------
// In-place rewrite

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
            rewrite_metalayer_in_slice(&mut buf, &m.name, &new).unwrap();
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
        assert!(rewrite_metalayer_in_slice(&mut buf, "b2nd", &vec![0u8; len]).is_err());
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

#[test]
fn constants_match_c_blosc2() {
    assert_eq!(frame::FIXED_HEADER_LEN, 87);
    assert_eq!(frame::MAX_METALAYERS, 16);
    assert_eq!(frame::METALAYER_NAME_MAXLEN, 31);
    assert_eq!(frame::MAX_FILTERS, 6);
    assert_eq!(frame::SPARSE_HEADER_FILE, "chunks.b2frame");
}

// ---------------------------------------------------------------------------
// Special files: refused at once, before anything is opened (a FIFO never blocks)

#[test]
fn special_files_are_refused_at_once() {
    let dir = scratch("special");
    let fifo = dir.join("fifo.b2nd");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let sock = dir.join("socket.b2nd");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    // A directory whose chunks.b2frame is a FIFO.
    let sparse = dir.join("sparse_fifo.b2nd");
    fs::create_dir(&sparse).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(sparse.join("chunks.b2frame"))
        .status()
        .unwrap();
    assert!(status.success());
    for (path, what) in [
        (fifo.as_path(), "a FIFO"),
        (sock.as_path(), "a socket"),
        (Path::new("/dev/null"), "a character device"),
        (sparse.as_path(), "a FIFO"),
    ] {
        let err = open(path).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::NotAFile { file_type } if *file_type == what),
            "{}: {err}",
            path.display()
        );
        assert!(err.path().is_some(), "{err}");
        assert!(rewrite_metalayer(path, "b2nd", &[]).is_err());
    }
    // A directory that is not a sparse frame: an I/O error naming chunks.b2frame.
    let empty = dir.join("empty_dir");
    fs::create_dir(&empty).unwrap();
    let err = open(&empty).unwrap_err();
    assert!(matches!(err.kind(), FrameErrorKind::Io(_)), "{err}");
    assert!(err.path().unwrap().ends_with("chunks.b2frame"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------
// Which metalayer is the array's

#[test]
fn a_caterva_user_metalayer_beside_b2nd_is_user_data() {
    // blosc2.zeros(..., meta={"caterva": [0, 1, 2]}): b2nd is the array's, as C-Blosc2
    // and python-blosc2 choose it; the caterva list is user data.
    let b2nd = b2nd_meta::to_vec(&b2nd_meta::MetaB2ndV1::new(
        vec![10],
        vec![10],
        vec![10],
        "<f8",
    ))
    .unwrap();
    for order in [["b2nd", "caterva"], ["caterva", "b2nd"]] {
        let content = |name: &str| {
            if name == "b2nd" {
                b2nd.clone()
            } else {
                vec![0x93, 0, 1, 2]
            }
        };
        let entries: Vec<_> = order
            .iter()
            .map(|n| (fixstr(n.as_bytes()), content(n)))
            .collect();
        let header = parse_header(&build(&entries)).unwrap();
        assert_eq!(header.array_metalayer().unwrap().name, "b2nd");
        assert_eq!(header.array_meta().unwrap().shape(), [10]);
        let user: Vec<_> = header.user_metalayers().map(|m| m.name.as_str()).collect();
        assert_eq!(user, ["caterva"]);
    }
    // Without b2nd, caterva is the array's.
    let caterva = b2nd_meta::to_vec(&b2nd_meta::MetaV0Caterva {
        shape: vec![4].into(),
        chunkshape: vec![2].into(),
        blockshape: vec![2].into(),
    })
    .unwrap();
    let header = parse_header(&build(&[(fixstr(b"caterva"), caterva)])).unwrap();
    assert_eq!(header.array_metalayer().unwrap().name, "caterva");
    assert_eq!(header.user_metalayers().count(), 0);
}

// ---------------------------------------------------------------------------
// The array metalayer against the frame

#[test]
fn a_shape_resized_across_the_chunk_grid_is_flagged() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus/rewrite_2d_before.b2nd");
    let mut bytes = fs::read(src).unwrap();
    let before = parse_header(&bytes).unwrap();
    assert_eq!(
        frame::check_array(&before.info, &before.array_meta().unwrap()),
        []
    );
    // (10, 7) in chunks of (4, 4) -> (12, 8): same grid, nothing to flag.
    frame::set_shape_in_slice(&mut bytes, &[12, 8]).unwrap();
    let h = parse_header(&bytes).unwrap();
    assert_eq!(frame::check_array(&h.info, &h.array_meta().unwrap()), []);
    // (13, 8) without rewriting the chunks: the grid holds 4 x 2 chunks, nbytes 3 x 2.
    // set_shape refuses a grid change (Regrid went with frame-write): patch shape[0], the
    // first int64 (0xd3 + 8 bytes big-endian) after 0x97, version, ndim and 0x92.
    let layer = h.array_metalayer().unwrap();
    let mut content = layer.content.clone();
    assert_eq!(content[..5], [0x97, 0x00, 0x02, 0x92, 0xd3]);
    content[5..13].copy_from_slice(&13i64.to_be_bytes());
    frame::rewrite_metalayer_in_slice(&mut bytes, &layer.name.clone(), &content).unwrap();
    let h = parse_header(&bytes).unwrap();
    assert_eq!(h.array_meta().unwrap().shape(), [13, 8]);
    let m = frame::check_array(&h.info, &h.array_meta().unwrap());
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].field, "nbytes");
    assert_eq!(m[0].expected, 4 * 2 * i128::from(h.info.chunksize));
    assert_eq!(m[0].found, i128::from(h.info.nbytes));
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
