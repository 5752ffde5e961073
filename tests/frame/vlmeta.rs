//! Variable-length metalayers against python-blosc2: every vlmeta value of
//! tests/data/values/expected.json (python-blosc2 2.7.1, 3.0.0, 3.12.2 and 4.14.1,
//! contiguous and sparse) decodes to the msgpack bytes python wrote; truncations and
//! byte changes of the trailers are errors or values, never panics, and allocate
//! boundedly.

use crate::common;

use std::io::Cursor;

use b2nd_meta::frame::{self, FrameErrorKind, FrameHeader};
use common::{data_path, unhex};

/// The value `f` returns and the largest single allocation this thread made meanwhile.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (value, stats) = common::alloc::measure(f);
    (value, stats.peak)
}

fn expected() -> serde_json::Value {
    let path = data_path("values/expected.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The bytes that hold the header and trailer: the file, or a sparse frame's
/// `chunks.b2frame`.
fn frame_bytes(path: &str) -> Vec<u8> {
    let p = data_path(path);
    let p = if p.is_dir() {
        p.join(frame::SPARSE_HEADER_FILE)
    } else {
        p
    };
    std::fs::read(p).unwrap()
}

#[test]
fn every_vlmeta_of_every_producer_decodes_to_python_msgpack() {
    let expected = expected();
    let (mut checked, mut other_codecs) = (0, 0);
    let mut producers = std::collections::BTreeSet::new();
    for file in expected["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let frame = frame::open(data_path(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            frame.header.info.kind.to_string(),
            file["kind"].as_str().unwrap(),
            "{path}"
        );
        let vlmeta = file["vlmeta"].as_object().cloned().unwrap_or_default();
        let mut names = frame
            .vlmeta_names()
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        names.sort();
        let mut want: Vec<&String> = vlmeta.keys().collect();
        want.sort();
        assert_eq!(names.iter().collect::<Vec<_>>(), want, "{path}");
        assert_eq!(
            frame.header.info.has_vlmetalayers,
            !vlmeta.is_empty(),
            "{path}"
        );
        let trailer = frame.trailer().unwrap();
        for (name, expected) in &vlmeta {
            let vl = trailer.vlmetalayer(name).unwrap();
            let header = &expected["chunk_header"];
            // python-blosc2 lets a user pick other cparams for one value: every codec
            // and bitshuffle decode.
            let codec = header["codec"].as_str().unwrap();
            let bitshuffle = header["filters"].as_array().unwrap().contains(&2.into());
            if header["memcpyed"] != true && (codec != "zstd" || bitshuffle) {
                other_codecs += 1;
            }
            let decoded = vl.decode().unwrap_or_else(|e| panic!("{path} {name}: {e}"));
            if let Some(hex) = expected["hex"].as_str() {
                assert_eq!(decoded, unhex(hex), "{path} {name}");
            }
            assert_eq!(decoded.len() as u64, header["nbytes"].as_u64().unwrap());
            assert_eq!(vl.content.len() as u64, header["cbytes"].as_u64().unwrap());
            let memcpyed = expected["chunk"] == "memcpyed";
            assert_eq!(
                header["memcpyed"].as_bool(),
                Some(memcpyed),
                "{path} {name}"
            );
            assert_eq!(frame.vlmeta_bytes(name).unwrap(), decoded);
            // The value type, serialized, is python's value in the JSON mapping.
            let value = vl.value().unwrap_or_else(|e| panic!("{path} {name}: {e}"));
            let json = serde_json::to_value(&value).unwrap();
            assert_eq!(json, expected["json"], "{path} {name}");
            let again = frame.vlmeta_value(name).unwrap();
            assert_eq!(serde_json::to_value(&again).unwrap(), json, "{path} {name}");
            checked += 1;
        }
        if !vlmeta.is_empty() {
            producers.insert(path.split('/').nth(1).unwrap().to_string());
        }
    }
    assert!(checked >= 100, "only {checked} values checked");
    assert!(
        other_codecs >= 5,
        "only {other_codecs} values of other codecs"
    );
    assert_eq!(producers.len(), 4, "{producers:?}");
}

#[test]
fn a_vlmeta_chunk_of_an_unknown_codec_is_named() {
    let frame = frame::open(data_path("values/blosc2-4.14.1/vlmeta_codecs.b2nd")).unwrap();
    let trailer = frame.trailer().unwrap();
    let mut chunk = trailer.vlmetalayer("lz4").unwrap().content.to_vec();
    chunk[2] = (chunk[2] & 0x1f) | (7 << 5); // codec format 7: not one C-Blosc2 knows
    let err =
        b2nd_meta::chunk::decode(&chunk, &b2nd_meta::chunk::DecodeBudget::default()).unwrap_err();
    assert_eq!(
        (err.offset(), err.to_string()),
        (
            Some(2),
            "the chunk is compressed with reserved codec format 7, which is not decoded at byte 2"
                .to_string()
        )
    );
}

#[test]
fn vlmeta_as_serde_types() {
    let frame = frame::open(data_path("values/blosc2-4.14.1/vlmeta_small.b2nd")).unwrap();
    assert_eq!(frame.vlmeta::<String>("str").unwrap(), "hello");
    assert_eq!(frame.vlmeta::<i64>("int").unwrap(), 42);
    assert_eq!(frame.vlmeta::<Option<u8>>("none").unwrap(), None);
    assert!(frame.vlmeta::<f64>("nan").unwrap().is_nan());
    let err = frame.vlmeta::<i64>("str").unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::VlmetaValue { .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("vlmetalayer \"str\" does not decode: "),
        "{err}"
    );
}

#[test]
fn in_memory_and_file_reads_agree() {
    for file in expected()["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let bytes = frame_bytes(path);
        let header = frame::parse_header(&bytes).unwrap();
        let in_memory = frame::parse_trailer(&bytes, &header).unwrap();
        let from_reader = frame::read_trailer(Cursor::new(&bytes), &header).unwrap();
        assert_eq!(in_memory, from_reader, "{path}");
        assert_eq!(
            in_memory.offset + u64::from(in_memory.len),
            header.info.frame_len,
            "{path}"
        );
    }
}

#[test]
fn unknown_names_and_errors_name_the_place() {
    let frame = frame::open(data_path("values/blosc2-4.14.1/vlmeta_small.b2nd")).unwrap();
    let err = frame.vlmeta_bytes("absent").unwrap_err();
    assert!(matches!(
        err.kind(),
        FrameErrorKind::UnknownVlmetalayer { .. }
    ));
    assert_eq!(err.to_string(), "no vlmetalayer named \"absent\"");

    let mut bytes = frame_bytes("values/blosc2-4.14.1/vlmeta_small.b2nd");
    let header = frame::parse_header(&bytes).unwrap();
    let trailer = frame::parse_trailer(&bytes, &header).unwrap();
    // (offset in the trailer, new byte, frame offset of the error, message)
    let t = trailer.offset;
    let first = &trailer.vlmetalayers[0];
    let (c, cc) = (first.offset, first.content_offset());
    #[rustfmt::skip]
    let cases: Vec<(u64, u8, u64, String)> = vec![
        (t, 0x93, t, "expected fixarray of 4 (0x94) starting the trailer, found 0x93 (fixarray)".into()),
        (t + 1, 0xcc, t + 1, "expected positive fixint (the trailer version), found 0xcc (uint8)".into()),
        (t + 6, 0xdf, t + 6, "expected map16 (0xde) starting the vlmetalayer index, found 0xdf (map32)".into()),
        (t + 9, 0xd9, t + 9, "expected fixstr (0xa0..=0xbf) for a vlmetalayer name, found 0xd9 (str8)".into()),
        (c, 0xc4, c, "expected bin32 (0xc6) for a vlmetalayer content, found 0xc4 (bin8)".into()),
        (cc + 3, 0, cc + 3, format!("vlmetalayer {:?} does not decode: expected typesize at least 1, found 0 (byte 3 of its chunk, which starts at frame byte {cc})", first.name)),
    ];
    let original = bytes.clone();
    for (at, value, offset, message) in cases {
        bytes.copy_from_slice(&original);
        bytes[at as usize] = value;
        let err = frame::parse_trailer(&bytes, &header)
            .and_then(|t| t.vlmetalayers.iter().try_for_each(|v| v.decode().map(drop)))
            .unwrap_err();
        assert_eq!(
            (err.offset(), err.to_string()),
            (Some(offset), format!("{message} at byte {offset}"))
        );
    }
}

/// Names and values, in index order.
type Named = Vec<(String, serde_json::Value)>;

/// What a frame's vlmeta reads as, name by name in index order (a name twice, twice),
/// and each name's value as a lookup gives it.
fn entries(path: &std::path::Path) -> (Named, Named) {
    let file = frame::open(path).unwrap();
    let trailer = file.trailer().unwrap();
    let all = trailer
        .vlmetalayers
        .iter()
        .map(|m| (m.name.clone(), m.deserialize().unwrap()))
        .collect();
    let looked_up = trailer
        .names()
        .map(|n| (n.to_string(), file.vlmeta(n).unwrap()))
        .collect();
    (all, looked_up)
}

/// python-blosc2's reading of a file in verdicts.json: its names and each name's value.
fn python_reads(verdict: &serde_json::Value) -> Named {
    let keys = verdict["keys"].as_array().unwrap();
    keys.iter()
        .map(|k| {
            let k = k.as_str().unwrap();
            (k.to_string(), verdict["get"][k].clone())
        })
        .collect()
}

#[test]
fn a_name_twice_in_the_vlmeta_index_reads_and_changes_as_python_blosc2_and_c_do() {
    // C-Blosc2 opens such a frame and takes a name's first entry (tests/data/vlmeta_dup).
    let text = std::fs::read_to_string(data_path("vlmeta_dup/verdicts.json")).unwrap();
    let verdicts: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (all, looked_up) = entries(&data_path("vlmeta_dup/dup.b2nd"));
    assert_eq!(looked_up, python_reads(&verdicts["dup.b2nd"]));
    assert_eq!(all, [("aa".into(), 1.into()), ("aa".into(), 2.into())]);
    // Set and delete take the first entry: our file holds what python's does, and reads
    // as python reads its own.
    type Change = fn(&std::path::Path) -> Result<b2nd_meta::vlmeta::VlmetaPlan, frame::FrameError>;
    let changes: [(&str, Change); 2] = [
        ("python_set.b2nd", |p| {
            b2nd_meta::vlmeta::set_vlmeta(p, "aa", &5)
        }),
        ("python_del.b2nd", |p| {
            b2nd_meta::vlmeta::del_vlmeta(p, "aa")
        }),
    ];
    for (python_file, change) in changes {
        let ours = crate::common::scratch::Scratch::of("vlmeta_dup/dup.b2nd", python_file);
        change(&ours.0).unwrap();
        let python = entries(&data_path(&format!("vlmeta_dup/{python_file}")));
        assert_eq!(entries(&ours.0), python, "{python_file}");
        assert_eq!(
            python.1,
            python_reads(&verdicts[python_file]),
            "{python_file}"
        );
    }
}

/// Trailer bytes whose every value is tried: all of a small trailer; of a large one,
/// the index, the tail and the first 64 bytes of each chunk (header, bstarts, csize).
fn structural_offsets(trailer: &frame::Trailer) -> Vec<u64> {
    let end = trailer.offset + u64::from(trailer.len);
    if trailer.len <= 1024 {
        return (trailer.offset..end).collect();
    }
    let mut out: Vec<u64> = (trailer.offset..trailer.offset + 64).collect();
    for vl in &trailer.vlmetalayers {
        out.extend(vl.offset..(vl.content_offset() + 64).min(end));
    }
    out.extend(end - 23..end);
    out
}

/// Parses the trailer and decodes the chunk that holds byte `at` (the others did not
/// change): Ok or Err, never a panic.
fn parse_at(bytes: &[u8], header: &FrameHeader, at: usize) {
    if let Ok(t) = frame::parse_trailer(bytes, header) {
        let at = at as u64;
        for vl in &t.vlmetalayers {
            if (vl.offset..vl.content_offset() + vl.content.len() as u64).contains(&at) {
                let _ = vl.decode();
            }
        }
    }
}

/// The most any chunk may make the decoder allocate: its declared size, capped.
const ALLOC_BOUND: usize = b2nd_meta::chunk::DEFAULT_MAX_NBYTES as usize + (1 << 20);

#[test]
fn every_truncation_and_byte_change_of_the_trailers() {
    // Producers often write the same trailer: each distinct one is swept once.
    let mut seen = std::collections::HashSet::new();
    for file in expected()["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let original = frame_bytes(path);
        let header = frame::parse_header(&original).unwrap();
        let trailer = frame::parse_trailer(&original, &header).unwrap();
        if !seen.insert(original[trailer.offset as usize..].to_vec()) {
            continue;
        }
        // Every truncation inside the trailer: the frame is shorter than frame_len.
        for len in trailer.offset as usize..original.len() {
            assert!(
                frame::parse_trailer(&original[..len], &header).is_err(),
                "{path} cut at {len}"
            );
            let r = frame::read_trailer(Cursor::new(&original[..len]), &header);
            assert!(r.is_err(), "{path} cut at {len}");
        }
        let (_, peak) = peak_during(|| {
            let mut bytes = original.clone();
            for at in structural_offsets(&trailer) {
                let at = at as usize;
                for value in 0..=255u8 {
                    bytes[at] = value;
                    parse_at(&bytes, &header, at);
                }
                bytes[at] = original[at];
            }
            // Elsewhere (compressed payloads): three changes per byte.
            for at in trailer.offset as usize..original.len() {
                for flip in [0x01u8, 0x80, 0xff] {
                    bytes[at] ^= flip;
                    parse_at(&bytes, &header, at);
                    bytes[at] = original[at];
                }
            }
        });
        assert!(peak <= ALLOC_BOUND, "{path}: largest allocation {peak}");
    }
}

#[test]
fn a_trailer_length_claiming_gigabytes_allocates_nothing_of_that_size() {
    let mut bytes = frame_bytes("values/blosc2-4.14.1/vlmeta_small.b2nd");
    let mut header = frame::parse_header(&bytes).unwrap();
    // The frame claims 2 GiB; the file holds 1 KiB.
    header.info.frame_len = 1 << 31;
    let (r, peak) = peak_during(|| frame::read_trailer(Cursor::new(&bytes), &header));
    assert!(r.is_err());
    assert!(peak < 4096, "largest allocation {peak}");
    // The trailer length field claiming i32::MAX.
    let n = bytes.len();
    bytes[n - 22..n - 18].copy_from_slice(&0x7fff_ffffu32.to_be_bytes());
    let header = frame::parse_header(&bytes).unwrap();
    let (r, peak) = peak_during(|| frame::read_trailer(Cursor::new(&bytes), &header));
    let err = r.unwrap_err();
    assert_eq!(err.offset(), Some(n as u64 - 22));
    assert!(peak < 4096, "largest allocation {peak}");
}

/// zlib's CRC-32 (the reflected 0xedb88320 polynomial), as python's `zlib.crc32`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xedb8_8320 & 0u32.wrapping_sub(crc & 1));
        }
    }
    !crc
}

#[test]
fn a_16_mib_vlmeta_value_reads_as_python_reads_it() {
    // tests/data/values/big.py: python-blosc2 4.14.1's `vlmeta["big"] = bytes(i % 251 ...)`.
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(data_path("values/big/big.json")).unwrap())
            .unwrap();
    let frame = frame::open(data_path("values/big/big.b2nd")).unwrap();
    let name = doc["name"].as_str().unwrap();
    let packed = frame.vlmeta_bytes(name).unwrap();
    assert_eq!(packed.len() as u64, doc["msgpack_len"].as_u64().unwrap());
    assert_eq!(
        packed[..8],
        unhex(doc["msgpack_head_hex"].as_str().unwrap())[..]
    );
    assert_eq!(
        u64::from(crc32(&packed)),
        doc["msgpack_crc32"].as_u64().unwrap()
    );
    let value: serde_bytes::ByteBuf = frame.vlmeta(name).unwrap();
    assert_eq!(value.len() as u64, doc["value_len"].as_u64().unwrap());
    assert!(value
        .iter()
        .enumerate()
        .all(|(i, &b)| usize::from(b) == i % 251));
}
