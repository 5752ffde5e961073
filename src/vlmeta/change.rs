//! What a vlmeta write changes: [`VlmetaChange`], applied to the entries as python
//! applies them, and the [`VlmetaPlan`] that reports it.

use serde::Serialize;
use std::string::{String, ToString};
use std::vec::Vec;

use crate::chunk;
use crate::frame::trailer::commit::borrowed;
use crate::frame::trailer::write::{check_name, refused, trailer_bytes, VlmetaRefusal};
use crate::frame::{FrameError, FrameErrorKind};
use crate::meta::error::Error;
use crate::value::Value;

/// One change to a frame's vlmetalayers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VlmetaChange {
    /// Add `name`, or replace its value, with these msgpack bytes (stored compressed).
    Set {
        /// The name (UTF-8, at most 31 bytes).
        name: String,
        /// The value's msgpack bytes.
        msgpack: Vec<u8>,
    },
    /// Delete `name`.
    Delete {
        /// The name.
        name: String,
    },
}

impl VlmetaChange {
    /// Sets `name` to `value`, encoded with rmp-serde as
    /// [`user_meta_bytes`](crate::frame::user_meta_bytes) encodes it.
    ///
    /// ```
    /// use b2nd_meta::vlmeta::VlmetaChange;
    /// let change = VlmetaChange::set("units", "m/s")?;
    /// assert_eq!(change, VlmetaChange::Set { name: "units".into(), msgpack: b"\xa3m/s".to_vec() });
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn set<T: ?Sized + Serialize>(name: &str, value: &T) -> Result<Self, FrameError> {
        VlmetaChange::set_encoded(name, crate::frame::user_meta_bytes(value))
    }

    /// Sets `name` to a [`Value`], encoded as python-blosc2 encodes it.
    ///
    /// ```
    /// use b2nd_meta::{value::Value, vlmeta::VlmetaChange};
    /// let change = VlmetaChange::set_value("n", &Value::Int(1))?;
    /// assert_eq!(change, VlmetaChange::Set { name: "n".into(), msgpack: vec![1] });
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn set_value(name: &str, value: &Value) -> Result<Self, FrameError> {
        VlmetaChange::set_encoded(name, value.to_msgpack())
    }

    /// Sets `name` to `msgpack`, or says why the value did not encode.
    fn set_encoded(name: &str, msgpack: Result<Vec<u8>, Error>) -> Result<Self, FrameError> {
        let name = name.to_string();
        match msgpack {
            Ok(msgpack) => Ok(VlmetaChange::Set { name, msgpack }),
            Err(source) => Err(FrameError::new(FrameErrorKind::VlmetaValue {
                name,
                source,
            })),
        }
    }

    /// Deletes `name`.
    pub fn delete(name: &str) -> Self {
        VlmetaChange::Delete {
            name: name.to_string(),
        }
    }
}

/// What a vlmeta write did, or would do (a dry run).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct VlmetaPlan {
    /// Names added.
    pub added: Vec<String>,
    /// Names whose value was replaced (by another value or the same one).
    pub replaced: Vec<String>,
    /// Names deleted.
    pub deleted: Vec<String>,
    /// The names after the change, in index order.
    pub names: Vec<String>,
    /// The old trailer's offset and length.
    pub old_trailer: (u64, u32),
    /// The new trailer's offset and length (where it ends up).
    pub new_trailer: (u64, u32),
    /// Whether any byte was (or would be) written: not when the trailer is unchanged.
    pub changed: bool,
}

/// The changes applied to the entries (name, stored chunk), as python applies them.
pub(super) fn apply(
    entries: &mut Vec<(String, Vec<u8>)>,
    changes: &[VlmetaChange],
) -> Result<VlmetaPlan, VlmetaRefusal> {
    let mut plan = VlmetaPlan {
        added: Vec::new(),
        replaced: Vec::new(),
        deleted: Vec::new(),
        names: Vec::new(),
        old_trailer: (0, 0),
        new_trailer: (0, 0),
        changed: false,
    };
    for change in changes {
        match change {
            VlmetaChange::Set { name, msgpack } => {
                check_name(name)?;
                let slot = entries.iter().position(|(n, _)| n == name);
                // The same value keeps its stored chunk, byte for byte.
                if let Some(i) = slot {
                    plan.replaced.push(name.clone());
                    if chunk::decode(&entries[i].1).is_ok_and(|old| old == *msgpack) {
                        continue;
                    }
                }
                let stored = chunk::encode(msgpack).map_err(|e| VlmetaRefusal::TooLarge {
                    name: name.clone(),
                    len: e.nbytes,
                })?;
                match slot {
                    Some(i) => entries[i].1 = stored,
                    None => {
                        plan.added.push(name.clone());
                        entries.push((name.clone(), stored));
                    }
                }
            }
            VlmetaChange::Delete { name } => {
                let Some(i) = entries.iter().position(|(n, _)| n == name) else {
                    return Err(VlmetaRefusal::Unknown { name: name.clone() });
                };
                entries.remove(i);
                plan.deleted.push(name.clone());
            }
        }
    }
    Ok(plan)
}

/// The trailer of a new frame whose vlmetalayers are those `changes` set, in order, and
/// whether it holds any.
pub(crate) fn new_trailer(changes: &[VlmetaChange]) -> Result<(Vec<u8>, bool), FrameError> {
    let mut entries = Vec::new();
    apply(&mut entries, changes).map_err(refused)?;
    let bytes = trailer_bytes(&borrowed(&entries)).map_err(refused)?;
    Ok((bytes, !entries.is_empty()))
}
