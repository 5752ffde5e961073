//! `show --human`: a compact summary of a [`Report`] for a terminal.

use std::fmt::Write as _;

use crate::render::report::{DtypeReport, MetalayerReport, Pipeline, Report, VlmetaReport};
use b2nd_meta::blosc::{Filter, SplitMode};

/// A Python-style tuple: `()`, `(10,)`, `(10, 7)`; every shape the command prints.
pub fn tuple<T: std::fmt::Display>(items: &[T]) -> String {
    match items {
        [] => "()".to_owned(),
        [one] => format!("({one},)"),
        many => {
            let parts: Vec<String> = many.iter().map(T::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// Hex of at most 16 bytes of `bytes` (the start of `len` bytes), with `...` when
/// there are more.
fn short_hex(bytes: &[u8], len: u64) -> String {
    const MAX: usize = 16;
    let head = bytes.get(..MAX).unwrap_or(bytes);
    let mut s = b2nd_meta::hex::encode(head);
    if len > head.len() as u64 {
        s.push_str("...");
    }
    s
}

/// `n` of a regular noun: `1 byte`, `2 bytes`.
pub fn plural(n: u64, what: &str) -> String {
    super::count(n, what, &format!("{what}s"))
}

/// `s` as is, or quoted and escaped when it holds control characters (a newline in a
/// metalayer name must not break the line, an escape sequence in a store's key must
/// not reach the terminal).
pub fn printable(s: &str) -> String {
    if s.chars().any(char::is_control) {
        // As JSON writes it: `\n`, `\t`, `\r`, the others as `\u001b`.
        let mut quoted = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => quoted.push_str("\\\""),
                '\\' => quoted.push_str("\\\\"),
                '\n' => quoted.push_str("\\n"),
                '\t' => quoted.push_str("\\t"),
                '\r' => quoted.push_str("\\r"),
                c if c.is_control() => {
                    let _ = write!(quoted, "\\u{:04x}", u32::from(c));
                }
                c => quoted.push(c),
            }
        }
        quoted.push('"');
        quoted
    } else {
        s.to_owned()
    }
}

/// The filter's name (the crate's one table), or `filter N` for an id no one names.
fn filter_name(code: u8) -> String {
    Filter::from_id(code)
        .name()
        .map_or_else(|| format!("filter {code}"), str::to_owned)
}

/// `filters shuffle, split auto, 6 chunks, cratio 0.67x` (and `dictionary` when used).
fn pipeline(p: &Pipeline) -> String {
    let filters: Vec<String> = p
        .filters
        .iter()
        .zip(p.filters_meta)
        .filter(|&(&code, _)| code != 0)
        .map(|(&code, meta)| match meta {
            0 => filter_name(code),
            meta => format!("{} (meta {meta})", filter_name(code)),
        })
        .collect();
    let filters = match filters.is_empty() {
        true => "no filters".to_owned(),
        false => format!("filters {}", filters.join(" > ")),
    };
    let split = SplitMode::from_id(p.splitmode).name();
    let dict = if p.use_dict { ", dictionary" } else { "" };
    let chunks = p
        .nchunks
        .map_or("chunks of variable size".to_owned(), |n| plural(n, "chunk"));
    format!(
        "{filters}, split {split}{dict}, {chunks}, cratio {:.2}x",
        p.cratio
    )
}

/// The summary of one frame, several lines without a final newline.
pub fn render(report: &Report) -> String {
    let frame = &report.frame;
    let context = printable(&report.path);
    let mut s = String::new();
    let size = if frame.kind == "sparse" {
        format!("{} in chunks.b2frame", plural(frame.frame_len, "byte"))
    } else {
        plural(frame.frame_len, "byte")
    };
    let _ = write!(
        s,
        "{context}: {} frame, {size}, {} level {}, typesize {}",
        frame.kind, frame.codec, frame.clevel, frame.typesize
    );
    if frame.truncated {
        let _ = write!(
            s,
            " (TRUNCATED: {} on disk, {} missing)",
            plural(frame.file_len, "byte"),
            frame.frame_len.saturating_sub(frame.file_len)
        );
    }
    let _ = write!(s, ", {}", pipeline(&frame.pipeline));
    for note in &frame.notes {
        let _ = write!(s, "\n  note: {}", printable(note));
    }
    let array = report.array.as_ref();
    for (name, layer) in &report.metalayers.0 {
        let shown = printable(name);
        match layer {
            MetalayerReport::Decoded(meta) => {
                let _ = write!(
                    s,
                    "\n  {shown} ({}): shape {}, chunks {}, blocks {}",
                    meta.layout(),
                    tuple(meta.shape()),
                    tuple(meta.chunkshape()),
                    tuple(meta.blockshape())
                );
                // Decoded: the array's metalayer, which `array` reports on.
                match (array, meta.dtype()) {
                    (Some(array), _) => {
                        let _ = write!(s, ", dtype {}", dtype(&array.dtype));
                    }
                    (None, Some(dtype)) => {
                        let _ = write!(s, ", dtype {}", printable(dtype));
                    }
                    (None, None) => {}
                }
                if let Some(format) = meta
                    .dtype_format()
                    .filter(|&f| f != b2nd_meta::DTYPE_FORMAT_NUMPY)
                {
                    let _ = write!(s, " (dtype_format {format})");
                }
            }
            MetalayerReport::Raw(raw) => {
                let len = raw.raw_len.unwrap_or(raw.raw_hex.len());
                let head = raw.raw_hex.bytes().unwrap_or_default();
                // A user metalayer that is not msgpack is shown as its bytes (the JSON
                // says why in "error"); an array metalayer that does not decode is loud.
                if let (Some(e), true) = (&raw.error, raw.array) {
                    let _ = write!(s, "\n  {shown}: DOES NOT DECODE: {e}");
                }
                match &raw.value {
                    // A user metalayer's value, as compact JSON (long ones cut short).
                    Some(value) => {
                        let _ = write!(
                            s,
                            "\n  {shown}: {} ({})",
                            short_json(value),
                            plural(len, "byte")
                        );
                    }
                    None => {
                        let _ = write!(
                            s,
                            "\n  {shown}: {}: {}",
                            plural(len, "byte"),
                            short_hex(head, len)
                        );
                    }
                }
            }
        }
    }
    if report.metalayers.0.is_empty() {
        s.push_str("\n  (no metalayers)");
    } else if !report.metalayers.0.iter().any(|(_, m)| m.is_array()) {
        s.push_str("\n  (no b2nd or caterva metalayer: not an n-dimensional array)");
    }
    // The vlmetalayers (trailer), one line each, values as user metalayers are shown.
    for (name, vl) in &report.vlmeta.0 {
        let shown = printable(name);
        let _ = match vl {
            VlmetaReport::Value(value) => write!(s, "\n  vlmeta {shown}: {}", short_json(value)),
            VlmetaReport::Raw(raw) => write!(s, "\n  vlmeta {shown}: {}", printable(&raw.error)),
        };
    }
    if let Some(e) = &report.vlmeta_error {
        let _ = write!(s, "\n  vlmeta: TRAILER DOES NOT READ: {}", printable(e));
    }
    if let Some(array) = array {
        for problem in &array.problems {
            let _ = write!(s, "\n  problem: {problem}");
        }
        for problem in &array.blocks_within_chunks {
            let _ = write!(s, "\n  problem (python-blosc2 only): {problem}");
        }
        if array.trailing_bytes > 0 {
            let _ = write!(
                s,
                "\n  note: {} stale byte(s) after the metalayer in its content (ignored, as C-Blosc2 does)",
                array.trailing_bytes
            );
        }
    }
    s
}

fn dtype(dtype: &DtypeReport) -> String {
    let shown = printable(&dtype.str);
    match (&dtype.kind, dtype.itemsize, &dtype.error) {
        (Some(kind), Some(itemsize), _) => {
            let described = format!("{shown} ({kind}, {})", plural(itemsize, "byte"));
            if dtype.assumed {
                format!("{described} (assumed from the typesize)")
            } else {
                described
            }
        }
        (_, _, error) => format!(
            "{shown} (not understood: {})",
            error.as_deref().unwrap_or("no dtype")
        ),
    }
}

/// A value as compact JSON, its control characters escaped, at most 200 characters;
/// the JSON of a larger value is not written past them (a 64 MiB bin is not turned
/// into 128 MiB of hex to show 200 characters of it).
fn short_json(value: &b2nd_meta::value::Value) -> String {
    const MAX: usize = 200;
    // Enough bytes for MAX characters and one more (to know there are more).
    let mut head = std::io::Cursor::new([0u8; 4 * (MAX + 1)]);
    // A full buffer ends the writing with an error: what was written is the head.
    let _ = serde_json::to_writer(&mut head, value);
    let written = head.position() as usize;
    let text = String::from_utf8_lossy(&head.get_ref()[..written]);
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.into_owned(),
    }
}
