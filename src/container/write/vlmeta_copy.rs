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
