//! An array's values as text: each element by its dtype ([`ElementText`]), and the
//! elements of a C-order result nested as lists ([`Nesting`]): on one line as JSON
//! (python's `json.dumps(arr[SPEC].tolist())`, with `NaN` and `Infinity` as python
//! writes them), or laid out as numpy prints an array, for a person.

use std::fmt::Write as _;

use b2nd_meta::array::Element;
use b2nd_meta::dtype::{ByteOrder, Dtype, Kind};

use super::float_layout::FloatLayout;

/// How one element of a dtype is written.
pub struct ElementText {
    kind: Kind,
    size: usize,
    big: bool,
    json: bool,
    /// For a person, floats are laid out as numpy does, over all of them.
    layout: Option<FloatLayout>,
}

impl ElementText {
    /// The text of `dtype`'s elements, as JSON or for a person.
    pub fn new(dtype: &Dtype, json: bool) -> ElementText {
        ElementText {
            kind: dtype.kind(),
            size: dtype.itemsize() as usize,
            big: dtype.byte_order() == ByteOrder::Big,
            json,
            layout: (!json && dtype.kind() == Kind::Float).then(FloatLayout::default),
        }
    }

    /// Whether every element must be [surveyed](ElementText::survey) before any is
    /// written (floats for a person); they then all have the same width.
    pub fn surveys(&self) -> bool {
        self.layout.is_some()
    }

    /// Takes the element `bytes` into the survey.
    pub fn survey(&mut self, bytes: &[u8]) {
        if let Some((x, bits)) = self.float_value(bytes)
            && let Some(layout) = &mut self.layout
        {
            layout.survey(x, bits);
        }
    }

    /// Ends the survey: the elements can be written.
    pub fn surveyed(&mut self) {
        if let Some(layout) = &mut self.layout {
            layout.finish();
        }
    }

    /// The value of a float element, and its width in bits.
    fn float_value(&self, bytes: &[u8]) -> Option<(f64, u32)> {
        let big = self.big;
        match (self.kind, self.size) {
            (Kind::Float, 2) => Some((f64::from(half(u16::from_bytes(bytes, big))), 16)),
            (Kind::Float, 4) => Some((f64::from(f32::from_bytes(bytes, big)), 32)),
            (Kind::Float, 8) => Some((f64::from_bytes(bytes, big), 64)),
            _ => None,
        }
    }

    /// Appends the text of the element `bytes` (its itemsize) to `out`.
    pub fn push(&self, bytes: &[u8], out: &mut String) {
        let big = self.big;
        if let Some(layout) = &self.layout
            && let Some((x, bits)) = self.float_value(bytes)
        {
            return layout.push(x, bits, out);
        }
        match (self.kind, self.size) {
            (Kind::Bool, _) => out.push_str(match (bytes[0] != 0, self.json) {
                (true, true) => "true",
                (false, true) => "false",
                (true, false) => "True",
                (false, false) => "False",
            }),
            (Kind::Int, 1) => push(out, i8::from_bytes(bytes, big)),
            (Kind::Int, 2) => push(out, i16::from_bytes(bytes, big)),
            (Kind::Int, 4) => push(out, i32::from_bytes(bytes, big)),
            (Kind::Int, 8) => push(out, i64::from_bytes(bytes, big)),
            (Kind::UInt, 1) => push(out, u8::from_bytes(bytes, big)),
            (Kind::UInt, 2) => push(out, u16::from_bytes(bytes, big)),
            (Kind::UInt, 4) => push(out, u32::from_bytes(bytes, big)),
            (Kind::UInt, 8) => push(out, u64::from_bytes(bytes, big)),
            (Kind::Float, 2) => self.float(half(u16::from_bytes(bytes, big)), out),
            (Kind::Float, 4) => self.float(f32::from_bytes(bytes, big), out),
            (Kind::Float, 8) => self.float(f64::from_bytes(bytes, big), out),
            (Kind::Complex, 8) => self.complex(<[f32; 2]>::from_bytes(bytes, big), out),
            (Kind::Complex, 16) => self.complex(<[f64; 2]>::from_bytes(bytes, big), out),
            (Kind::Datetime | Kind::Timedelta, 8) => match i64::from_bytes(bytes, big) {
                // NaT: python's None.
                i64::MIN => out.push_str(if self.json { "null" } else { "NaT" }),
                count => push(out, count),
            },
            (Kind::Bytes, _) => {
                // numpy's bytes end at the first of the trailing NULs; a byte is the
                // character of its value (latin-1).
                let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
                let text: String = bytes[..end].iter().map(|&b| char::from(b)).collect();
                quote(&text, out);
            }
            (Kind::Unicode, _) => {
                let text: String = bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_bytes(c, big))
                    .map(|c| char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect();
                quote(text.trim_end_matches('\0'), out);
            }
            // Voids, structs, subarrays, long doubles: the bytes as stored, in hex.
            _ => {
                let mut hex = String::from("0x");
                for b in bytes {
                    let _ = write!(hex, "{b:02x}");
                }
                quote(&hex, out);
            }
        }
    }

