//! [`SmallString`]: a string inline when short.

use alloc::string::String;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

/// How many bytes a [`SmallString`] holds without allocating.
pub const INLINE_STR: usize = 22;

/// A string kept inline when it is at most 22 bytes long (every NumPy dtype but
/// structured ones), on the heap otherwise. Reads as a `&str` through `Deref`.
///
/// ```
/// use b2nd_meta::SmallString;
///
/// let dtype = SmallString::from("<f8");
/// assert_eq!(dtype, "<f8");
/// assert_eq!(dtype.len(), 3);
/// assert_eq!(format!("{dtype:?} {dtype}"), r#""<f8" <f8"#);
/// ```
#[derive(Clone)]
pub struct SmallString {
    repr: StrRepr,
}

#[derive(Clone)]
enum StrRepr {
    /// Valid UTF-8 in `bytes[..len]`: copied from a `&str` or from checked bytes.
    Inline {
        len: u8,
        bytes: [u8; INLINE_STR],
    },
    Heap(String),
}

impl SmallString {
    /// How many bytes are kept without allocating.
    pub const INLINE_CAPACITY: usize = INLINE_STR;

    /// The empty string.
    pub const fn new() -> Self {
        SmallString {
            repr: StrRepr::Inline {
                len: 0,
                bytes: [0; INLINE_STR],
            },
        }
    }

    /// `bytes` inline, when they fit; the caller vouches that they are UTF-8.
    #[inline]
    fn inline(bytes: &[u8]) -> Option<Self> {
        let mut inline = [0; INLINE_STR];
        let dst = inline.get_mut(..bytes.len())?;
        // Byte by byte: a dtype is a few bytes, and `copy_from_slice` calls `memcpy` for
        // a length not known in advance.
        for (d, &b) in dst.iter_mut().zip(bytes) {
            *d = b;
        }
        Some(SmallString {
            repr: StrRepr::Inline {
                len: bytes.len() as u8,
                bytes: inline,
            },
        })
    }

    /// `bytes`, which the caller has checked to be UTF-8, without checking them again
    /// when they fit inline (were they not UTF-8, the string would read as empty).
    #[inline]
    pub(crate) fn from_checked_utf8(bytes: &[u8]) -> Self {
        SmallString::inline(bytes).unwrap_or_else(|| SmallString {
            repr: StrRepr::Heap(String::from_utf8_lossy(bytes).into_owned()),
        })
    }

    /// The string's bytes (as `as_str().as_bytes()`, without checking them again).
    ///
    /// ```
    /// use b2nd_meta::SmallString;
    ///
    /// assert_eq!(SmallString::from("<f8").as_bytes(), b"<f8");
    /// ```
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            StrRepr::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or_default(),
            StrRepr::Heap(s) => s.as_bytes(),
        }
    }

    /// Length in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// True for the empty string.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.as_bytes().is_empty()
    }

    /// The string (as through `Deref`).
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.repr {
            // Always UTF-8 (copied from a `str`), so the fallback is never taken.
            StrRepr::Inline { len, bytes } => bytes
                .get(..usize::from(*len))
                .and_then(|b| core::str::from_utf8(b).ok())
                .unwrap_or_default(),
            StrRepr::Heap(s) => s,
        }
    }
}

impl Default for SmallString {
    fn default() -> Self {
        SmallString::new()
    }
}

impl Deref for SmallString {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for SmallString {
    #[inline]
    fn from(s: &str) -> Self {
        SmallString::inline(s.as_bytes()).unwrap_or_else(|| SmallString {
            repr: StrRepr::Heap(s.into()),
        })
    }
}

impl From<String> for SmallString {
    fn from(s: String) -> Self {
        if s.len() <= INLINE_STR {
            SmallString::from(s.as_str())
        } else {
            SmallString {
                repr: StrRepr::Heap(s),
            }
        }
    }
}

impl From<SmallString> for String {
    fn from(s: SmallString) -> Self {
        match s.repr {
            StrRepr::Heap(s) => s,
            StrRepr::Inline { .. } => s.as_str().into(),
        }
    }
}

impl fmt::Debug for SmallString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SmallString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for SmallString {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for SmallString {}

impl Hash for SmallString {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

macro_rules! str_eq_with {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for SmallString {
            fn eq(&self, other: &$other) -> bool {
                self.as_str() == &other[..]
            }
        }
        impl PartialEq<SmallString> for $other {
            fn eq(&self, other: &SmallString) -> bool {
                &self[..] == other.as_str()
            }
        }
    )*};
}

str_eq_with!(str, &str, String);

impl Serialize for SmallString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SmallString {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = SmallString;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            #[inline]
            fn visit_str<E: de::Error>(self, s: &str) -> Result<SmallString, E> {
                Ok(SmallString::from(s))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<SmallString, E> {
                Ok(SmallString::from(s))
            }
        }
        deserializer.deserialize_str(V)
    }
}
