//! [`Selection::parse`]: python's basic indexing as written inside the brackets
//! (`5`, `-1`, `2:8, ::3`, `..., 0`, `None, :`, `()`).

use core::str::FromStr;
use std::format;
use std::string::String;
use std::vec::Vec;

use super::selection::{Index, Selection};
use crate::array::error::{ArrayError, ArrayErrorKind};

impl Selection {
    /// Parses the text python puts between an array's brackets: items separated by
    /// commas (a trailing comma allowed, the whole optionally in parentheses), each an
    /// integer, a slice `start:stop:step` (parts optional, `None` for an omitted one),
    /// `...` (or `Ellipsis`) or `None` (or `np.newaxis`). Integers are python's: a sign,
    /// digits and single underscores between them. Errors give the byte offset; lists
    /// and booleans (numpy's advanced indexing) are
    /// [`UnsupportedIndex`](ArrayErrorKind::UnsupportedIndex).
    ///
    /// ```
    /// use b2nd_meta::array::{Index, Selection};
    ///
    /// assert_eq!(Selection::parse("-1")?.items(), [Index::Int(-1)]);
    /// assert_eq!(Selection::parse("(1_000, None:5)")?.to_string(), "1000, :5");
    /// assert_eq!(Selection::parse("()")?.items(), []);
    /// let err = Selection::parse("1:2:3:4").unwrap_err();
    /// assert_eq!(err.to_string(), "expected ',' or the end, found ':' at byte 5");
    /// let err = Selection::parse("[1, 2]").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "lists (numpy's fancy indexing) are not supported: only ints, slices, ..., None at byte 0"
    /// );
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Selection, ArrayError> {
        let mut p = Parser { text, at: 0 };
        p.skip_ws();
        let end = match p.outer_parens() {
            Some(close) => close,
            None => text.len(),
        };
        let mut items = Vec::new();
        loop {
            p.skip_ws();
            if p.at == end && (!items.is_empty() || end < text.len()) {
                break;
            }
            items.push(p.item(end)?);
            p.skip_ws();
            if p.at == end {
                break;
            }
            p.expect_comma(end)?;
        }
        if end < text.len() {
            p.at = end + 1;
            p.skip_ws();
            if p.at < text.len() {
                return Err(p.error("the end after ')'"));
            }
        }
        Ok(Selection::new(items))
    }
}

impl FromStr for Selection {
    type Err = ArrayError;

    fn from_str(text: &str) -> Result<Selection, ArrayError> {
        Selection::parse(text)
    }
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

/// The words python accepts for `...` and `None`.
const ELLIPSIS_WORDS: [&str; 2] = ["...", "Ellipsis"];
const NEWAXIS_WORDS: [&str; 4] = ["None", "np.newaxis", "numpy.newaxis", "newaxis"];

impl Parser<'_> {
    fn rest(&self) -> &str {
        self.text.get(self.at..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn error(&self, expected: &'static str) -> ArrayError {
        let found = match self.peek() {
            Some(c) => format!("{c:?}"),
            None => String::from("end of input"),
        };
        ArrayError::at(self.at as u64, ArrayErrorKind::Syntax { expected, found })
    }

    /// When the whole text is `( ... )`, the offset of its closing parenthesis (the
    /// parser then stands after the opening one).
    fn outer_parens(&mut self) -> Option<usize> {
        let trimmed = self.text.trim_end();
        if self.peek() == Some('(') && trimmed.ends_with(')') {
            self.at += 1;
            return Some(trimmed.len() - 1);
        }
        None
    }

    fn word(&mut self, words: &[&str]) -> bool {
        for w in words {
            if let Some(after) = self.rest().strip_prefix(w)
                && !after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                self.at += w.len();
                return true;
            }
        }
        false
    }

    fn expect_comma(&mut self, end: usize) -> Result<(), ArrayError> {
        if self.at < end && self.peek() == Some(',') {
            self.at += 1;
            return Ok(());
        }
        Err(self.error(if end < self.text.len() {
            "',' or ')'"
        } else {
            "',' or the end"
        }))
    }

    fn item(&mut self, end: usize) -> Result<Index, ArrayError> {
        if self.word(&ELLIPSIS_WORDS) {
            return Ok(Index::Ellipsis);
        }
        let first = self.part()?;
        self.skip_ws();
        if self.peek() != Some(':') || self.at >= end {
            return match first {
                Part::Int(i) => Ok(Index::Int(i)),
                Part::None => Ok(Index::NewAxis),
                Part::Empty => Err(self.error("an index")),
            };
        }
        self.at += 1;
        let stop = self.part()?;
        self.skip_ws();
        let mut step = Part::Empty;
        if self.peek() == Some(':') && self.at < end {
            self.at += 1;
            step = self.part()?;
        }
        Ok(Index::slice(first.value(), stop.value(), step.value()))
    }

    /// An integer, `None`, or nothing (before a ':', a ',' or the end).
    fn part(&mut self) -> Result<Part, ArrayError> {
        self.skip_ws();
        if self.word(&NEWAXIS_WORDS) {
            return Ok(Part::None);
        }
        // numpy's advanced indexing, said as such rather than as a syntax error.
        let at = self.at;
        let unsupported =
            |what| ArrayError::at(at as u64, ArrayErrorKind::UnsupportedIndex { what });
        if self.peek() == Some('[') {
            return Err(unsupported("lists (numpy's fancy indexing)"));
        }
        if self.word(&["True", "False"]) {
            self.at = at;
            return Err(unsupported("booleans (numpy's boolean masks)"));
        }
        match self.peek() {
            None | Some(':' | ',' | ')') => Ok(Part::Empty),
            Some(_) => self.integer().map(Part::Int),
        }
    }

    /// python's integer literal: a sign, then digits with single underscores between.
    fn integer(&mut self) -> Result<i64, ArrayError> {
        let start = self.at;
        let mut negative = false;
        if let Some(sign @ ('+' | '-')) = self.peek() {
            negative = sign == '-';
            self.at += 1;
            self.skip_ws();
        }
        let digits_at = self.at;
        let mut value: i128 = 0;
        let mut last_underscore = false;
        while let Some(c) = self.peek() {
            match c {
                '0'..='9' => {
                    value = value * 10 + i128::from(c as u8 - b'0');
                    if value > i128::from(i64::MAX) + 1 {
                        self.at = start;
                        return Err(self.error("an integer that fits in 64 bits"));
                    }
                    last_underscore = false;
                }
                '_' if self.at > digits_at && !last_underscore => last_underscore = true,
                _ => break,
            }
            self.at += 1;
        }
        if self.at == digits_at || last_underscore {
            return Err(self.error("an integer"));
        }
        let value = if negative { -value } else { value };
        i64::try_from(value).map_err(|_| {
            self.at = start;
            self.error("an integer that fits in 64 bits")
        })
    }
}

enum Part {
    Int(i64),
    None,
    Empty,
}

impl Part {
    fn value(self) -> Option<i64> {
        match self {
            Part::Int(i) => Some(i),
            Part::None | Part::Empty => None,
        }
    }
}