    /// A float as python's `repr` (JSON: `NaN`, `Infinity`, `-Infinity` as python's
    /// json writes them; for a person numpy's `nan`, `inf`).
    fn float(&self, x: impl Into<f64> + std::fmt::Debug + Copy, out: &mut String) {
        let wide: f64 = x.into();
        match (wide.is_nan(), wide.is_infinite(), self.json) {
            (true, _, true) => out.push_str("NaN"),
            (true, _, false) => out.push_str("nan"),
            (_, true, json) => out.push_str(match (wide > 0.0, json) {
                (true, true) => "Infinity",
                (false, true) => "-Infinity",
                (true, false) => "inf",
                (false, false) => "-inf",
            }),
            // The shortest text that reads back as the same value of its own width.
            _ => {
                let _ = write!(out, "{x:?}");
            }
        }
    }

    /// A complex number: `[re, im]` in JSON, `re+imj` for a person.
    fn complex<T: Into<f64> + std::fmt::Debug + Copy>(&self, [re, im]: [T; 2], out: &mut String) {
        if self.json {
            out.push('[');
            self.float(re, out);
            out.push_str(", ");
            self.float(im, out);
            out.push(']');
        } else {
            self.float(re, out);
            let im_wide: f64 = im.into();
            // A negative part brings its own sign (nan is written unsigned).
            if !im_wide.is_sign_negative() || im_wide.is_nan() {
                out.push('+');
            }
            self.float(im, out);
            out.push('j');
        }
    }
}

fn push(out: &mut String, value: impl std::fmt::Display) {
    let _ = write!(out, "{value}");
}

/// A JSON string (also what a person sees of a string), every control character
/// escaped (C1 too: none reaches a terminal).
fn quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An IEEE 754 half-precision float's value.
fn half(bits: u16) -> f32 {
    let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
    let exponent = i32::from(bits >> 10 & 0x1f);
    let fraction = f32::from(bits & 0x3ff);
    sign * match exponent {
        0 => fraction * 2f32.powi(-24),
        0x1f if fraction == 0.0 => f32::INFINITY,
        0x1f => f32::NAN,
        e => (1.0 + fraction / 1024.0) * 2f32.powi(e - 15),
    }
}

/// The brackets and separators around the elements of a C-order result of a shape,
/// element by element: as one line of JSON, or as numpy lays an array out (the last
/// axis on a line, a blank line between planes, elements right-aligned to `width`).
pub struct Nesting {
    /// The elements in each list at each depth and below: `blocks[d]` = product of
    /// `shape[d..]`.
    blocks: Vec<u64>,
    json: bool,
    width: usize,
    at: u64,
}

impl Nesting {
    /// The nesting of `shape`; `width`: the widest element's text, for a person.
    pub fn new(shape: &[u64], json: bool, width: usize) -> Nesting {
        let mut blocks = vec![1; shape.len()];
        let mut n = 1u64;
        for d in (0..shape.len()).rev() {
            n = n.saturating_mul(shape[d]);
            blocks[d] = n;
        }
        Nesting {
            blocks,
            json,
            width,
            at: 0,
        }
    }

    /// Appends the next element's text `element` with what comes before and after it.
    pub fn push(&mut self, element: &str, out: &mut String) {
        let i = self.at;
        let opens = self.blocks.iter().filter(|&&b| i.is_multiple_of(b)).count();
        if i > 0 {
            match (self.json, opens) {
                (true, _) | (false, 0) => out.push_str(if self.json { ", " } else { " " }),
                (false, n) => {
                    // A new line per list closed, indented to where the new one opens.
                    out.push('\n');
                    for _ in 1..n {
                        out.push('\n');
                    }
                    out.extend(std::iter::repeat_n(' ', self.blocks.len() - n));
                }
            }
        }
        out.extend(std::iter::repeat_n('[', opens));
        if !self.json {
            out.extend(std::iter::repeat_n(
                ' ',
                self.width.saturating_sub(element.chars().count()),
            ));
        }
        out.push_str(element);
        self.at += 1;
        let closes = self
            .blocks
            .iter()
            .filter(|&&b| self.at.is_multiple_of(b))
            .count();
        out.extend(std::iter::repeat_n(']', closes));
    }
}

/// The text of an empty result of `shape` (some axis 0): its lists down to that axis.
pub fn empty(shape: &[u64]) -> String {
    match shape.split_first() {
        Some((&0, _)) | None => "[]".into(),
        Some((&n, rest)) => {
            let inner = empty(rest);
            let items: Vec<&str> = (0..n).map(|_| inner.as_str()).collect();
            format!("[{}]", items.join(", "))
        }
    }
}
