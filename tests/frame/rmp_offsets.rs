//! Offsets of errors through rmp-serde (`FrameHeader::user_meta`, `VlMetalayer::deserialize`)
//! point at the offending byte: every cut and single-byte change of real user metalayers
//! and vlmeta values (python-blosc2 4.14.1, tests/data/values), the reported offset checked
//! against where the bytes stop being valid, found by the checker below (which knows
//! msgpack, not the crate).
//!
//! Two target types: `IgnoredAny` (any msgpack value) and `Strict` (JSON's values only:
//! no bin, no ext, string keys, UTF-8 strings). The sweep changes each byte to a fixed set
//! of values; `B2ND_FULL_SWEEP=1 cargo test --all-features --test frame rmp_offsets` tries
//! all 256.

use std::fmt;

use b2nd_meta::frame::{parse_header, FrameErrorKind, VlMetalayer};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::common::frame::build_named;

/// A value with JSON's kinds only: what `serde_json::Value` accepts, written out so that
/// this test knows exactly which msgpack it takes.
struct Strict;

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Strict;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_str<E>(self, _: &str) -> Result<Strict, E> {
        Ok(Strict)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        while seq.next_element::<Strict>()?.is_some() {}
        Ok(Strict)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        while map.next_entry::<String, Strict>()?.is_some() {}
        Ok(Strict)
    }
}

/// Where `bytes` stop being one msgpack value the target takes: `Ok(())` when they are
/// one, else the offset of the first byte that no continuation makes valid. Where a value's
/// length runs past the input, the input's end: its bytes are missing before its type
/// could be refused (rmp-serde reads a string or bin whole before its visitor sees it).
fn first_invalid(bytes: &[u8], strict: bool) -> Result<(), usize> {
    let mut at = 0;
    value(bytes, &mut at, strict, false)?;
    if at < bytes.len() {
        return Err(at);
    }
    Ok(())
}

fn take(bytes: &[u8], at: &mut usize, n: usize) -> Result<u64, usize> {
    let field = bytes.get(*at..*at + n).ok_or(bytes.len())?;
    *at += n;
    Ok(field.iter().fold(0, |acc, &b| (acc << 8) | u64::from(b)))
}

/// What a marker starts, once rmp-serde has read what it reads before a visitor sees it.
enum Kind {
    Scalar,
    Str(usize),
    Bin,
    Ext(u64),
    Values { count: u64, map: bool },
}

/// `n` more bytes must be there (they are read before the value's type is checked).
fn need(bytes: &[u8], at: &mut usize, n: u64) -> Result<(), usize> {
    let n = usize::try_from(n).map_err(|_| bytes.len())?;
    if bytes.len() - *at < n {
        return Err(bytes.len());
    }
    *at += n;
    Ok(())
}

