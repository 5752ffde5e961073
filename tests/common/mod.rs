//! Helpers shared by the integration tests.
#![allow(dead_code, unused_imports)]

pub mod alloc;
pub mod frame;
pub mod hex;
pub mod npy;
pub mod reference;
pub mod scratch;

pub use hex::{hex, to_hex, unhex};

/// `item` repeated `n` times, space-separated: for the 16-axis vectors.
pub fn rep(item: &str, n: usize) -> String {
    vec![item; n].join(" ")
}

/// The bytes of a str32 holding `s`: `db`, 4-byte big-endian length, the bytes.
pub fn str32(s: &str) -> String {
    let mut out = format!("db {:08x}", s.len());
    for b in s.bytes() {
        out.push_str(&format!(" {b:02x}"));
    }
    out
}

/// The corpus manifest written by tests/data/generate.py.
pub fn manifest() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/manifest.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Path of a file named in the manifest (relative to tests/data).
pub fn data_path(relative: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative)
}

/// An annotated hex dump of a metalayer, one element per line, for snapshots that a
/// person reads against SPEC.md. Walks the bytes by the spec's diagram on its own (it
/// does not use the crate's decoder), and stops with a note at the first surprise.
pub fn annotate(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::from("offset  bytes                         meaning\n");
    let mut pos = 0usize;
    let line = |out: &mut String, pos: &mut usize, len: usize, meaning: String| -> bool {
        let Some(chunk) = bytes.get(*pos..*pos + len) else {
            let _ = writeln!(
                out,
                "{:>6}  (input ends: {len} byte(s) expected for {meaning})",
                *pos
            );
            return false;
        };
        let hexed: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        let _ = writeln!(out, "{:>6}  {:<29} {meaning}", *pos, hexed.join(" "));
        *pos += len;
        true
    };
    let Some(&header) = bytes.first() else {
        return out + "(empty)\n";
    };
    let layout = match header {
        0x95 => "caterva v0",
        0x96 => "b2nd draft",
        0x97 => "b2nd v1",
        _ => "unknown layout",
    };
    let count = header.wrapping_sub(0x90);
    line(
        &mut out,
        &mut pos,
        1,
        format!("array of {count} elements: {layout}"),
    );
    if !line(
        &mut out,
        &mut pos,
        1,
        format!("version {}", bytes.get(1).copied().unwrap_or(0)),
    ) {
        return out;
    }
    let ndim = bytes.get(2).copied().unwrap_or(0) as usize;
    if !line(&mut out, &mut pos, 1, format!("ndim {ndim}")) {
        return out;
    }
    for (name, width, marker) in [
        ("shape", 8, 0xd3),
        ("chunkshape", 4, 0xd2),
        ("blockshape", 4, 0xd2),
    ] {
        let h = bytes.get(pos).copied().unwrap_or(0);
        let note = if h == 0xa0 {
            " (0x90 + 16: C's header, a fixstr to generic msgpack)"
        } else {
            ""
        };
        if !line(
            &mut out,
            &mut pos,
            1,
            format!("{name}: array of {}{note}", h.wrapping_sub(0x90)),
        ) {
            return out;
        }
        for axis in 0..ndim {
            let Some(value) = bytes.get(pos + 1..pos + 1 + width) else {
                line(&mut out, &mut pos, 1 + width, format!("{name}[{axis}]"));
                return out;
            };
            let mut be = [0u8; 8];
            be[8 - width..].copy_from_slice(value);
            let v = if width == 8 {
                i64::from_be_bytes(be)
            } else {
                i32::from_be_bytes(be[4..].try_into().unwrap()) as i64
            };
            let kind = if bytes[pos] == marker {
                if width == 8 {
                    "int64"
                } else {
                    "int32"
                }
            } else {
                "WRONG MARKER"
            };
            line(
                &mut out,
                &mut pos,
                1 + width,
                format!("{name}[{axis}] = {v} ({kind})"),
            );
        }
    }
    if count == 7 {
        let f = bytes.get(pos).copied().unwrap_or(0);
        let meaning = if f == 0 {
            "dtype_format 0 (NumPy)".to_string()
        } else {
            format!("dtype_format {f}")
        };
        if !line(&mut out, &mut pos, 1, meaning) {
            return out;
        }
    }
    if count == 6 || count == 7 {
        let len = bytes
            .get(pos + 1..pos + 5)
            .map_or(0, |b| u32::from_be_bytes(b.try_into().unwrap()) as usize);
        if !line(
            &mut out,
            &mut pos,
            5,
            format!("dtype: str32 of {len} bytes"),
        ) {
            return out;
        }
        let text = bytes
            .get(pos..pos + len)
            .map(String::from_utf8_lossy)
            .unwrap_or_default();
        line(&mut out, &mut pos, len, format!("{text:?}"));
    }
    if pos < bytes.len() {
        let _ = writeln!(out, "{pos:>6}  ({} trailing byte(s))", bytes.len() - pos);
    }
    let _ = writeln!(out, "{:>6}  end ({} bytes)", bytes.len(), bytes.len());
    out
}

/// Random bytes that usually start like a metalayer (a layout header, version 0, an
/// ndim up to 17 and its array header), so that random tests reach past byte 0.
pub fn plausible_bytes(max_tail: usize) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    (
        any::<bool>(),
        0x95u8..=0x97,
        0u8..=17,
        prop::collection::vec(any::<u8>(), 0..max_tail),
    )
        .prop_map(|(plain, header, ndim, tail)| {
            let mut bytes = if plain {
                Vec::new()
            } else {
                vec![header, 0, ndim, 0x90 + ndim]
            };
            bytes.extend(tail);
            bytes
        })
}
