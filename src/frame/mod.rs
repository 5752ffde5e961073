//! One Blosc2 frame (a `.b2nd` file or a sparse frame's directory): open it, read its
//! header (codec, filters, metalayers), its trailer (vlmeta) and its chunks
//! ([`DataReader`]), and rewrite a metalayer or the shape in place.
//!
//! [`open`] reads the header only; the trailer, the chunk index and the chunks are read
//! when asked for. An array's values, sliced and typed, are [`crate::array`]'s.
//!
//! A Blosc2 *frame* (what python-blosc2 writes as `.b2nd`/`.b2frame`) starts
//! with a msgpack-encoded header. The first 87 bytes have a fixed layout; the
//! fixed-length *metalayers* (`b2nd`, `caterva`, user ones) follow, and the
//! header ends right after the last metalayer content. A *sparse* frame is a
//! directory whose header lives in its `chunks.b2frame` file (the chunks live
//! in `NNNNNNNN.chunk` files); that header has the same structure.
//!
//! The layout below is the one written by `new_header_frame()` in C-Blosc2's
//! `blosc/frame.c` (offsets from `blosc/frame.h`; big-endian integers):
//!
//! | bytes    | content                                                        |
//! |----------|----------------------------------------------------------------|
//! | 0        | `0x9e` msgpack fixarray of 14 elements                          |
//! | 1..10    | `0xa8` fixstr of 8 bytes, magic `b"b2frame\0"`                  |
//! | 10..15   | `0xd2` + `header_len` (int32)                                   |
//! | 15..24   | `0xcf` + `frame_len` (uint64; C reads it as `int64_t`)          |
//! | 24       | `0xa4` fixstr of 4 bytes holding the four flag bytes:           |
//! | 25       | general flags: bits 0-3 frame format version, bit 4 64-bit chunk offsets, bit 6 variable-size chunks, bit 7 variable-length blocks |
//! | 26       | frame type: 0 contiguous, 1 sparse (directory)                  |
//! | 27       | codec flags: bits 0-3 codec code (6 = user/registered codec, real code at byte 77), bits 4-7 clevel |
//! | 28       | other flags: bits 0-1 `splitmode - 1`                           |
//! | 29..38   | `0xd3` + uncompressed size `nbytes` (int64)                     |
//! | 38..47   | `0xd3` + compressed size `cbytes` (int64)                       |
//! | 47..52   | `0xd2` + `typesize` (int32)                                     |
//! | 52..57   | `0xd2` + `blocksize` (int32)                                    |
//! | 57..62   | `0xd2` + `chunksize` (int32, 0 = variable)                      |
//! | 62..65   | `0xd1` + compression threads (int16)                            |
//! | 65..68   | `0xd1` + decompression threads (int16)                          |
//! | 68       | `0xc2`/`0xc3` msgpack bool: has variable-length metalayers      |
//! | 69       | `0xd8` msgpack fixext 16, whose type byte (70) is the number of filters (at most 6) |
//! | 71..77   | filter codes (6)                                                |
//! | 77       | codec code (always written; authoritative when byte 27 says 6)  |
//! | 78       | codec meta                                                      |
//! | 79..85   | filter metas (6)                                                |
//! | 85       | other flags 2: bit 0 `use_dict`                                 |
//! | 86       | unused (0)                                                      |
//! | 87       | `0x93` fixarray of 3: the metalayer section                     |
//! | 88..91   | `0xcd` + index size (uint16) = end of the index - 87            |
//! | 91..94   | `0xde` + N (uint16, map16): the index                           |
//! |          | N × (fixstr name of at most 31 bytes, `0xd2` + int32 offset)     |
//! |          | `0xdc` + N (uint16, array16): the contents                      |
//! |          | N × (`0xc6` + int32 length + bytes)                             |
//!
//! Each offset counts from the start of the frame and points at the `0xc6` of
//! its content; the content bytes start 5 bytes later. There are at most 16
//! metalayers.
//!
//! Parsing follows C-Blosc2's own reader (`get_header_info`, `get_meta_from_header`;
//! the table is in SPEC.md, "Which frame headers we read"): what C refuses is a
//! [`FrameError`] naming the byte offset, what was expected and what was found; what C
//! does not check is read as C reads it and, when it is not what C writes (a marker
//! byte, version 0, a negative size, an index size or a layout of the contents other
//! than C's), listed in [`FrameInfo::notes`]. Parsing is total: all arithmetic is
//! checked, nothing is read outside the declared header, and reads go in stages (the
//! fixed part, the index, the contents), each only as far as the checks so far allow.
//!
//! # Writing in place, and what a crash can leave
//!
//! [`rewrite_metalayer`], [`rewrite_metalayer_if`] and [`set_shape`] change a frame
//! with one positioned write of one metalayer's content: as many bytes as the content
//! already holds (53 for a 2-D `b2nd` metalayer with a `<i4` dtype, at most a few
//! hundred for 16 dimensions), at the offset the header gives, followed by
//! `sync_data`. The file is never truncated, extended or created, and no byte outside
//! that content range is written: not the fixed header, not the index, not the chunks,
//! not the offsets index or the trailer (a sparse frame's `.chunk` files are not even
//! opened). Each call holds an exclusive advisory lock (`File::lock`) on the file with
//! the header from its read to its write, so writers using this crate never
//! interleave; the operating system releases the lock if the process dies. When
//! C-Blosc2 3.3's lock protocol is in use (`BLOSC_LOCKING`, or an existing `.b2lock`
//! sidecar: see [`lock_frame`]), each write holds the sidecar's exclusive lock too and
//! bumps its generation counter, and [`open`] reads under its shared lock.
//!
//! The vlmeta writes (`crate::vlmeta`) rewrite the trailer instead, crash-consistently.
//!
//! - A killed process (SIGKILL) leaves the old content or the new one when the
//!   content lies within one 4 KiB page of the file, as it does in every header
//!   without large user metalayers (Linux copies a write page by page and can stop
//!   between pages, so a content straddling a page boundary can be left torn as
//!   below).
//! - A power loss or kernel crash before the sync completes can leave the old content,
//!   the new one, or, if the storage tears the write (it may cross a sector or page
//!   boundary), a mix: a prefix of the new bytes followed by the rest of the old ones.
//!   For [`set_shape`], old and new differ only in the value bytes of the shape entries
//!   (every marker, the chunk and block shapes and the dtype are the same), so a torn
//!   write still decodes; an axis length can then be the old one, the new one, or a
//!   mix of their bytes, which may lie outside the chunk grid (`b2nd-meta show` then
//!   reports the array as inconsistent). For other contents, a torn write can leave
//!   bytes that do not decode (`show` prints them as `raw_hex` with the error).
//!   Rerunning the same call after the restart writes the intended content again.
//!
//! # Example
//!
//! Open a file python-blosc2 wrote (`blosc2.asarray(..., meta={"user": {"answer": 42},
//! ...})`, with `vlmeta["note"] = "hi"`): the header's facts, the array metadata, a user
//! metalayer and a vlmeta value. [`open`] reads only the header; the trailer (vlmeta) is
//! read when asked for.
//!
//! ```
//! use std::collections::BTreeMap;
//! use b2nd_meta::frame::{self, FrameKind};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
//! let file = frame::open(path)?;
//! let info = &file.header.info;
//! assert_eq!((info.kind, info.codec.name(), info.clevel, info.typesize), (FrameKind::Contiguous, "blosclz", 9, 2));
//!
//! let meta = file.header.array_meta()?;
//! assert_eq!((meta.shape(), meta.dtype()), (&[4, 4][..], Some("<u2")));
//!
//! let names: Vec<&str> = file.header.metalayers.iter().map(|m| m.name.as_str()).collect();
//! assert_eq!(names[..2], ["b2nd", "user"]);
//! let user: BTreeMap<String, i32> = file.header.user_meta("user")?;
//! assert_eq!(user["answer"], 42);
//!
//! let note: String = file.vlmeta("note")?;
//! assert_eq!(note, "hi");
//! # Ok::<(), b2nd_meta::AnyError>(())
//! ```
//!
//! Headers in memory are read by [`parse_header`]. A minimal contiguous-frame header
//! built by hand, with one metalayer `"m"` holding the three bytes `01 02 03`:
//!
//! ```
//! use b2nd_meta::frame::{parse_header, FrameKind};
//!
//! let mut h: Vec<u8> = vec![0x9e, 0xa8];
//! h.extend_from_slice(b"b2frame\0");
//! h.push(0xd2);
//! h.extend_from_slice(&112i32.to_be_bytes()); // header_len
//! h.push(0xcf);
//! h.extend_from_slice(&112u64.to_be_bytes()); // frame_len (header only)
//! h.extend_from_slice(&[0xa4, 0x12, 0x00, 0x15, 0x03]); // flags: v2, contiguous, zstd clevel 1
//! h.push(0xd3);
//! h.extend_from_slice(&0i64.to_be_bytes()); // nbytes
//! h.push(0xd3);
//! h.extend_from_slice(&0i64.to_be_bytes()); // cbytes
//! for v in [8i32, 0, 0] {
//!     h.push(0xd2);
//!     h.extend_from_slice(&v.to_be_bytes()); // typesize, blocksize, chunksize
//! }
//! h.extend_from_slice(&[0xd1, 0, 1, 0xd1, 0, 1, 0xc2]); // threads, no vlmetalayers
//! h.extend_from_slice(&[0xd8, 6, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
//! assert_eq!(h.len(), 87);
//! h.extend_from_slice(&[0x93, 0xcd, 0, 14, 0xde, 0, 1]); // index of 1 entry
//! h.extend_from_slice(&[0xa1, b'm', 0xd2, 0, 0, 0, 104]); // "m" at offset 104
//! h.extend_from_slice(&[0xdc, 0, 1]); // 1 content
//! h.extend_from_slice(&[0xc6, 0, 0, 0, 3, 1, 2, 3]);
//! assert_eq!(h.len(), 112);
//!
//! let header = parse_header(&h)?;
//! assert_eq!(header.info.kind, FrameKind::Contiguous);
//! assert_eq!(header.info.codec.name(), "zstd");
//! assert_eq!(header.info.clevel, 1);
//! assert_eq!(header.info.typesize, 8);
//! let m = header.metalayer("m").unwrap();
//! assert_eq!((m.offset, m.content.as_slice()), (104, &[1u8, 2, 3][..]));
//! # Ok::<(), b2nd_meta::frame::FrameError>(())
//! ```

