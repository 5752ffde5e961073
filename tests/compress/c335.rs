//! C-Blosc2 3.3.5, the library python-blosc2 4.14.1 runs, loaded (tests/common/
//! libblosc2_335.rs) from the wheel's `libblosc2.so` in a forked child: its `blosc2_compress_ctx` (the reference
//! chunk for the same input and parameters) and its `blosc2_decompress_ctx` of our chunks,
//! many cases per child. The library's path is `B2ND_LIBBLOSC2_335` (as for tests/chunk),
//! or the venv's on this machine; without it these tests say so and check nothing more
//! (the blosc2-src 2.15.3 decoding in `c215.rs` still runs).

#[allow(dead_code)] // The item-by-item helpers are the chunk tests'.
#[path = "../c_ffi/child.rs"]
pub mod child;

#[allow(dead_code)] // Each user calls some of it.
#[path = "../common/libblosc2_335.rs"]
pub mod lib335;

use lib335::{CParams, Ctx, DParams, Library};

/// Where the library is, if it is there.
pub fn library() -> Option<String> {
    lib335::path()
        .ok()
        .filter(|path| std::path::Path::new(path).exists())
}

/// The parameters of one compression, as `blosc2_cparams` holds them.
#[derive(Debug, Clone, Copy)]
pub struct CCase {
    pub compcode: u8,
    pub clevel: u8,
    pub typesize: i32,
    pub blocksize: i32,
    pub splitmode: i32,
    pub filters: [u8; 6],
    pub filters_meta: [u8; 6],
}

impl CCase {
    /// The case's `blosc2_cparams`, one thread.
    pub fn cparams(&self) -> CParams {
        CParams::one_thread(
            self.compcode,
            self.clevel,
            self.typesize,
            self.blocksize,
            self.splitmode,
            self.filters,
            self.filters_meta,
        )
    }
}

/// What C made of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CAnswer {
    /// C's own chunk of the input (empty when C refused).
    pub chunk: Vec<u8>,
    /// C's decompression of our chunk, or its error code.
    pub decoded: Result<Vec<u8>, i32>,
    /// C's decompression of its own chunk (the input, but for truncated precision).
    pub own: Result<Vec<u8>, i32>,
}

/// C's chunk of `src` (empty when C refuses), in python's budget: nbytes plus the
/// header (BLOSC2_MAX_OVERHEAD).
pub fn c_compress(lib: &Library, case: &CCase, src: &[u8]) -> Vec<u8> {
    lib.compress(&case.cparams(), src, src.len() + 32)
        .unwrap_or_default()
}

fn c_decompress(lib: &Library, dctx: Ctx, chunk: &[u8], nbytes: usize) -> Result<Vec<u8>, i32> {
    let mut dest = vec![0u8; nbytes];
    match lib.decompress_into(dctx, chunk, &mut dest) {
        rc if rc < 0 => Err(rc),
        n => {
            dest.truncate(n as usize);
            Ok(dest)
        }
    }
}

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn get<'a>(b: &mut &'a [u8]) -> &'a [u8] {
    let n = u64::from_le_bytes(b[..8].try_into().unwrap()) as usize;
    let bytes = &b[8..8 + n];
    *b = &b[8 + n..];
    bytes
}

/// For each `(case, input, our chunk)`: C's chunk of the input and C's decompression of
/// our chunk, from one forked child; `None` without the library.
pub fn answers(cases: &[(CCase, Vec<u8>, Vec<u8>)]) -> Option<Vec<CAnswer>> {
    let path = library()?;
    let answer = child::in_child(600, || {
        let lib = Library::open(&path).unwrap_or_else(|why| panic!("{why}"));
        let dctx = unsafe { (lib.create_dctx)(DParams::one_thread()) };
        let mut out = Vec::new();
        for (case, src, ours) in cases {
            let chunk = c_compress(&lib, case, src);
            put(&mut out, &chunk);
            for decoded in [
                c_decompress(&lib, dctx, ours, src.len()),
                c_decompress(&lib, dctx, &chunk, src.len()),
            ] {
                match decoded {
                    Ok(bytes) => {
                        out.push(0);
                        put(&mut out, &bytes);
                    }
                    Err(rc) => {
                        out.push(1);
                        put(&mut out, &rc.to_le_bytes());
                    }
                }
            }
        }
        out
    })
    .unwrap_or_else(|signal| panic!("C-Blosc2 3.3.5's child died of signal {signal}"));
    let mut b = &answer[..];
    let mut all = Vec::new();
    for _ in cases {
        let chunk = get(&mut b).to_vec();
        let mut verdict = || {
            let tag = b[0];
            b = &b[1..];
            let bytes = get(&mut b).to_vec();
            if tag == 0 {
                Ok(bytes)
            } else {
                Err(i32::from_le_bytes(bytes.try_into().unwrap()))
            }
        };
        let decoded = verdict();
        let own = verdict();
        all.push(CAnswer {
            chunk,
            decoded,
            own,
        });
    }
    Some(all)
}
