//! The codecs' compressors, pure safe Rust, each appending one stream to a chunk being
//! written (`chunk::compress`): BloscLZ (ours, C-Blosc2's algorithm), LZ4 and LZ4HC,
//! zlib (miniz_oxide's deflate) and zstd. Each appends its stream and returns true, or
//! returns false when the stream would exceed the bytes it is given (the chunk then
//! stores the bytes as they are, as C-Blosc2 does when its codec gives up).

pub(crate) mod blosclz {
    pub(crate) mod encode;
}
pub(crate) mod lz4 {
    pub(crate) mod encode;
    pub(crate) mod encode_hc;
}
pub(crate) mod zlib {
    pub(crate) mod encode;
}
pub(crate) mod zstd {
    pub(crate) mod encode;
}