//!
//! # Modules
//!
//! `header` holds the model ([`FrameInfo`], [`FrameHeader`], [`Metalayer`]), `error`
//! the [`FrameError`], `parse` the fixed header, `index` the metalayer index, `staged`
//! the staged, bounded reads over a slice, a reader or a file ([`parse_header`]),
//! `file` the files and directories ([`read_header`], [`open`]), `write` the locked
//! in-place rewrites, `lock` C-Blosc2's `.b2lock` protocol, `array` and `check` the
//! array metalayer, `user` the user metalayers as serde values, and `trailer` the
//! variable-length metalayers (read, written as C writes them, and updated in files).

pub(crate) mod array;
mod array_info;
pub(crate) mod build;
mod check;
mod chunks;
mod data;
pub(crate) mod edit;
mod error;
mod fields;
pub(crate) mod file;
mod header;
mod index;
mod lift;
pub(crate) mod lock;
pub(crate) mod open;
pub(crate) mod parse;
mod shape;
mod source;
pub(crate) mod staged;
mod stored;
pub(crate) mod trailer;
pub(crate) mod typed;
pub(crate) mod user;
mod vlmeta_refusal;
pub(crate) mod write;
pub(crate) mod writer;

pub use array::{reshaped_meta, ARRAY_METALAYERS};
pub use array_info::ArrayInfo;
pub use check::{check_array, Mismatch};
pub(crate) use chunks::chunk_file_number;
pub(crate) use chunks::storage_error;
pub use chunks::{chunk_file_name, ChunkIndex, ChunkLocation};
pub use data::DataReader;
pub use error::{FrameError, FrameErrorKind};
pub use file::FrameFile;
pub use header::{
    FrameHeader, FrameInfo, FrameKind, HeaderNote, Metalayer, CONTENT_CAP, FIXED_HEADER_LEN,
    MAX_FRAME_FORMAT_VERSION, MAX_METALAYERS, METALAYER_NAME_MAXLEN, SPARSE_HEADER_FILE,
};
pub use lock::{
    lock_frame, lock_path, locking_requested, FrameLock, LockWhen, Locking, LOCK_SEQ_OFFSET,
};
pub(crate) use open::open_file;
pub use open::{open, open_with_trailer, read_header};
pub use shape::ShapeChangeRefusal;
pub(crate) use source::Reach;
pub use source::{Source, Target};
pub use staged::parse_header;
pub(crate) use staged::read_staged;
pub(crate) use stored::{Chunk, StoredChunk, StoredChunks};
pub use trailer::{
    parse_trailer, read_trailer, Trailer, VlMetalayer, MAX_VLMETALAYERS, TRAILER_MIN_LEN,
    TRAILER_VERSION,
};
pub use user::{set_user_meta, user_meta_bytes};
pub use vlmeta_refusal::VlmetaRefusal;
pub use write::{rewrite_metalayer, rewrite_metalayer_if, set_shape};
