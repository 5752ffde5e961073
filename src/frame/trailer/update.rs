//! Setting and deleting vlmetalayers in a frame file: the new trailer is written where
//! no live byte is, then the header's `frame_len` is flipped to it in one 8-byte write,
//! so that at every instant `frame_len` points at a complete trailer.
//!
//! C-Blosc2 finds the trailer at `frame_len - trailer_len` (`get_trailer_offset`) and
//! reads the chunk-offsets index from `header_len + cbytes` (a sparse frame's from
//! `header_len`), so the bytes between the index's end `D` and the trailer are never
//! read as data: C itself overwrites them when it next appends a chunk. With `O` the
//! old trailer's offset, `F` the old `frame_len` and `n` the new trailer's length:
//!
//! 1. if `D + n <= O`, the new trailer goes at `D` (it cannot touch the live one), and
//!    the file is cut at its end;
//! 2. otherwise it goes at `F`, past the end, and the space before it (less than the new
//!    trailer plus the old one) stays a gap until a later write fits there (step 1).
//!    Copying it down right away would need a second write and two more syncs; the
//!    gap is bounded by two trailers, never by the number of writes.
//!
//! Either way: write, `sync_data`, flip `frame_len` (and the header's
//! has-vlmetalayers byte, which C rewrites too and nobody reads), `sync_data`, then
//! truncate the file at the new `frame_len` (bytes past `frame_len` are never part of
//! the frame; C truncates there too). A crash leaves the old trailer or the new one,
//! the data bytes (chunks and index) untouched either way. The flip relies on an
//! 8-byte write at an 8-aligned offset of the file's first sector not being torn, as
//! storage does not tear writes inside a sector.
//!
//! A frame holding no data (`nbytes == 0`) is the exception: C reads its trailer right
//! after the header whatever `frame_len` says, so it is rewritten there, in place, as C
//! does; a crash during that write can leave a trailer that does not read.

use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use super::write::{check_name, refused, trailer_bytes, VlmetaRefusal};
use super::{locate as locate_trailer, parse::parse_trailer_bytes, TRAILER_MIN_LEN};
use crate::chunk::{self, ChunkHeader};
use crate::frame::file::{check_kind, locate, read_header, with_path};
use crate::frame::lock::{lock_frame, Locking};
use crate::frame::parse::OFF_FRAME_LEN;
use crate::frame::{FrameError, FrameErrorKind, FrameHeader, FrameKind};
use crate::value::Value;

/// Offset of the has-vlmetalayers bool in the header (`FRAME_HAS_VLMETALAYERS`).
const OFF_HAS_VLMETA: u64 = 68;

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
    /// use b2nd_meta::frame::VlmetaChange;
    /// let change = VlmetaChange::set("units", "m/s")?;
    /// assert_eq!(change, VlmetaChange::Set { name: "units".into(), msgpack: b"\xa3m/s".to_vec() });
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn set<T: ?Sized + Serialize>(name: &str, value: &T) -> Result<Self, FrameError> {
        let msgpack = crate::frame::user_meta_bytes(value).map_err(|source| {
            FrameError::new(FrameErrorKind::VlmetaValue {
                name: name.to_string(),
                source,
            })
        })?;
        Ok(VlmetaChange::Set {
            name: name.to_string(),
            msgpack,
        })
    }

    /// Sets `name` to a [`Value`], encoded as python-blosc2 encodes it.
    ///
    /// ```
    /// use b2nd_meta::{frame::VlmetaChange, value::Value};
    /// let change = VlmetaChange::set_value("n", &Value::Int(1))?;
    /// assert_eq!(change, VlmetaChange::Set { name: "n".into(), msgpack: vec![1] });
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn set_value(name: &str, value: &Value) -> Result<Self, FrameError> {
        let msgpack = value.to_msgpack().map_err(|source| {
            FrameError::new(FrameErrorKind::VlmetaValue {
                name: name.to_string(),
                source,
            })
        })?;
        Ok(VlmetaChange::Set {
            name: name.to_string(),
            msgpack,
        })
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

/// How [`update_vlmeta_with`] works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct VlmetaOptions {
    /// Decide and report only; nothing is written.
    pub dry_run: bool,
    /// When to take part in C-Blosc2's lock protocol.
    pub locking: Locking,
}

impl VlmetaOptions {
    /// A dry run: decide and report, write nothing.
    pub fn dry_run(mut self, yes: bool) -> Self {
        self.dry_run = yes;
        self
    }

    /// The lock protocol to follow.
    pub fn locking(mut self, locking: Locking) -> Self {
        self.locking = locking;
        self
    }
}

