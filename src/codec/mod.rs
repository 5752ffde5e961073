//! The codecs of Blosc2 streams, each in its own folder, its encoder beside its decoder:
//! BloscLZ, LZ4 (and LZ4HC), zlib and Zstandard, pure safe Rust. Each decoder decodes
//! one stream into a block of known length and says, when it refuses, what C expected
//! and where it stopped; the chunk decoder (`crate::chunk`) picks one per stream. Each
//! encoder (`encode`, std) appends one stream to a chunk being written
//! (`chunk::compress`) and returns true, or false when the stream would exceed the bytes
//! it is given (the chunk then stores the bytes as they are, as C-Blosc2 does when its
//! codec gives up).

pub(crate) mod blosclz;
pub(crate) mod lz4;
#[cfg(feature = "std")]
pub(crate) mod zlib;
pub(crate) mod zstd;
