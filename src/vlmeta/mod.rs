//! Variable-length metalayers (`vlmeta`, the frame trailer's entries) as values, and
//! their writes.
//!
//! [`set_vlmeta`], [`del_vlmeta`] and [`update_vlmeta`] rewrite the trailer
//! crash-consistently: the new trailer goes where no live byte is (between the offsets
//! index and the old trailer when it fits, else past the end), is synced, and the
//! header's `frame_len` is flipped to it in one 8-byte write, synced; the file is then
//! cut after it. At every instant `frame_len` points at a complete trailer, so a crash
//! leaves the old vlmeta or the new one; chunks, the offsets index and the metalayers
//! are never written. A frame without data (`nbytes` 0) has no room for that, as C reads
//! its trailer right after the header: the whole new frame (its header and the new
//! trailer, nothing else) is written to a staging file beside it, synced and renamed
//! over it, then the directory synced; a crash leaves the old file or the new one at the
//! path (and perhaps the staging file). A file with other hard links is refused then.
//! Our writers lock the file the path names once they hold the lock, so a writer that
//! waited on a replaced file starts over on the new one.
//!
//! The trailer itself (its model and its reading) is part of the frame:
//! [`Trailer`](crate::frame::Trailer), [`VlMetalayer`](crate::frame::VlMetalayer),
//! [`FrameFile::trailer`](crate::frame::FrameFile::trailer); this module gives their
//! entries as values ([`VlMetalayer::value`](crate::frame::VlMetalayer::value),
//! [`FrameFile::vlmeta`](crate::frame::FrameFile::vlmeta)) and decides the changes; the
//! frame writes them (its trailer's `commit`), as it writes every byte of a frame.
//!
//! ```
//! use b2nd_meta::value::Value;
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
//! let frame = b2nd_meta::frame::open(path)?;
//! // python: arr.vlmeta["int"] = 42
//! assert_eq!(frame.vlmeta_value("int")?, Value::Int(42));
//! # Ok::<(), b2nd_meta::frame::FrameError>(())
//! ```

mod change;
mod update;
mod value;

pub(crate) use change::{changed_trailer, new_trailer};
pub use change::{VlmetaChange, VlmetaPlan};
pub(crate) use update::update_with_steps;
pub use update::{
    del_vlmeta, set_vlmeta, update_stopping_after, update_vlmeta, update_vlmeta_with, VlmetaOptions,
};
