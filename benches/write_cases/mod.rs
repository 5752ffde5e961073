//! What the two write benches (`write.rs`, criterion; `write_table.rs`, interleaved)
//! share: their data, their cases, and each case's writer on both sides.

use b2nd_meta::array::write::{chunks_and_blocks, Caches, NewArray};
use b2nd_meta::blosc::{Codec, Filter};

use crate::c335;

/// Issue 33's cases: (name, codec, clevel, filter in the last slot).
pub const CASES: [(&str, Codec, u8, Filter); 5] = [
    ("zstd5_shuffle", Codec::Zstd, 5, Filter::Shuffle),
    ("zstd1_shuffle", Codec::Zstd, 1, Filter::Shuffle),
    ("lz4_5_shuffle", Codec::Lz4, 5, Filter::Shuffle),
    ("zstd1_bitshuffle", Codec::Zstd, 1, Filter::BitShuffle),
    ("blosclz5_shuffle", Codec::BloscLz, 5, Filter::Shuffle),
];

/// The data: (name, dtype, itemsize, float).
pub const DATA: [(&str, &str, u64, bool); 2] = [
    ("f64_ramp", "<f8", 8, true),
    ("i32_counter", "<i4", 4, false),
];

/// A float64 ramp with noise, or an int32 counter, of `bytes` bytes.
pub fn data(bytes: usize, float: bool) -> Vec<u8> {
    let mut x = 12345u32;
    let mut out = Vec::with_capacity(bytes);
    let mut i = 0usize;
    while out.len() < bytes {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        if float {
            let v = i as f64 * 0.25 + f64::from(x >> 16) / 65536.0 * 1e-3;
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            out.extend_from_slice(&(i as i32).to_le_bytes());
        }
        i += 1;
    }
    out
}

/// One input: its bytes and the array both sides write them as (python-blosc2's chunks
/// and blocks for the size, on this machine).
pub struct Input {
    pub bytes: Vec<u8>,
    pub shape: [u64; 1],
    pub chunks: Vec<u64>,
    pub blocks: Vec<u64>,
    pub dtype: &'static str,
    pub itemsize: u64,
}

impl Input {
    pub fn new(mb: usize, dtype: &'static str, itemsize: u64, float: bool) -> Input {
        let bytes = data(mb << 20, float);
        let shape = [bytes.len() as u64 / itemsize];
        let caches = Caches::of_this_machine();
        let (chunks, blocks) = chunks_and_blocks(&shape, itemsize, None, None, &caches).unwrap();
        Input {
            bytes,
            shape,
            chunks,
            blocks,
            dtype,
            itemsize,
        }
    }

    /// The array as `b2nd_create_ctx` takes it.
    pub fn c_array(&self) -> c335::Array<'static> {
        c335::Array {
            shape: vec![self.shape[0] as i64],
            chunks: self.chunks.iter().map(|&d| d as i32).collect(),
            blocks: self.blocks.iter().map(|&d| d as i32).collect(),
            dtype: self.dtype,
        }
    }

    /// Our writer of a case on `threads`.
    pub fn ours(&self, codec: Codec, clevel: u8, filter: Filter, threads: usize) -> NewArray {
        let mut filters = [(Filter::None, 0); 6];
        filters[5] = (filter, 0);
        NewArray::new(&self.shape, self.dtype)
            .unwrap()
            .chunks(&self.chunks)
            .blocks(&self.blocks)
            .codec(codec, clevel)
            .filters(filters)
            .threads(threads)
            .overwrite(true)
    }

    /// C's parameters of a case on `threads` (split mode 4, BLOSC_FORWARD_COMPAT_SPLIT:
    /// python's default).
    pub fn c_params(
        &self,
        codec: Codec,
        clevel: u8,
        filter: Filter,
        threads: usize,
    ) -> c335::CParams {
        let mut cparams = c335::CParams::one_thread(
            codec.id().unwrap(),
            clevel,
            self.itemsize as i32,
            0,
            4,
            [0, 0, 0, 0, 0, filter.id()],
            [0; 6],
        );
        cparams.nthreads = threads as i16;
        cparams
    }
}
