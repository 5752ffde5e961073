//! The array a frame holds: its `b2nd` (or `caterva`) metalayer decoded, and its shape
//! changed in place the way C-Blosc2 resizes arrays.

use std::fmt;
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use super::{parse_header, rewrite_metalayer, rewrite_metalayer_in_buffer};
use super::{FrameError, FrameHeader, Metalayer};
use crate::validate::Invalid;
use crate::Meta;

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
        let layer = self.array_metalayer().ok_or(FrameError::NoArrayMetalayer)?;
        decode(layer).map(|(meta, _)| meta)
    }
}

/// The metalayer decoded, and the bytes after it in the content. C-Blosc2 reads a
/// metalayer from the start of the content and ignores what follows (stale bytes that
/// `blosc2_meta_update` leaves after shorter content), and so do we here.
fn decode(layer: &Metalayer) -> Result<(Meta, &[u8]), FrameError> {
    crate::take_from_slice(&layer.content).map_err(|source| FrameError::Metalayer {
        name: layer.name.clone(),
        content_offset: layer.content_offset(),
        source,
    })
}

/// What to do when a new shape changes the chunk grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regrid {
    /// Refuse: the chunks on disk would no longer match the metadata.
    Refuse,
    /// Write the shape anyway; the caller takes care of the chunks.
    Allow,
}

/// Why [`set_shape`] refused a new shape.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeChangeRefusal {
    /// The number of dimensions would change, and with it the metalayer's length.
    Ndim {
        /// Dimensions now.
        from: usize,
        /// Dimensions asked for.
        to: usize,
    },
    /// The number of chunks along an axis would change; the chunks on disk are not
    /// touched, so they would no longer match (see [`Regrid::Allow`]).
    ChunkGrid {
        /// The axis.
        axis: usize,
        /// Chunks along it now.
        from: i64,
        /// Chunks along it with the new shape.
        to: i64,
    },
    /// The new shape breaks C-Blosc2's rules.
    Invalid(Invalid),
}

impl std::error::Error for ShapeChangeRefusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ShapeChangeRefusal::Invalid(invalid) => Some(invalid),
            _ => None,
        }
    }
}

impl fmt::Display for ShapeChangeRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeChangeRefusal::Ndim { from, to } => write!(
                f,
                "the array has {from} dimensions, the new shape {to}; \
                 that would change the metalayer's length"
            ),
            ShapeChangeRefusal::ChunkGrid { axis, from, to } => write!(
                f,
                "axis {axis} would go from {from} to {to} chunks, but the chunks on disk are \
                 not rewritten; only changes within the same chunk grid are safe \
                 (override with Regrid::Allow)"
            ),
            ShapeChangeRefusal::Invalid(invalid) => write!(f, "invalid new shape: {invalid}"),
        }
    }
}

/// Chunks along an axis of length `len` cut into chunks of `chunk`.
fn chunks_along(len: i64, chunk: i32) -> i64 {
    match (len, i64::from(chunk)) {
        (0, _) => 0,
        (_, c) if c <= 0 => 0,
        (len, c) => len / c + i64::from(len % c != 0),
    }
}

/// The array metalayer of `header` with `new_shape`, checked, and its encoding.
fn reshaped(
    header: &FrameHeader,
    new_shape: &[i64],
    regrid: Regrid,
) -> Result<(String, Meta, Vec<u8>), FrameError> {
    let layer = header
        .array_metalayer()
        .ok_or(FrameError::NoArrayMetalayer)?;
    let (mut meta, stale) = decode(layer)?;
    let refuse = |reason| Err(FrameError::ShapeChange { reason });
    if new_shape.len() != meta.ndim() {
        return refuse(ShapeChangeRefusal::Ndim {
            from: meta.ndim(),
            to: new_shape.len(),
        });
    }
    if regrid == Regrid::Refuse {
        for (axis, ((&old, &new), &chunk)) in meta
            .shape()
            .iter()
            .zip(new_shape)
            .zip(meta.chunkshape())
            .enumerate()
        {
            let (from, to) = (chunks_along(old, chunk), chunks_along(new, chunk));
            if from != to {
                return refuse(ShapeChangeRefusal::ChunkGrid { axis, from, to });
            }
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
    let mut bytes = crate::to_vec(&meta).map_err(|source| FrameError::Metalayer {
        name: layer.name.to_string(),
        content_offset: layer.content_offset(),
        source,
    })?;
    // Same ndim and dtype, so the same length; stale bytes after it stay as they were.
    bytes.extend_from_slice(stale);
    Ok((layer.name.clone(), meta, bytes))
}

/// Changes the shape of the array in the frame at `path` in place, as C-Blosc2 does
/// when it resizes an array: only the shape entries of the `b2nd` (or `caterva`)
/// metalayer change, nothing else in the file.
///
/// Refused, leaving the file untouched: another number of dimensions, a shape C-Blosc2
/// would refuse, and, unless `regrid` is [`Regrid::Allow`], a shape with another
/// number of chunks along any axis (the chunks themselves are not rewritten). Returns
/// the new metadata.
///
/// ```
/// use b2nd_meta::frame::{open, set_shape, Regrid};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-set-shape-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path)?;
///
/// // (10, 7) in chunks of (4, 4): 3 x 2 chunks, like (12, 8).
/// set_shape(&path, &[12, 8], Regrid::Refuse)?;
/// assert_eq!(open(&path)?.header.array_meta()?.shape(), [12, 8]);
/// // (13, 8) would need a fourth row of chunks.
/// assert!(set_shape(&path, &[13, 8], Regrid::Refuse).is_err());
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn set_shape(
    path: impl AsRef<Path>,
    new_shape: &[i64],
    regrid: Regrid,
) -> Result<Meta, FrameError> {
    let path = path.as_ref();
    let frame = super::open(path)?;
    let (name, meta, bytes) = reshaped(&frame.header, new_shape, regrid)?;
    rewrite_metalayer(path, &name, &bytes)?;
    Ok(meta)
}

/// [`set_shape`] on a frame held in memory.
pub fn set_shape_in_buffer(
    buf: &mut [u8],
    new_shape: &[i64],
    regrid: Regrid,
) -> Result<Meta, FrameError> {
    let header = parse_header(buf)?;
    let (name, meta, bytes) = reshaped(&header, new_shape, regrid)?;
    rewrite_metalayer_in_buffer(buf, &name, &bytes)?;
    Ok(meta)
}