fn value(bytes: &[u8], at: &mut usize, strict: bool, key: bool) -> Result<(), usize> {
    let start = *at;
    let m = take(bytes, at, 1)? as u8;
    let kind = match m {
        0xc1 => return Err(start),
        0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => Kind::Scalar,
        0xcc | 0xd0 => need(bytes, at, 1).map(|_| Kind::Scalar)?,
        0xcd | 0xd1 => need(bytes, at, 2).map(|_| Kind::Scalar)?,
        0xca | 0xce | 0xd2 => need(bytes, at, 4).map(|_| Kind::Scalar)?,
        0xcb | 0xcf | 0xd3 => need(bytes, at, 8).map(|_| Kind::Scalar)?,
        0xa0..=0xbf | 0xd9..=0xdb | 0xc4..=0xc6 => {
            let len = match m {
                0xa0..=0xbf => u64::from(m & 0x1f),
                0xd9 | 0xc4 => take(bytes, at, 1)?,
                0xda | 0xc5 => take(bytes, at, 2)?,
                _ => take(bytes, at, 4)?,
            };
            let data_at = *at;
            need(bytes, at, len)?;
            match m {
                // A `String` key takes bin that is UTF-8 (serde's `visit_bytes`).
                0xc4..=0xc6 if key && std::str::from_utf8(&bytes[data_at..*at]).is_ok() => {
                    Kind::Str(data_at)
                }
                0xc4..=0xc6 => Kind::Bin,
                _ => Kind::Str(data_at),
            }
        }
        // An ext's length is read, then its visitor: its type byte and data are read
        // only by a target that takes it.
        0xc7 => Kind::Ext(1 + take(bytes, at, 1)?),
        0xc8 => Kind::Ext(1 + take(bytes, at, 2)?),
        0xc9 => Kind::Ext(1 + take(bytes, at, 4)?),
        0xd4..=0xd8 => Kind::Ext(1 + (1 << (m - 0xd4))),
        0x90..=0x9f => Kind::Values {
            count: u64::from(m & 0x0f),
            map: false,
        },
        0xdc => Kind::Values {
            count: take(bytes, at, 2)?,
            map: false,
        },
        0xdd => Kind::Values {
            count: take(bytes, at, 4)?,
            map: false,
        },
        0x80..=0x8f => Kind::Values {
            count: 2 * u64::from(m & 0x0f),
            map: true,
        },
        0xde => Kind::Values {
            count: 2 * take(bytes, at, 2)?,
            map: true,
        },
        0xdf => Kind::Values {
            count: 2 * take(bytes, at, 4)?,
            map: true,
        },
    };
    // `Strict` takes JSON's kinds, and strings (or UTF-8 bin) only as keys.
    let taken = match kind {
        Kind::Str(_) => true,
        Kind::Bin | Kind::Ext(_) => !strict,
        Kind::Scalar | Kind::Values { .. } => !(strict && key),
    };
    if !taken {
        return Err(start);
    }
    match kind {
        Kind::Str(data_at) if strict => {
            if let Err(e) = std::str::from_utf8(&bytes[data_at..*at]) {
                return Err(data_at + utf8_break(&bytes[data_at..*at], e));
            }
        }
        Kind::Ext(len) => need(bytes, at, len)?,
        Kind::Values { count, map } => {
            for i in 0..count {
                value(bytes, at, strict, map && i % 2 == 0)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The first byte of `s` that no continuation makes UTF-8 (the end when it is cut short).
fn utf8_break(s: &[u8], e: std::str::Utf8Error) -> usize {
    let v = e.valid_up_to();
    (1..=4)
        .find(|&k| {
            v + k <= s.len()
                && std::str::from_utf8(&s[v..v + k]).is_err_and(|e| e.error_len().is_some())
        })
        .map_or(s.len(), |k| v + k - 1)
}

/// The msgpack of every user metalayer and vlmeta value in python's fixtures, up to 300 bytes.
fn sources() -> Vec<(String, Vec<u8>)> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/values/blosc2-4.14.1"
    );
    let mut out = Vec::new();
    for file in [
        "user_meta_containers",
        "user_meta_ext",
        "user_meta_keys",
        "user_meta_scalars",
    ] {
        let frame = b2nd_meta::frame::open(format!("{dir}/{file}.b2nd")).unwrap();
        for m in &frame.header.metalayers {
            if m.name != "b2nd" && m.content.len() <= 300 {
                out.push((format!("{file}/{}", m.name), m.content.clone()));
            }
        }
    }
    for file in ["vlmeta_small", "vlmeta_ext"] {
        let frame = b2nd_meta::frame::open(format!("{dir}/{file}.b2nd")).unwrap();
        for vl in frame.trailer().unwrap().vlmetalayers {
            let bytes = vl.decode().unwrap();
            if bytes.len() <= 300 {
                out.push((format!("{file}/vlmeta {}", vl.name), bytes));
            }
        }
    }
    assert!(out.len() > 40, "{}", out.len());
    out
}

/// The bytes to try at each position.
fn replacements() -> Vec<u8> {
    if std::env::var_os("B2ND_FULL_SWEEP").is_some() {
        return (0..=255).collect();
    }
    vec![
        0x00, 0x01, 0x7f, 0x80, 0x81, 0x90, 0x92, 0xa0, 0xa3, 0xbf, 0xc0, 0xc1, 0xc2, 0xc4, 0xc7,
        0xca, 0xcc, 0xd4, 0xd9, 0xdc, 0xde, 0xe0, 0xff,
    ]
}

/// The offset `user_meta` reports for `msgpack` as a user metalayer, from the start of
/// its content, or `None` when it decodes.
fn user_meta_offset<T: serde::de::DeserializeOwned>(msgpack: &[u8]) -> Option<u64> {
    let frame = build_named(&[("m", msgpack)]);
    let header = parse_header(&frame).unwrap();
    let content_offset = header.metalayer("m").unwrap().content_offset();
    let err = header.user_meta::<T>("m").err()?;
    assert!(
        matches!(err.kind(), FrameErrorKind::Metalayer { .. }),
        "{err}"
    );
    Some(err.offset().expect("an offset") - content_offset)
}

/// The offset `VlMetalayer::deserialize` reports for `msgpack`, in the uncompressed value.
fn vlmeta_offset<T: serde::de::DeserializeOwned>(msgpack: &[u8]) -> Option<u64> {
    // A memcpyed Blosc2 chunk holding the bytes as they are.
    let n = msgpack.len() as u32;
    let mut chunk = vec![5, 1, 7, 1];
    for v in [n, n, n + 32] {
        chunk.extend(v.to_le_bytes());
    }
    chunk.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    chunk.extend(msgpack);
    let vl = VlMetalayer {
        name: "v".into(),
        offset: 1000,
        content: chunk,
    };
    let err = vl.deserialize::<T>().err()?;
    match err.kind() {
        FrameErrorKind::VlmetaValue { source, .. } => source.offset(),
        _ => panic!("{err}"),
    }
}

fn check(name: &str, bytes: &[u8], what: &str, checked: &mut usize) {
    for strict in [false, true] {
        let expected = first_invalid(bytes, strict).err().map(|o| o as u64);
        let got = if strict {
            user_meta_offset::<Strict>(bytes)
        } else {
            user_meta_offset::<IgnoredAny>(bytes)
        };
        assert_eq!(
            got, expected,
            "{name}, {what}, strict {strict}: {bytes:02x?}"
        );
        // The vlmeta path shares the code: a sample of it, and every cut.
        if !bytes.is_empty() && (what.starts_with("cut") || checked.is_multiple_of(7)) {
            let got = if strict {
                vlmeta_offset::<Strict>(bytes)
            } else {
                vlmeta_offset::<IgnoredAny>(bytes)
            };
            assert_eq!(
                got, expected,
                "vlmeta {name}, {what}, strict {strict}: {bytes:02x?}"
            );
        }
        *checked += 1;
    }
}

#[test]
fn every_cut_and_byte_change_reports_where_the_bytes_stop_being_valid() {
    let mut checked = 0;
    let replacements = replacements();
    for (name, original) in sources() {
        // The checker agrees with rmp-serde on python's own bytes.
        assert_eq!(first_invalid(&original, false), Ok(()), "{name}");
        for cut in 0..original.len() {
            check(
                &name,
                &original[..cut],
                &format!("cut at {cut}"),
                &mut checked,
            );
        }
        for at in 0..original.len() {
            for &b in replacements.iter().filter(|&&b| b != original[at]) {
                let mut bytes = original.clone();
                bytes[at] = b;
                check(
                    &name,
                    &bytes,
                    &format!("byte {at} = {b:#04x}"),
                    &mut checked,
                );
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}

/// The two examples of issue 22: the value 42 (0x2a) where a string belongs is at frame
/// byte 180, and a string where an i32 belongs starts the value (byte 0).
#[test]
fn the_offending_value_is_reported_not_the_byte_after_it() {
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        answer: String,
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/user_meta.b2nd"
    );
    let frame = b2nd_meta::frame::open(path).unwrap();
    let mine = frame.header.metalayer("mine").unwrap();
    let err = frame.header.user_meta::<Wrong>("mine").unwrap_err();
    let at = err.offset().unwrap();
    assert_eq!(
        mine.content[(at - mine.content_offset()) as usize],
        0x2a,
        "{err}"
    );
    assert_eq!(at, 180, "{err}");

    let err = frame.vlmeta::<i32>("note").unwrap_err();
    match err.kind() {
        FrameErrorKind::VlmetaValue { source, .. } => assert_eq!(source.offset(), Some(0)),
        _ => panic!("{err}"),
    }
    // A map missing a field: the map, where it starts.
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Missing {
        answer: i32,
        absent: i32,
    }
    let err = frame.header.user_meta::<Missing>("mine").unwrap_err();
    assert_eq!(err.offset(), Some(mine.content_offset()), "{err}");
}
