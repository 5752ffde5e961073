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

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use crate::chunk::{compress, decode, CParams, Codec, Filter, SplitMode};

    /// Runs, a motif, a slow ramp, noise: what each codec's paths see.
    fn samples() -> Vec<Vec<u8>> {
        let mut x = 99u64;
        let mut noise = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        };
        let mut mixed = Vec::new();
        for i in 0..150_000usize {
            mixed.push(match (i / 5000) % 5 {
                0 => 0,
                1 => b"motif of sixteen"[i % 16],
                2 => (i / 300) as u8,
                3 => noise(),
                _ => noise() % 4,
            });
        }
        let noise_only: Vec<u8> = (0..70_000).map(|_| noise()).collect();
        alloc::vec![
            mixed,
            noise_only,
            b"short but repeated repeated repeated".to_vec()
        ]
    }

    #[test]
    fn every_codec_and_level_round_trips_through_our_decoder() {
        for codec in [
            Codec::BloscLz,
            Codec::Lz4,
            Codec::Lz4Hc,
            Codec::Zlib,
            Codec::Zstd,
        ] {
            for clevel in 1..=9 {
                for data in samples() {
                    let params = CParams {
                        codec,
                        clevel,
                        typesize: 1,
                        blocksize: 0,
                        splitmode: SplitMode::Never,
                        filters: [(Filter::None, 0); 6],
                    };
                    let chunk = compress(&data, &params).unwrap();
                    assert_eq!(decode(&chunk).unwrap(), data, "{codec:?} {clevel}");
                }
            }
        }
    }
}
