//! The Python literals of structured dtypes (`str(dtype)`): a bounded lexer.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::{error_at, excerpt, syntax, too_large, DtypeError};
use super::limits::MAX_LITERAL_DEPTH;
use super::typestr::{count_digits, parse_decimal};

/// A parsed Python literal; every variant records its start offset.
pub(super) enum Lit<'a> {
    /// `verbatim` when the string had no escapes, so its text is the input
    /// from `pos + 1` on.
    Str {
        text: Cow<'a, str>,
        pos: usize,
        verbatim: bool,
    },
    Int {
        value: u64,
        negative: bool,
        pos: usize,
    },
    Bool(bool, usize),
    None(usize),
    List(Vec<Lit<'a>>, usize),
    Tuple(Vec<Lit<'a>>, usize),
    Dict(Vec<(Lit<'a>, Lit<'a>)>, usize),
}

impl Lit<'_> {
    pub(super) fn pos(&self) -> usize {
        match self {
            Lit::Str { pos, .. } | Lit::Int { pos, .. } => *pos,
            Lit::Bool(_, pos)
            | Lit::None(pos)
            | Lit::List(_, pos)
            | Lit::Tuple(_, pos)
            | Lit::Dict(_, pos) => *pos,
        }
    }

    pub(super) fn describe(&self) -> String {
        match self {
            Lit::Str { text, .. } => format!("the string {}", excerpt(text, 0)),
            Lit::Int {
                value, negative, ..
            } => {
                if *negative {
                    format!("the integer -{value}")
                } else {
                    format!("the integer {value}")
                }
            }
            Lit::Bool(b, _) => String::from(if *b { "True" } else { "False" }),
            Lit::None(_) => String::from("None"),
            Lit::List(items, _) => format!("a list of {} items", items.len()),
            Lit::Tuple(items, _) => format!("a tuple of {} items", items.len()),
            Lit::Dict(items, _) => format!("a dict of {} items", items.len()),
        }
    }

    /// The elements of a list or tuple.
    pub(super) fn sequence(&self) -> Option<&[Lit<'_>]> {
        match self {
            Lit::List(items, _) | Lit::Tuple(items, _) => Some(items),
            _ => None,
        }
    }
}

pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

pub(super) fn skip_ws(s: &str, mut pos: usize) -> usize {
    while s.as_bytes().get(pos).is_some_and(|b| is_ws(*b)) {
        pos = pos.saturating_add(1);
    }
    pos
}

