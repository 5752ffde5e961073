//! Parsing: [`Dtype::parse`], [`FromStr`] and serde's `Deserialize` (and `Serialize`,
//! its mirror through [`Display`](core::fmt::Display)).

use core::fmt;
use core::str::FromStr;

use super::build::dtype_from_lit;
use super::error::{error_at, DtypeError, Loc};
use super::literal::{skip_ws, Lexer};
use super::model::Dtype;
use super::typestr::parse_typestr;

impl Dtype {
    /// Parses a NumPy dtype string in any of the forms described in the
    /// [module documentation](crate::dtype).
    ///
    /// ```
    /// use b2nd_meta::dtype::{Dtype, Kind};
    ///
    /// let dt = Dtype::parse(
    ///     "{'names': ['x', 'y'], 'formats': ['u1', '<i8'], 'offsets': [0, 8], 'itemsize': 16}",
    /// )?;
    /// assert_eq!(dt.kind(), Kind::Struct);
    /// assert_eq!(dt.itemsize(), 16);
    /// assert_eq!(dt.fields().unwrap()[1].offset(), 8);
    ///
    /// let err = Dtype::parse("<M8[parsec]").unwrap_err();
    /// assert_eq!(err.offset(), Some(4));
    /// # Ok::<(), b2nd_meta::dtype::DtypeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`DtypeError`] with the byte offset of the first problem when the
    /// string is not a dtype this crate understands, or when a size, the
    /// nesting depth or the number of dimensions goes past its limit.
    pub fn parse(s: &str) -> Result<Dtype, DtypeError> {
        let start = skip_ws(s, 0);
        match s.as_bytes().get(start) {
            Some(b'[' | b'(' | b'{' | b'\'' | b'"') => {
                let mut lexer = Lexer { src: s, pos: start };
                let lit = lexer.value(0)?;
                let end = skip_ws(s, lexer.pos);
                if end < s.len() {
                    return Err(error_at(s, end, "end of input"));
                }
                dtype_from_lit(&lit, false, 0)
            }
            _ => parse_typestr(s).map_err(|e| e.relocate(Loc::Shift(0))),
        }
    }
}

impl FromStr for Dtype {
    type Err = DtypeError;

    /// Same as [`Dtype::parse`].
    fn from_str(s: &str) -> Result<Dtype, DtypeError> {
        Dtype::parse(s)
    }
}

impl serde::Serialize for Dtype {
    /// Serializes as the canonical string (see [`Display`](core::fmt::Display)).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Dtype {
    /// Deserializes from a string (or UTF-8 bytes) in any form
    /// [`Dtype::parse`] accepts.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Dtype, D::Error> {
        struct Visitor;

        impl serde::de::Visitor<'_> for Visitor {
            type Value = Dtype;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a NumPy dtype string")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Dtype, E> {
                Dtype::parse(v).map_err(E::custom)
            }

            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Dtype, E> {
                match core::str::from_utf8(v) {
                    Ok(s) => self.visit_str(s),
                    Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(v), &self)),
                }
            }
        }

        deserializer.deserialize_str(Visitor)
    }
}
