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
                    if chunk::decode(&entries[i].1, &chunk::DecodeBudget::default())
                        .is_ok_and(|old| old == *msgpack)
                    {
                        continue;
                    }
                }
                let stored = chunk::compress(msgpack, &stored_params()).map_err(|_| {
                    VlmetaRefusal::TooLarge {
                        name: name.clone(),
                        len: msgpack.len(),
                    }
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

/// How a value's msgpack bytes are stored: one chunk of `typesize` 1, no filters, LZ4
/// blocks of 256 KiB (a reader's buffer stays small, LZ4 finds the repeats of a large
/// map) at acceleration 1 (`LZ4_compress_default`), or the bytes as they are when that
/// does not make them smaller. Every C-Blosc2 since 2.0 and every python-blosc2 decodes
/// it; vlmeta values are small and read whole, so speed matters more than ratio. With
/// these parameters [`chunk::compress`] refuses only inputs of more than
/// [`chunk::MAX_BUFFERSIZE`] bytes.
fn stored_params() -> chunk::CParams {
    chunk::CParams {
        codec: crate::blosc::Codec::Lz4,
        clevel: 9,
        typesize: 1,
        blocksize: 256 << 10,
        splitmode: crate::blosc::SplitMode::Never,
        filters: [(crate::blosc::Filter::None, 0); crate::blosc::MAX_FILTERS],
    }
}

/// The trailer of a new frame whose vlmetalayers are those `changes` set, in order, and
/// whether it holds any.
pub(crate) fn new_trailer(changes: &[VlmetaChange]) -> Result<(Vec<u8>, bool), FrameError> {
    let mut entries = Vec::new();
    apply(&mut entries, changes).map_err(refused)?;
    let bytes = trailer_bytes(&borrowed(&entries)).map_err(refused)?;
    Ok((bytes, !entries.is_empty()))
}

/// The trailer holding `entries` (name, stored chunk: an existing trailer's) with
/// `changes` applied, as [`crate::vlmeta::update_vlmeta`] applies them, and whether it
/// holds any.
pub(crate) fn changed_trailer(
    mut entries: Vec<(String, Vec<u8>)>,
    changes: &[VlmetaChange],
) -> Result<(Vec<u8>, bool), FrameError> {
    apply(&mut entries, changes).map_err(refused)?;
    let bytes = trailer_bytes(&borrowed(&entries)).map_err(refused)?;
    Ok((bytes, !entries.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::stored_params;
    use crate::blosc::Codec;
    use crate::chunk::{self, ChunkHeader};
    use std::vec::Vec;

    /// What `chunk::encode` was checked for before `chunk::compress` stored vlmeta
    /// values: every length round-trips, repeats compress over several blocks with a
    /// short last one, noise is stored as it is.
    #[test]
    fn stored_values_round_trip_through_our_decoder() {
        let mut seed = 1u32;
        let mut noise = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as u8
        };
        let random: Vec<u8> = (0..70_000).map(|_| noise()).collect();
        let repeats = b"key".repeat(300_000);
        let params = stored_params();
        for data in [&b""[..], b"\xc0", b"\x81\xa1a\x01", &random, &repeats] {
            let stored = chunk::compress(data, &params).unwrap();
            let h = ChunkHeader::parse(&stored).unwrap();
            assert_eq!((h.cbytes as usize, h.typesize), (stored.len(), 1));
            assert_eq!(
                chunk::decode(&stored, &chunk::DecodeBudget::default()).unwrap(),
                data
            );
        }
        let stored = chunk::compress(&repeats, &params).unwrap();
        assert!(stored.len() < repeats.len() / 10);
        assert_eq!(ChunkHeader::parse(&stored).unwrap().codec, Codec::Lz4);
        let stored = chunk::compress(&random, &params).unwrap();
        assert!(ChunkHeader::parse(&stored).unwrap().memcpyed());
        // Short values: the bytes after the 32-byte header.
        assert_eq!(
            chunk::compress(b"\x81\xa1a\x01", &params).unwrap().len(),
            36
        );
    }
}
