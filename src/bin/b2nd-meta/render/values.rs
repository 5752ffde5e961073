//! An array's values as text: each element by its dtype ([`ElementText`]), and the
//! elements of a C-order result nested as lists ([`Nesting`]): on one line as JSON
//! (python's `json.dumps(arr[SPEC].tolist())`, with `NaN` and `Infinity` as python
//! writes them), or laid out as numpy prints an array, for a person.

use std::fmt::Write as _;

use b2nd_meta::array::Element;
use b2nd_meta::dtype::{ByteOrder, Dtype, Kind};

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

/// numpy's layout of an array's floats for a person (`FloatingFormat`, floatmode
/// `maxprec`, precision 8): every element in the same notation, positional unless the
/// largest magnitude is 1e8 or more, the smallest nonzero under 1e-4, or their ratio
/// over 1000; each in its shortest digits (at most 8 after the point), the integer
/// parts right-aligned and the fractions left-aligned (padded with spaces; in `e`
/// notation, with zeros to a common precision). Surveyed over all the values first.
#[derive(Default)]
pub struct FloatLayout {
    max_abs: f64,
    min_abs: f64,
    any_nonzero: bool,
    any_finite: bool,
    non_finite: bool,
    neg_inf: bool,
    /// Positional: the widest integer part (sign included) and fraction.
    pos: (usize, usize),
    /// Scientific: the widest integer part, fraction and exponent digits.
    sci: (usize, usize, usize),
    /// After [`FloatLayout::finish`]: the chosen notation and its pads.
    exp: bool,
    pad_left: usize,
    pad_right: usize,
}

/// A float's shortest digits in its own width (`bits`: 16, 32 or 64), positional,
/// at most 8 after the point: `(integer part with its sign, fraction)`.
fn positional(x: f64, bits: u32) -> (String, String) {
    let mut text = match bits {
        32 => format!("{}", x as f32),
        16 => half_shortest(x, false),
        _ => format!("{x}"),
    };
    if text.split_once('.').is_some_and(|(_, f)| f.len() > 8) {
        text = match bits {
            32 => format!("{:.8}", x as f32),
            _ => format!("{x:.8}"),
        };
        text = text.trim_end_matches('0').to_string();
    }
    match text.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (text, String::new()),
    }
}

/// A float's shortest digits in `e` notation, at most 8 after the point:
/// `(integer digit with its sign, fraction, exponent)`.
fn scientific(x: f64, bits: u32) -> (String, String, i32) {
    let mut text = match bits {
        32 => format!("{:e}", x as f32),
        16 => half_shortest(x, true),
        _ => format!("{x:e}"),
    };
    let frac_len = |t: &str| {
        t.split_once('e')
            .map_or(0, |(m, _)| m.split_once('.').map_or(0, |(_, f)| f.len()))
    };
    if frac_len(&text) > 8 {
        text = match bits {
            32 => format!("{:.8e}", x as f32),
            _ => format!("{x:.8e}"),
        };
    }
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let exponent = exponent.parse().unwrap_or(0);
    match mantissa.split_once('.') {
        Some((i, f)) => (i.to_string(), f.trim_end_matches('0').to_string(), exponent),
        None => (mantissa.to_string(), String::new(), exponent),
    }
}

/// A half-precision value's shortest digits (the fewest that read back as the same
/// half), positional or in `e` notation as Rust writes them.
fn half_shortest(x: f64, exp: bool) -> String {
    let bits = half_bits(x as f32);
    for digits in 0..=12 {
        let text = format!("{x:.digits$e}");
        let back: f64 = text.parse().unwrap_or(f64::NAN);
        if half_bits(back as f32) == bits {
            let shortest: f64 = text.parse().unwrap_or(x);
            return match exp {
                true => format!("{shortest:e}"),
                false => format!("{shortest}"),
            };
        }
    }
    format!("{x}")
}

/// The half nearest `x` (ties to even), as bits: to compare two values as halves.
fn half_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut h = (m >> shift) as u16;
        if rest > half || (rest == half && h & 1 == 1) {
            h += 1;
        }
        return sign | h;
    }
    let rest = man & 0x1fff;
    let mut h = ((e as u32) << 10 | (man >> 13)) as u16;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h
}

impl FloatLayout {
    /// Takes `x` (a value of `bits` bits) into the survey.
    pub fn survey(&mut self, x: f64, bits: u32) {
        if !x.is_finite() {
            self.non_finite = true;
            self.neg_inf |= x == f64::NEG_INFINITY;
            return;
        }
        let abs = x.abs();
        if abs != 0.0 {
            if !self.any_nonzero {
                (self.max_abs, self.min_abs) = (abs, abs);
            }
            self.any_nonzero = true;
            self.max_abs = self.max_abs.max(abs);
            self.min_abs = self.min_abs.min(abs);
        }
        self.any_finite = true;
        let (i, f) = positional(x, bits);
        self.pos = (self.pos.0.max(i.len()), self.pos.1.max(f.len()));
        let (i, f, e) = scientific(x, bits);
        let e = e.unsigned_abs().to_string().len().max(2);
        self.sci = (
            self.sci.0.max(i.len()),
            self.sci.1.max(f.len()),
            self.sci.2.max(e),
        );
    }

    /// Chooses the notation and the pads, once every value is surveyed.
    pub fn finish(&mut self) {
        self.exp = self.any_nonzero
            && (self.max_abs >= 1e8 || self.min_abs < 1e-4 || self.max_abs / self.min_abs > 1e3);
        (self.pad_left, self.pad_right) = match (self.any_finite, self.exp) {
            (false, _) => (0, 0),
            (true, true) => (self.sci.0, self.sci.2 + 2 + self.sci.1),
            (true, false) => self.pos,
        };
        if self.non_finite {
            let offset = self.pad_right + 1;
            let inf = 3 + usize::from(self.neg_inf);
            self.pad_left = self.pad_left.max(inf.saturating_sub(offset));
        }
    }

    /// Appends `x` (a value of `bits` bits) as numpy prints it in this array.
    pub fn push(&self, x: f64, bits: u32, out: &mut String) {
        let width = self.pad_left + self.pad_right + 1;
        if !x.is_finite() {
            let text = match (x.is_nan(), x > 0.0) {
                (true, _) => "nan",
                (false, true) => "inf",
                (false, false) => "-inf",
            };
            out.extend(std::iter::repeat_n(' ', width.saturating_sub(text.len())));
            out.push_str(text);
            return;
        }
        if self.exp {
            let (i, f, e) = scientific(x, bits);
            let precision = self.sci.1;
            out.extend(std::iter::repeat_n(
                ' ',
                self.pad_left.saturating_sub(i.len()),
            ));
            let sign = if e < 0 { '-' } else { '+' };
            let digits = self.sci.2;
            let _ = write!(
                out,
                "{i}.{f:0<precision$}e{sign}{:0>digits$}",
                e.unsigned_abs()
            );
        } else {
            let (i, f) = positional(x, bits);
            out.extend(std::iter::repeat_n(
                ' ',
                self.pad_left.saturating_sub(i.len()),
            ));
            let pad = self.pad_right;
            let _ = write!(out, "{i}.{f:<pad$}");
        }
    }
}