/// Sets vlmetalayer `name` of the frame at `path` (a contiguous file, or a sparse
/// frame's directory) to `value` (see [`update_vlmeta`]): python's
/// `arr.vlmeta[name] = value`.
///
/// ```
/// use b2nd_meta::frame::{open, set_vlmeta};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-setvl-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
/// set_vlmeta(&path, "units", "m/s")?;
/// let units: String = open(&path)?.vlmeta("units")?;
/// assert_eq!(units, "m/s");
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn set_vlmeta<T: ?Sized + Serialize>(
    path: impl AsRef<Path>,
    name: &str,
    value: &T,
) -> Result<VlmetaPlan, FrameError> {
    update_vlmeta(path, &[VlmetaChange::set(name, value)?])
}

/// Deletes vlmetalayer `name` of the frame at `path` (see [`update_vlmeta`]):
/// python's `del arr.vlmeta[name]`. An unknown name is refused.
///
/// ```
/// use b2nd_meta::frame::{del_vlmeta, open};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-delvl-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
/// let plan = del_vlmeta(&path, "int")?;
/// assert!(!plan.names.contains(&"int".to_string()));
/// assert!(del_vlmeta(&path, "int").is_err());
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn del_vlmeta(path: impl AsRef<Path>, name: &str) -> Result<VlmetaPlan, FrameError> {
    update_vlmeta(path, &[VlmetaChange::delete(name)])
}

/// Applies `changes`, in order, to the vlmetalayers of the frame at `path`, in one
/// write (python's `vlmeta[:] = {...}`), crash-consistently (see the module docs of
/// [`crate::frame`]). New names go at the end, replaced ones keep their place, and
/// unchanged entries keep their exact stored chunks.
///
/// Refused with nothing written: a name over 31 bytes or holding NUL, more than 16
/// entries, a value too large, deleting an unknown name, a truncated frame, a trailer
/// that does not read or that C-Blosc2 would not have written, a read-only file.
pub fn update_vlmeta(
    path: impl AsRef<Path>,
    changes: &[VlmetaChange],
) -> Result<VlmetaPlan, FrameError> {
    update_vlmeta_with(path, changes, VlmetaOptions::default())
}

/// [`update_vlmeta`] with options: a dry run, another [`Locking`].
///
/// ```
/// use b2nd_meta::frame::{update_vlmeta_with, VlmetaChange, VlmetaOptions};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let plan = update_vlmeta_with(path, &[VlmetaChange::set("k", &1)?], VlmetaOptions::default().dry_run(true))?;
/// assert_eq!(plan.added, ["k"]);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn update_vlmeta_with(
    path: impl AsRef<Path>,
    changes: &[VlmetaChange],
    options: VlmetaOptions,
) -> Result<VlmetaPlan, FrameError> {
    update_stopping_after(path.as_ref(), changes, options, u64::MAX)
}

/// [`update_vlmeta_with`] that stops, as a crash would, once `budget` units of writing
/// are spent (a byte of the trailer written, a sync, a truncation, the 8-byte flip of
/// `frame_len`: one unit each). For crash tests.
#[doc(hidden)]
pub fn update_stopping_after(
    path: &Path,
    changes: &[VlmetaChange],
    options: VlmetaOptions,
    budget: u64,
) -> Result<VlmetaPlan, FrameError> {
    let (header_path, kind) = locate(path)?;
    let p = header_path.as_path();
    let io = |e| FrameError::io(Some(p))(e);
    let file = OpenOptions::new()
        .read(true)
        .write(!options.dry_run)
        .open(p)
        .map_err(io)?;
    let _sidecar = lock_frame(path, kind, !options.dry_run, options.locking)?;
    if options.dry_run {
        file.lock_shared().map_err(io)?;
    } else {
        file.lock().map_err(io)?;
    }
    let result = locked(&file, p, kind, changes, options.dry_run, budget);
    let unlocked = file.unlock().map_err(io);
    let plan = result?;
    unlocked?;
    Ok(plan)
}

