//! The frame trailer and its variable-length metalayers (`vlmeta`), read as C-Blosc2's
//! `frame_get_vlmetalayers` / `get_vlmeta_from_trailer` (`blosc/frame.c`) read them, and
//! as strictly as the header.
//!
//! ```text
//! trailer = 0x94                         fixarray of 4
//!           version                      positive fixint (1; 0 before 2.0.0-beta.3)
//!           0x93                         fixarray of 3: the vlmetalayers
//!             0xcd idx_size              uint16: bytes from the 0xcd to the end of the index
//!             0xde n                     map16 of n <= 8192 entries:
//!               0xa0+len name 0xd2 off     fixstr name -> int32 offset (in the trailer) of
//!             0xdc n                     array16 of n contents, in index order:
//!               0xc6 len chunk             bin32: a Blosc2 chunk (see `crate::chunk`)
//!           0xce trailer_len             uint32: the trailer's length
//!           0xd8 type fingerprint[16]    fixext 16 (type 0: no fingerprint)
//! ```
//!
//! The trailer is found from the frame's end: its length is in the 25 last bytes of the
//! frame (`frame_len - 25`); it starts at `frame_len - trailer_len`, or right after the
//! header when the frame holds no data (`nbytes == 0`), as C's `get_trailer_offset`.
//! Only the header, those 25 bytes and the trailer are read, never the data.
//!
//! Written here too, and only here: `write` gives a trailer's bytes as C-Blosc2's
//! `frame_update_trailer` writes them, `commit` puts a new trailer in a frame file
//! crash-consistently (`replace` for a frame without data).

pub(crate) mod commit;
mod model;
pub(crate) mod parse;
mod read;
mod replace;
pub(crate) mod write;

pub use model::{Trailer, VlMetalayer, MAX_VLMETALAYERS, TRAILER_MIN_LEN};
pub(crate) use model::{TrailerCache, FINGERPRINT_LEN, IDX_START, TAIL_LEN};
pub(crate) use read::locate;
pub use read::{parse_trailer, read_trailer};
pub(crate) use replace::OFF_HAS_VLMETA;
pub use write::TRAILER_VERSION;
