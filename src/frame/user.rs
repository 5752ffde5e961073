//! User metalayers as serde values: what python-blosc2 users attach with
//! `blosc2.zeros(..., meta={"units": {"x": "m"}})`, one msgpack value per metalayer.
//!
//! Read one as any `T: DeserializeOwned` through rmp-serde
//! ([`FrameHeader::user_meta`]), or as a [`Value`] with python-blosc2's conventions
//! decoded ([`FrameHeader::user_meta_value`]); rewrite one from any `T: Serialize`
//! ([`set_user_meta`], on a file or in memory) in place, when the new encoding has
//! exactly the old length (C-Blosc2's `blosc2_meta_update` rule): another length is
//! refused with [`FrameErrorKind::ContentLengthMismatch`], which holds both lengths.
//!
//! Values are encoded with `rmp_serde::to_vec_named` (structs as maps, as python's
//! dicts); a [`Value`] encodes as python-blosc2 writes it.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::borrow::ToOwned;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, Metalayer};
use super::source::Target;
use super::write::update;
use crate::value::Value;

impl FrameHeader {
    /// The metalayer `name` decoded as a `T` through rmp-serde; all of its content must
    /// be one msgpack value.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    ///
    /// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd"));
    /// let header = b2nd_meta::frame::parse_header(bytes)?;
    /// // python: blosc2.zeros(..., meta={"user": {"answer": 42}, ...})
    /// let user: BTreeMap<String, i32> = header.user_meta("user")?;
    /// assert_eq!(user["answer"], 42);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn user_meta<T: DeserializeOwned>(&self, name: &str) -> Result<T, FrameError> {
        let m = self.user_metalayer(name)?;
        super::typed::from_msgpack(&m.content).map_err(|e| m.error(e))
    }

    /// The metalayer `name` decoded as a [`Value`], python-blosc2's conventions
    /// (tuples, complex, sets, NumPy arrays) included.
    ///
    /// ```
    /// use b2nd_meta::value::Value;
    ///
    /// let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd"));
    /// let header = b2nd_meta::frame::parse_header(bytes)?;
    /// let user = header.user_meta_value("user")?;
    /// assert_eq!(user.get("answer"), Some(&Value::Int(42)));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn user_meta_value(&self, name: &str) -> Result<Value, FrameError> {
        let m = self.user_metalayer(name)?;
        Value::from_msgpack(&m.content).map_err(|e| m.error(e))
    }

    fn user_metalayer(&self, name: &str) -> Result<&Metalayer, FrameError> {
        self.metalayer(name).ok_or_else(|| {
            FrameError::new(FrameErrorKind::UnknownMetalayer {
                name: name.to_owned(),
            })
        })
    }
}

/// The msgpack bytes [`set_user_meta`] writes for `value`: `rmp_serde::to_vec_named`.
///
/// ```
/// use std::collections::BTreeMap;
///
/// let value = BTreeMap::from([("answer", 43)]);
/// assert_eq!(b2nd_meta::frame::user_meta_bytes(&value)?, b"\x81\xa6answer\x2b");
/// # Ok::<(), b2nd_meta::Error>(())
/// ```
pub fn user_meta_bytes<T: ?Sized + Serialize>(value: &T) -> crate::meta::error::Result<Vec<u8>> {
    rmp_serde::to_vec_named(value).map_err(<crate::meta::error::Error as serde::ser::Error>::custom)
}

fn encode_error(name: &str, source: crate::meta::error::Error) -> FrameError {
    FrameError::new(FrameErrorKind::Metalayer {
        name: name.to_owned(),
        content_offset: 0,
        source,
    })
}

/// Rewrites the user metalayer `name` of the frame at `path` (a contiguous file or a
/// sparse-frame directory) with the msgpack of `value`, in place, as one locked
/// operation like [`rewrite_metalayer`](super::rewrite_metalayer): only when the new
/// bytes have exactly the old length.
///
/// The array's metalayer is not a user one and is refused
/// ([`FrameErrorKind::NotUserMetalayer`]; see
/// [`FrameHeader::is_array_metalayer`]); a `caterva` metalayer beside a `b2nd` one is
/// user data and is rewritten, as python-blosc2 rewrites it. An encoding error is a
/// [`FrameErrorKind::Metalayer`] whose content offset is 0.
///
/// ```
/// use std::collections::BTreeMap;
/// use b2nd_meta::frame::{open, set_user_meta, FrameError, FrameErrorKind, Target};
/// use b2nd_meta::value::Value;
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-user-doc-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
///
/// set_user_meta(&path, "user", &BTreeMap::from([("answer", 43)]))?;
/// let got: BTreeMap<String, i32> = open(&path)?.header.user_meta("user")?;
/// assert_eq!(got["answer"], 43);
///
/// // 300 needs a uint16: two bytes longer, refused with both lengths.
/// let err = set_user_meta(&path, "user", &BTreeMap::from([("answer", 300)])).unwrap_err();
/// assert!(matches!(
///     err.kind(),
///     FrameErrorKind::ContentLengthMismatch { expected: 9, found: 11, .. }
/// ));
/// // The array's metalayer is not user data.
/// let err = set_user_meta(&path, "b2nd", &[1, 2, 3]).unwrap_err();
/// assert!(matches!(err.kind(), FrameErrorKind::NotUserMetalayer { .. }));
/// std::fs::remove_file(&path).unwrap();
///
/// // In memory: python wrote [1, 2, 3]; a list of the same widths has its length.
/// let mut bytes = std::fs::read(src).unwrap();
/// let long = "m".repeat(31);
/// set_user_meta(Target::bytes(&mut bytes), &long, &[7, 8, 9])?;
/// let got = b2nd_meta::frame::parse_header(&bytes)?.user_meta_value(&long)?;
/// assert_eq!(got, Value::Array(vec![Value::Int(7), Value::Int(8), Value::Int(9)]));
/// # Ok::<(), FrameError>(())
/// ```
pub fn set_user_meta<'a, T: ?Sized + Serialize>(
    frame: impl Into<Target<'a>>,
    name: &str,
    value: &T,
) -> Result<(), FrameError> {
    let bytes = user_meta_bytes(value).map_err(|e| encode_error(name, e))?;
    update(frame.into(), |header| {
        header.refuse_array_metalayer(name)?;
        Ok((name.to_owned(), bytes, ()))
    })
}
