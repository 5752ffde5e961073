//! The codecs of Blosc2 streams, each in its own folder (an encoder can sit beside its
//! decoder): BloscLZ, LZ4 (and LZ4HC), zlib and Zstandard, pure safe Rust. Each decodes
//! one stream into a block of known length and says, when it refuses, what C expected
//! and where it stopped. The chunk decoder (`crate::chunk`) picks one per stream.

pub(crate) mod blosclz;
mod copy;
pub(crate) mod lz4;
#[cfg(feature = "std")]
pub(crate) mod zlib;
pub(crate) mod zstd;
