//! The trailer's bytes as C-Blosc2's `frame_update_trailer` writes them: the one place
//! that writes trailer bytes (the reader is `parse.rs`).

use std::vec::Vec;

use crate::frame::trailer::{Trailer, FINGERPRINT_LEN, IDX_START, TAIL_LEN};
pub use crate::frame::VlmetaRefusal;
use crate::frame::{FrameError, FrameErrorKind, MAX_METALAYERS, METALAYER_NAME_MAXLEN};
use crate::wire::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXEXT16, FIXSTR, INT32, MAP16, UINT16, UINT32,
};

/// The trailer version C-Blosc2 writes (`FRAME_TRAILER_VERSION`).
pub const TRAILER_VERSION: u8 = 1;

pub(crate) fn refused(reason: VlmetaRefusal) -> FrameError {
    FrameError::new(FrameErrorKind::VlmetaChange { reason })
}

/// Checks a name as C-Blosc2 would store it.
pub(crate) fn check_name(name: &str) -> Result<(), VlmetaRefusal> {
    if name.len() > METALAYER_NAME_MAXLEN {
        return Err(VlmetaRefusal::NameTooLong { name: name.into() });
    }
    if name.contains('\0') {
        return Err(VlmetaRefusal::NameHasNul { name: name.into() });
    }
    Ok(())
}

/// The trailer C-Blosc2 writes for `entries` (name, stored chunk), in their order:
/// version 1, no fingerprint.
pub(crate) fn trailer_bytes(entries: &[(&str, &[u8])]) -> Result<Vec<u8>, VlmetaRefusal> {
    if entries.len() > MAX_METALAYERS {
        return Err(VlmetaRefusal::TooMany {
            count: entries.len(),
        });
    }
    let n = entries.len() as u16;
    let index_len: usize = entries.iter().map(|(name, _)| 1 + name.len() + 5).sum();
    let mut out = Vec::new();
    out.extend_from_slice(&[FIXARRAY + 4, TRAILER_VERSION, FIXARRAY + 3, UINT16]);
    // From the 0xcd to the end of the index: 0xcd, uint16, 0xde, uint16, the entries
    // (at most 16 * 37 + 6 bytes).
    let idx_size = 6 + index_len;
    out.extend_from_slice(&(idx_size as u16).to_be_bytes());
    out.push(MAP16);
    out.extend_from_slice(&n.to_be_bytes());
    let mut offset = IDX_START + idx_size + 3;
    for (name, content) in entries {
        check_name(name)?;
        out.push(FIXSTR + name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.push(INT32);
        let at = i32::try_from(offset).map_err(|_| too_large(name, offset))?;
        out.extend_from_slice(&at.to_be_bytes());
        offset = offset.saturating_add(5 + content.len());
    }
    out.push(ARRAY16);
    out.extend_from_slice(&n.to_be_bytes());
    let total = offset.saturating_add(TAIL_LEN as usize);
    let len = i32::try_from(total).map_err(|_| too_large("(the trailer)", total))?;
    out.try_reserve_exact(total - out.len())
        .map_err(|_| too_large("(the trailer)", total))?;
    for (name, content) in entries {
        let clen = i32::try_from(content.len()).map_err(|_| too_large(name, content.len()))?;
        out.push(BIN32);
        out.extend_from_slice(&clen.to_be_bytes());
        out.extend_from_slice(content);
    }
    out.push(UINT32);
    out.extend_from_slice(&(len as u32).to_be_bytes());
    out.extend_from_slice(&[FIXEXT16, 0]);
    out.extend_from_slice(&[0; FINGERPRINT_LEN]);
    Ok(out)
}

fn too_large(name: &str, len: usize) -> VlmetaRefusal {
    VlmetaRefusal::TooLarge {
        name: name.into(),
        len,
    }
}

impl Trailer {
    /// The bytes C-Blosc2's `frame_update_trailer` writes for this trailer's
    /// vlmetalayers (version 1, no fingerprint): for a trailer C wrote, exactly the
    /// bytes read.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let bytes = std::fs::read(path)?;
    /// let header = b2nd_meta::frame::parse_header(&bytes)?;
    /// let trailer = b2nd_meta::frame::parse_trailer(&bytes, &header)?;
    /// let start = trailer.offset as usize;
    /// assert_eq!(trailer.to_bytes()?, &bytes[start..start + trailer.len as usize]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> Result<Vec<u8>, FrameError> {
        let entries: Vec<(&str, &[u8])> = self
            .vlmetalayers
            .iter()
            .map(|m| (m.name.as_str(), m.content.as_slice()))
            .collect();
        trailer_bytes(&entries).map_err(refused)
    }
}