pub(super) struct Lexer<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    pub(super) fn bump(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    pub(super) fn skip_ws(&mut self) {
        self.pos = skip_ws(self.src, self.pos);
    }

    pub(super) fn err(&self, expected: impl Into<String>) -> DtypeError {
        error_at(self.src, self.pos, expected)
    }

    pub(super) fn value(&mut self, depth: usize) -> Result<Lit<'a>, DtypeError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            None => Err(self.err("a value")),
            Some(open @ (b'[' | b'(' | b'{')) => {
                if depth >= MAX_LITERAL_DEPTH {
                    return Err(too_large(
                        start,
                        format!("at most {MAX_LITERAL_DEPTH} nested brackets"),
                        "deeper nesting",
                    ));
                }
                self.bump();
                match open {
                    b'[' => Ok(Lit::List(self.items(b']', depth)?, start)),
                    b'{' => self.dict(start, depth),
                    _ => self.paren(start, depth),
                }
            }
            Some(q @ (b'\'' | b'"')) => self.string(q),
            Some(b'-' | b'+' | b'0'..=b'9') => self.int(),
            Some(b) if b.is_ascii_alphabetic() || b == b'_' => {
                let len = self
                    .src
                    .as_bytes()
                    .get(start..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                let word = self.src.get(start..start.saturating_add(len)).unwrap_or("");
                let lit = match word {
                    "True" => Lit::Bool(true, start),
                    "False" => Lit::Bool(false, start),
                    "None" => Lit::None(start),
                    _ => return Err(self.err("a Python literal")),
                };
                self.pos = start.saturating_add(len);
                Ok(lit)
            }
            Some(_) => Err(self.err("a Python literal")),
        }
    }

    /// Comma-separated values up to `close`; the opening bracket is consumed.
    pub(super) fn items(&mut self, close: u8, depth: usize) -> Result<Vec<Lit<'a>>, DtypeError> {
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(close) {
                self.bump();
                return Ok(items);
            }
            items.push(self.value(depth.saturating_add(1))?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(c) if c == close => {}
                _ => return Err(self.err(format!("',' or '{}'", char::from(close)))),
            }
        }
    }

    /// After `(`: a parenthesized value or a tuple.
    pub(super) fn paren(&mut self, start: usize, depth: usize) -> Result<Lit<'a>, DtypeError> {
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.bump();
            return Ok(Lit::Tuple(Vec::new(), start));
        }
        let first = self.value(depth.saturating_add(1))?;
        self.skip_ws();
        match self.peek() {
            Some(b')') => {
                self.bump();
                Ok(first)
            }
            Some(b',') => {
                self.bump();
                let mut items = self.items(b')', depth)?;
                items.insert(0, first);
                Ok(Lit::Tuple(items, start))
            }
            _ => Err(self.err("',' or ')'")),
        }
    }

    pub(super) fn dict(&mut self, start: usize, depth: usize) -> Result<Lit<'a>, DtypeError> {
        let mut entries = Vec::new();
        loop {
            self.skip_ws();
            if self.peek() == Some(b'}') {
                self.bump();
                return Ok(Lit::Dict(entries, start));
            }
            let key = self.value(depth.saturating_add(1))?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err("':'"));
            }
            self.bump();
            let value = self.value(depth.saturating_add(1))?;
            entries.push((key, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(b'}') => {}
                _ => return Err(self.err("',' or '}'")),
            }
        }
    }

    pub(super) fn int(&mut self) -> Result<Lit<'a>, DtypeError> {
        let start = self.pos;
        let negative = match self.peek() {
            Some(b'-') => {
                self.bump();
                true
            }
            Some(b'+') => {
                self.bump();
                false
            }
            _ => false,
        };
        let digits_start = self.pos;
        let rest = self.src.get(digits_start..).unwrap_or("");
        let ndigits = count_digits(rest);
        let digits = rest.get(..ndigits).unwrap_or("");
        if digits.is_empty() {
            return Err(self.err("a decimal digit"));
        }
        self.pos = digits_start.saturating_add(ndigits);
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            return Err(self.err("a decimal integer (no underscores, fractions or prefixes)"));
        }
        if digits.len() > 1 && digits.starts_with('0') && digits.bytes().any(|b| b != b'0') {
            return Err(syntax(
                digits_start,
                "a decimal integer without leading zeros",
                format!("{digits:?}"),
            ));
        }
        let Some(value) = parse_decimal(digits, u64::MAX) else {
            return Err(too_large(
                digits_start,
                format!("an integer of at most {}", u64::MAX),
                format!("{digits:?}"),
            ));
        };
        Ok(Lit::Int {
            value,
            negative,
            pos: start,
        })
    }

    pub(super) fn string(&mut self, quote: u8) -> Result<Lit<'a>, DtypeError> {
        let start = self.pos;
        let body_start = start.saturating_add(1);
        let body = self.src.get(body_start..).unwrap_or("");
        let unterminated = || {
            syntax(
                start,
                format!("a string closed by {}", char::from(quote)),
                "an unterminated string",
            )
        };
        // Fast path: no escapes.
        let mut owned: Option<String> = None;
        let mut chars = body.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                c if c == char::from(quote) => {
                    self.pos = body_start.saturating_add(i).saturating_add(1);
                    let (text, verbatim) = match owned {
                        Some(s) => (Cow::Owned(s), false),
                        None => (Cow::Borrowed(body.get(..i).unwrap_or("")), true),
                    };
                    return Ok(Lit::Str {
                        text,
                        pos: start,
                        verbatim,
                    });
                }
                '\n' | '\r' => return Err(unterminated()),
                '\\' => {
                    let buf =
                        owned.get_or_insert_with(|| String::from(body.get(..i).unwrap_or("")));
                    let esc_pos = body_start.saturating_add(i);
                    let bad_escape = |what: &str| syntax(esc_pos, what, excerpt(self.src, esc_pos));
                    let Some((_, e)) = chars.next() else {
                        return Err(unterminated());
                    };
                    match e {
                        '\n' => {}
                        '\\' | '\'' | '"' => buf.push(e),
                        'n' => buf.push('\n'),
                        'r' => buf.push('\r'),
                        't' => buf.push('\t'),
                        'a' => buf.push('\x07'),
                        'b' => buf.push('\x08'),
                        'f' => buf.push('\x0c'),
                        'v' => buf.push('\x0b'),
                        '0'..='7' => {
                            let mut value = e.to_digit(8).unwrap_or(0);
                            for _ in 0..2 {
                                let next = chars.clone().next();
                                match next.and_then(|(_, d)| d.to_digit(8)) {
                                    Some(d) => {
                                        value = value * 8 + d;
                                        chars.next();
                                    }
                                    None => break,
                                }
                            }
                            // At most 0o777, always a valid char.
                            buf.push(char::from_u32(value).unwrap_or('\u{fffd}'));
                        }
                        'x' | 'u' | 'U' => {
                            let n = match e {
                                'x' => 2,
                                'u' => 4,
                                _ => 8,
                            };
                            let mut value: u32 = 0;
                            for _ in 0..n {
                                match chars.next().and_then(|(_, d)| d.to_digit(16)) {
                                    Some(d) => value = (value << 4) | d,
                                    None => {
                                        return Err(bad_escape(&format!(
                                            "\\{e} followed by {n} hex digits"
                                        )));
                                    }
                                }
                            }
                            match char::from_u32(value) {
                                Some(c) => buf.push(c),
                                None => {
                                    return Err(bad_escape("an escape of a Unicode scalar value"));
                                }
                            }
                        }
                        'N' => return Err(bad_escape("an escape other than \\N{...}")),
                        other => {
                            // Python keeps unknown escapes as written.
                            buf.push('\\');
                            buf.push(other);
                        }
                    }
                }
                c => {
                    if let Some(buf) = owned.as_mut() {
                        buf.push(c);
                    }
                }
            }
        }
        Err(unterminated())
    }
}
