//! A node's frame with its vlmeta changed, read as a [`ReadAt`] to be copied where the
//! node goes (a zip member, an EmbedStore's data): its bytes up to its trailer as they
//! are, then the new trailer, the header's `frame_len` and has-vlmetalayers byte
//! patched. Where a node is a file of its own (`.b2d`) its trailer is rewritten in place
//! instead ([`crate::vlmeta`]).

use std::io;
use std::vec::Vec;

use super::files::refused;
use crate::container::ContainerError;
use crate::frame::parse::OFF_FRAME_LEN;
use crate::frame::trailer::OFF_HAS_VLMETA;
use crate::frame::{read_staged, read_trailer, FrameKind};
use crate::io::{read_exact_at, ReadAt, SharedSource};
use crate::vlmeta::{changed_trailer, VlmetaChange};
use crate::wire::marker::{FALSE, TRUE};

/// A frame with a new trailer.
pub(crate) struct Patched {
    src: SharedSource,
    /// Its first bytes, patched.
    head: Vec<u8>,
    /// Where the old trailer started: the new one goes there.
    cut: u64,
    trailer: Vec<u8>,
}

impl Patched {
    /// The frame `src` holds from its byte 0, with `changes` applied to its vlmeta as
    /// python applies them (new names last, replaced ones in place, unchanged entries
    /// kept byte for byte).
    pub(crate) fn new(
        src: SharedSource,
        changes: &[VlmetaChange],
    ) -> Result<Patched, ContainerError> {
        let frame = |e| ContainerError::frame(e, 0);
        let header = read_staged(&*src, 0).map_err(frame)?;
        if header.info.kind != FrameKind::Contiguous {
            return Err(refused(
                "a node's vlmeta is changed here in a contiguous frame",
            ));
        }
        let old = read_trailer(&*src, &header).map_err(frame)?;
        let entries = old
            .vlmetalayers
            .into_iter()
            .map(|m| (m.name, m.content))
            .collect();
        let (trailer, has_vlmeta) = changed_trailer(entries, changes).map_err(frame)?;
        let mut head = std::vec![0u8; OFF_HAS_VLMETA + 1];
        read_exact_at(&*src, &mut head, 0).map_err(ContainerError::io)?;
        let frame_len = old.offset + trailer.len() as u64;
        head[OFF_FRAME_LEN..OFF_FRAME_LEN + 8].copy_from_slice(&frame_len.to_be_bytes());
        head[OFF_HAS_VLMETA] = if has_vlmeta { TRUE } else { FALSE };
        Ok(Patched {
            src,
            head,
            cut: old.offset,
            trailer,
        })
    }

    /// The new frame's length.
    pub(crate) fn len(&self) -> u64 {
        self.cut + self.trailer.len() as u64
    }
}

impl ReadAt for Patched {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let head = self.head.len() as u64;
        if offset < head.min(self.cut) {
            let from = &self.head[offset as usize..head.min(self.cut) as usize];
            let n = from.len().min(buf.len());
            buf[..n].copy_from_slice(&from[..n]);
            return Ok(n);
        }
        if offset < self.cut {
            let n = ((self.cut - offset) as usize).min(buf.len());
            return self.src.read_at(&mut buf[..n], offset);
        }
        let at = usize::try_from(offset - self.cut).unwrap_or(usize::MAX);
        let from = self.trailer.get(at..).unwrap_or(&[]);
        let n = from.len().min(buf.len());
        buf[..n].copy_from_slice(&from[..n]);
        Ok(n)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;
    use std::sync::Arc;

    /// Read in pieces of every size from every offset, the patched frame is the same
    /// bytes, and reads as a frame whose vlmeta is the old one changed.
    #[test]
    fn a_patched_frame_reads_the_same_in_any_pieces_and_holds_the_new_vlmeta() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd"
        );
        let bytes = std::fs::read(path).unwrap();
        let changes = [
            VlmetaChange::set("int", &7).unwrap(),
            VlmetaChange::set("new", "x").unwrap(),
        ];
        let patched = Patched::new(Arc::new(bytes.clone()), &changes).unwrap();
        let len = patched.len() as usize;
        let mut whole = std::vec![0u8; len];
        read_exact_at(&patched, &mut whole, 0).unwrap();
        for piece in [1, 7, 64, 4096] {
            let mut again = Vec::new();
            let mut at = 0;
            while at < len {
                let mut buf = std::vec![0u8; piece];
                let n = patched.read_at(&mut buf, at as u64).unwrap();
                assert!(n > 0, "piece {piece} at {at}");
                again.extend_from_slice(&buf[..n]);
                at += n;
            }
            assert_eq!(again, whole, "piece {piece}");
        }
        let mut past = [0u8; 4];
        assert_eq!(patched.read_at(&mut past, len as u64).unwrap(), 0);
        let frame = crate::frame::parse_header(&whole).unwrap();
        assert_eq!(frame.info.frame_len, len as u64);
        let trailer = crate::frame::parse_trailer(&whole, &frame).unwrap();
        assert_eq!(
            trailer.vlmetalayer("int").unwrap().value().unwrap(),
            Value::Int(7)
        );
        assert_eq!(
            trailer.vlmetalayer("new").unwrap().value().unwrap(),
            Value::Str("x".into())
        );
        // Everything before the trailer but the header's frame_len is as it was.
        let cut = trailer.offset as usize;
        assert_eq!(whole[24..cut], bytes[24..cut]);
        assert_eq!(whole[..16], bytes[..16]);
    }
}
