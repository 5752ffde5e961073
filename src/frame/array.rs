//! The array a frame holds: its `b2nd` (or `caterva`) metalayer decoded, and its shape
//! changed in place the way C-Blosc2 resizes arrays.

use std::string::String;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, Metalayer};
use super::shape::ShapeChangeRefusal;
use crate::meta::Meta;

/// The names of the metalayer describing an array, in the order C-Blosc2's
/// `b2nd_from_schunk` looks for them.
pub const ARRAY_METALAYERS: [&str; 2] = ["b2nd", "caterva"];

impl FrameHeader {
    /// The metalayer describing the array: `b2nd`, else `caterva` (written by the
    /// older caterva library); `None` for a frame that holds no n-dimensional array.
    pub fn array_metalayer(&self) -> Option<&Metalayer> {
        ARRAY_METALAYERS
            .iter()
            .find_map(|name| self.metalayer(name))
    }

    /// The array metadata, decoded from [`array_metalayer`](Self::array_metalayer).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
    /// let header = b2nd_meta::frame::open(path)?.header;
    /// let meta = header.array_meta()?;
    /// assert_eq!((meta.shape(), meta.chunkshape()), (&[10, 7][..], &[4, 4][..]));
    /// assert!(meta.validate_with_typesize(header.info.typesize.into()).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// Bytes after the metalayer in the content are ignored, as C-Blosc2 ignores them;
    /// [`crate::take_from_slice`] on the content tells how many there are.
    pub fn array_meta(&self) -> Result<Meta, FrameError> {
        self.array_meta_and_trailing_bytes().map(|(meta, _)| meta)
    }

    /// [`array_meta`](Self::array_meta), and how many bytes follow the metalayer in its
    /// content (stale bytes that C-Blosc2 ignores, counted to the content's full length).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/ndim2_i4.b2nd");
    /// let header = b2nd_meta::frame::open(path)?.header;
    /// let (meta, trailing) = header.array_meta_and_trailing_bytes()?;
    /// assert_eq!((meta.ndim(), trailing), (2, 0));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn array_meta_and_trailing_bytes(&self) -> Result<(Meta, u64), FrameError> {
        let layer = self
            .array_metalayer()
            .ok_or_else(|| FrameError::new(FrameErrorKind::NoArrayMetalayer))?;
        let (meta, rest) = decode(layer)?;
        let used = (layer.content.len() - rest.len()) as u64;
        Ok((meta, u64::from(layer.content_len).saturating_sub(used)))
    }
}

/// The metalayer decoded, and the bytes after it in the content. C-Blosc2 reads a
/// metalayer from the start of the content and ignores what follows (stale bytes that
/// `blosc2_meta_update` leaves after shorter content), and so do we here.
fn decode(layer: &Metalayer) -> Result<(Meta, &[u8]), FrameError> {
    crate::meta::de::take_from_slice(&layer.content).map_err(|source| layer.error(source))
}

/// Chunks along an axis of length `len` cut into chunks of `chunk`.
fn chunks_along(len: i64, chunk: i32) -> i64 {
    match (len, i64::from(chunk)) {
        (0, _) => 0,
        (_, c) if c <= 0 => 0,
        (len, c) => len / c + i64::from(len % c != 0),
    }
}

/// The array metalayer of `header` with `new_shape`, checked (the same chunk grid: only
/// the metalayer changes), and its encoding.
pub(super) fn reshaped(
    header: &FrameHeader,
    new_shape: &[u64],
) -> Result<(String, Meta, Vec<u8>), FrameError> {
    reshaped_in(header, new_shape, true)
}

/// The array metalayer of `header` with `new_shape`, whatever its chunk grid (a resize
/// that rewrites the chunk index too), checked, and its encoding.
pub(crate) fn resized(
    header: &FrameHeader,
    new_shape: &[u64],
) -> Result<(String, Meta, Vec<u8>), FrameError> {
    reshaped_in(header, new_shape, false)
}

fn reshaped_in(
    header: &FrameHeader,
    new_shape: &[u64],
    same_grid: bool,
) -> Result<(String, Meta, Vec<u8>), FrameError> {
    let layer = header
        .array_metalayer()
        .ok_or_else(|| FrameError::new(FrameErrorKind::NoArrayMetalayer))?;
    let (mut meta, stale) = decode(layer)?;
    let refuse = |reason| Err(FrameError::new(FrameErrorKind::ShapeChange { reason }));
    // The new shape itself first, then against the array.
    if new_shape.len() != meta.ndim() {
        return refuse(ShapeChangeRefusal::Ndim {
            from: meta.ndim(),
            to: new_shape.len(),
        });
    }
    // The metalayer stores int64 lengths.
    let mut wire = Vec::with_capacity(new_shape.len());
    for (axis, &len) in new_shape.iter().enumerate() {
        match i64::try_from(len) {
            Ok(len) => wire.push(len),
            Err(_) => return refuse(ShapeChangeRefusal::TooLong { axis, len }),
        }
    }
    let new_shape = &wire[..];
    for (axis, ((&old, &new), &chunk)) in meta
        .shape()
        .iter()
        .zip(new_shape)
        .zip(meta.chunkshape())
        .enumerate()
    {
        let (from, to) = (chunks_along(old, chunk), chunks_along(new, chunk));
        if same_grid && from != to {
            return refuse(ShapeChangeRefusal::ChunkGrid { axis, from, to });
        }
    }
    match &mut meta {
        Meta::V0Caterva(m) => m.shape = new_shape.into(),
        Meta::B2nd(m) => m.shape = new_shape.into(),
        Meta::B2ndV1(m) => m.shape = new_shape.into(),
    }
    if let Err(invalid) = meta.validate_with_typesize(header.info.typesize.into()) {
        return refuse(ShapeChangeRefusal::Invalid(invalid));
    }
    let mut bytes = crate::meta::ser::to_vec(&meta).map_err(|source| layer.error(source))?;
    // Same ndim and dtype, so the same length; stale bytes after it stay as they were.
    bytes.extend_from_slice(stale);
    Ok((layer.name.clone(), meta, bytes))
}

/// The array metadata of `header` with `new_shape`, checked as
/// [`set_shape`](super::set_shape) checks it, without writing anything (what
/// `b2nd-meta set-shape --dry-run` prints).
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let header = b2nd_meta::frame::open(path)?.header;
/// let meta = b2nd_meta::frame::reshaped_meta(&header, &[12, 8])?;
/// assert_eq!(meta.shape(), [12, 8]);
/// let err = b2nd_meta::frame::reshaped_meta(&header, &[u64::MAX, 7]).unwrap_err();
/// assert!(err.to_string().contains("axis 0 is 18446744073709551615"));
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn reshaped_meta(header: &FrameHeader, new_shape: &[u64]) -> Result<Meta, FrameError> {
    reshaped(header, new_shape).map(|(_, meta, _)| meta)
}
