//! numpy's layout of an array's floats for a person ([`FloatLayout`]): one notation and
//! one set of pads for all the elements, chosen after surveying them.

use std::fmt::Write as _;

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