fn locked(
    file: &File,
    p: &Path,
    kind: FrameKind,
    changes: &[VlmetaChange],
    dry_run: bool,
    budget: u64,
) -> Result<VlmetaPlan, FrameError> {
    let io = |e| FrameError::io(Some(p))(e);
    let file_len = file.metadata().map_err(io)?.len();
    let mut reader = file;
    let header = read_header(&mut reader).map_err(|e| with_path(e, p))?;
    check_kind(p, kind, &header)?;
    let frame_len = header.info.frame_len;
    if file_len < frame_len {
        return Err(FrameError::new(FrameErrorKind::TruncatedFrame {
            frame_len,
            file_len,
        })
        .in_file(p));
    }
    let in_file = |e: FrameError| e.in_file(p);
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = read_exact(file, last_at, TRAILER_MIN_LEN as usize).map_err(io)?;
    let (old_at, old_len) = locate_trailer(&header.info, &last).map_err(in_file)?;
    let old_bytes = read_exact(file, old_at, old_len as usize).map_err(io)?;
    let old = parse_trailer_bytes(&old_bytes, old_at).map_err(in_file)?;
    let mut entries: Vec<(String, Vec<u8>)> = old
        .vlmetalayers
        .into_iter()
        .map(|m| (m.name, m.content))
        .collect();
    let as_c_writes = old.version == super::write::TRAILER_VERSION
        && old.fingerprint == (0, [0; super::FINGERPRINT_LEN])
        && trailer_bytes(&borrowed(&entries)).is_ok_and(|b| b == old_bytes);
    if !as_c_writes {
        return Err(refused(VlmetaRefusal::UnusualTrailer).in_file(p));
    }
    let mut plan = apply(&mut entries, changes).map_err(|r| refused(r).in_file(p))?;
    let new_bytes = trailer_bytes(&borrowed(&entries)).map_err(|r| refused(r).in_file(p))?;
    let n = new_bytes.len() as u64;
    let data_end = data_end(file, &header, old_at).map_err(in_file)?;
    plan.names = entries.into_iter().map(|(name, _)| name).collect();
    plan.old_trailer = (old_at, old_len);
    plan.changed = new_bytes != old_bytes;
    let at = match () {
        _ if !plan.changed => old_at,
        // No data: C reads the trailer right after the header (module docs).
        _ if header.info.nbytes <= 0 => old_at,
        _ if data_end + n <= old_at => data_end,
        _ => frame_len,
    };
    plan.new_trailer = (at, new_bytes.len() as u32);
    if dry_run || !plan.changed {
        return Ok(plan);
    }
    let mut w = Budget { file, left: budget };
    w.write(at, &new_bytes).map_err(io)?;
    if header.info.nbytes > 0 {
        w.sync().map_err(io)?;
    }
    w.flip(OFF_FRAME_LEN as u64, &(at + n).to_be_bytes())
        .map_err(io)?;
    let has_vlmeta = if plan.names.is_empty() { 0xc2 } else { 0xc3 };
    w.write(OFF_HAS_VLMETA, &[has_vlmeta]).map_err(io)?;
    w.sync().map_err(io)?;
    w.truncate(at + n).map_err(io)?;
    Ok(plan)
}

/// The changes applied to the entries (name, stored chunk), as python applies them.
fn apply(
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

fn borrowed(entries: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    entries
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect()
}

/// Where the chunk-offsets index ends (the header's end when there is no data); it must
/// end at or before the trailer.
fn data_end(file: &File, h: &FrameHeader, trailer_at: u64) -> Result<u64, FrameError> {
    let header_len = u64::from(h.info.header_len);
    if h.info.nbytes <= 0 {
        return Ok(header_len);
    }
    let cbytes = u64::try_from(h.info.cbytes).unwrap_or(u64::MAX);
    let index_at = match h.info.kind {
        FrameKind::Sparse => header_len,
        _ => header_len.saturating_add(cbytes),
    };
    let unusual = || refused(VlmetaRefusal::UnusualIndex);
    let room = trailer_at.checked_sub(index_at).ok_or_else(unusual)?;
    let want = room.min(chunk::EXTENDED_HEADER_LEN as u64) as usize;
    let head = read_exact(file, index_at, want).map_err(FrameError::io(None))?;
    let index = ChunkHeader::parse(&head).map_err(|_| unusual())?;
    let end = index_at + u64::from(index.cbytes);
    if end > trailer_at {
        return Err(unusual());
    }
    Ok(end)
}

fn read_exact(file: &File, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = std::vec![0u8; len];
    crate::frame::write::read_at(file, &mut buf, at)?;
    Ok(buf)
}

/// Writes that stop, as a crash would, when their budget is spent.
struct Budget<'f> {
    file: &'f File,
    left: u64,
}

impl Budget<'_> {
    fn spend(&mut self, units: u64) -> std::io::Result<u64> {
        if self.left == 0 {
            return Err(std::io::Error::other("stopped (crash test)"));
        }
        let spent = units.min(self.left);
        self.left -= spent;
        Ok(spent)
    }

    fn write(&mut self, at: u64, bytes: &[u8]) -> std::io::Result<()> {
        let k = self.spend(bytes.len() as u64)? as usize;
        crate::frame::write::write_at(self.file, bytes.get(..k).unwrap_or(bytes), at)?;
        if k < bytes.len() {
            return Err(std::io::Error::other("stopped (crash test)"));
        }
        Ok(())
    }

    /// An 8-byte write at an 8-aligned offset of the first sector: one unit, all or
    /// nothing (storage tears writes at sector boundaries, not inside one).
    fn flip(&mut self, at: u64, bytes: &[u8; 8]) -> std::io::Result<()> {
        self.spend(1)?;
        crate::frame::write::write_at(self.file, bytes, at)
    }

    fn sync(&mut self) -> std::io::Result<()> {
        self.spend(1)?;
        self.file.sync_data()
    }

    fn truncate(&mut self, len: u64) -> std::io::Result<()> {
        self.spend(1)?;
        if self.file.metadata()?.len() > len {
            self.file.set_len(len)?;
        }
        Ok(())
    }
}
