//! C-Blosc2 2.15.3 (blosc2-src; BloscLZ, LZ4, LZ4HC and ZSTD compiled in, no zlib, no
//! plugins): compression in this process, decompression of possibly hostile chunks in
//! forked children, many chunks per child, so that C's crashes ("double free or
//! corruption" on some mutated chunks) are a verdict and not the end of the run.

use std::ffi::c_void;
use std::sync::Once;

use blosc2_src as c;

pub const BLOSCLZ: u8 = 0; // BLOSC_BLOSCLZ
pub const LZ4: u8 = 1; // BLOSC_LZ4
pub const LZ4HC: u8 = 2; // BLOSC_LZ4HC
pub const ZSTD: u8 = 5; // BLOSC_ZSTD
pub const SHUFFLE: u8 = 1; // BLOSC_SHUFFLE
pub const BITSHUFFLE: u8 = 2; // BLOSC_BITSHUFFLE
pub const DELTA: u8 = 3; // BLOSC_DELTA
pub const TRUNC_PREC: u8 = 4; // BLOSC_TRUNC_PREC
pub const ALWAYS_SPLIT: i32 = 1; // BLOSC_ALWAYS_SPLIT
pub const NEVER_SPLIT: i32 = 2; // BLOSC_NEVER_SPLIT

/// The largest output a child gives C for one chunk (our decoder's default limit).
const MAX_DEST: usize = 64 << 20;

fn init() {
    static INIT: Once = Once::new();
    INIT.call_once(|| unsafe { c::blosc2_init() });
}

/// How C compresses a buffer.
#[derive(Debug, Clone, Copy)]
pub struct Params {
    pub codec: u8,
    pub clevel: u8,
    pub typesize: i32,
    pub filters: [u8; 6],
    pub filters_meta: [u8; 6],
    pub blocksize: i32,
    pub split: i32,
    pub use_dict: bool,
}

impl Params {
    /// One filter in the last slot, as python-blosc2's defaults place SHUFFLE.
    pub fn new(
        codec: u8,
        clevel: u8,
        typesize: i32,
        filter: u8,
        blocksize: i32,
        split: i32,
    ) -> Self {
        Params {
            codec,
            clevel,
            typesize,
            filters: [0, 0, 0, 0, 0, filter],
            filters_meta: [0; 6],
            blocksize,
            split,
            use_dict: false,
        }
    }
}

/// Compresses `src` with C-Blosc2 (`blosc2_compress_ctx`, one thread); `None` when C
/// refuses the parameters.
pub fn try_compress(src: &[u8], p: &Params) -> Option<Vec<u8>> {
    init();
    let cparams = c::blosc2_cparams {
        compcode: p.codec,
        compcode_meta: 0,
        clevel: p.clevel,
        use_dict: i32::from(p.use_dict),
        typesize: p.typesize,
        nthreads: 1,
        blocksize: p.blocksize,
        splitmode: p.split,
        schunk: std::ptr::null_mut(),
        filters: p.filters,
        filters_meta: p.filters_meta,
        prefilter: None,
        preparams: std::ptr::null_mut(),
        tuner_params: std::ptr::null_mut(),
        tuner_id: 0,
        instr_codec: false,
        codec_params: std::ptr::null_mut(),
        filter_params: [std::ptr::null_mut(); 6],
    };
    let mut dest = vec![0u8; src.len() + 32 + (128 << 10)];
    unsafe {
        let ctx = c::blosc2_create_cctx(cparams);
        assert!(!ctx.is_null());
        let n = c::blosc2_compress_ctx(
            ctx,
            src.as_ptr() as *const c_void,
            src.len() as i32,
            dest.as_mut_ptr() as *mut c_void,
            dest.len() as i32,
        );
        c::blosc2_free_ctx(ctx);
        if n <= 0 {
            return None;
        }
        dest.truncate(n as usize);
    }
    Some(dest)
}

/// [`try_compress`], panicking when C refuses.
pub fn compress(src: &[u8], p: &Params) -> Vec<u8> {
    try_compress(src, p).unwrap_or_else(|| panic!("C-Blosc2 refused to compress with {p:?}"))
}

/// What C's `blosc2_decompress` makes of a chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CVerdict {
    /// The decompressed bytes.
    Ok(Vec<u8>),
    /// C's error code.
    Err(i32),
    /// C crashed (a signal) or hung.
    Crash,
}

/// C's verdict on each chunk, decompressed in forked children (a new child after each
/// crash).
pub fn decompress_all(chunks: &[Vec<u8>]) -> Vec<CVerdict> {
    init();
    let answers = crate::children::answers(chunks, || {
        // Zeroed once per child, lazily (fresh pages): zeroing up to 64 MiB per mutated
        // chunk that claims a large size was most of the sweep's time.
        let mut dest = vec![0u8; MAX_DEST];
        Box::new(move |chunk: &Vec<u8>| {
            let nbytes = declared_nbytes(chunk).min(MAX_DEST);
            let rc = unsafe {
                c::blosc2_decompress(
                    chunk.as_ptr() as *const c_void,
                    chunk.len() as i32,
                    dest.as_mut_ptr() as *mut c_void,
                    nbytes as i32,
                )
            };
            match rc {
                rc if rc < 0 => (1, rc.to_le_bytes().to_vec()),
                _ => (0, dest[..rc as usize].to_vec()),
            }
        })
    });
    answers
        .into_iter()
        .map(|answer| match answer {
            Some((0, bytes)) => CVerdict::Ok(bytes),
            Some((_, rc)) => CVerdict::Err(i32::from_le_bytes(rc.try_into().unwrap())),
            None => CVerdict::Crash,
        })
        .collect()
}

/// The header's nbytes (bytes 4..8), 0 when there is none.
fn declared_nbytes(chunk: &[u8]) -> usize {
    chunk.get(4..8).map_or(0, |b| {
        i32::from_le_bytes(b.try_into().unwrap()).max(0) as usize
    })
}
