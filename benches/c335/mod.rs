//! C-Blosc2 3.3.5, what python-blosc2 4.14.1 runs: the `libblosc2.so` of its wheel,
//! loaded at run time by tests/common/libblosc2_335.rs (`B2ND_LIBBLOSC2_335` names
//! another copy), with a decompression context of one thread kept for the whole run, as
//! C's users keep theirs.

#[allow(dead_code)] // The tests' helpers the benches do not call.
#[path = "../../tests/common/libblosc2_335.rs"]
mod lib335;

pub use lib335::CParams;
use lib335::{Ctx, DParams, Library};

/// The loaded library and its decompression context.
pub struct Blosc2 {
    lib: Library,
    dctx: Ctx,
    pub version: &'static str,
}

impl Blosc2 {
    /// Loads the library (and checks that it is 3.3.5).
    pub fn load() -> Blosc2 {
        let lib = lib335::path()
            .and_then(|path| Library::open(&path))
            .unwrap_or_else(|why| {
                panic!(
                    "C-Blosc2 3.3.5: {why} (set {} to its libblosc2.so)",
                    lib335::ENV
                )
            });
        let dctx = unsafe { (lib.create_dctx)(DParams::one_thread()) };
        assert!(!dctx.is_null());
        Blosc2 {
            lib,
            dctx,
            version: lib335::VERSION,
        }
    }

    /// `src` compressed in one thread with `cparams`.
    pub fn compress(&self, cparams: CParams, src: &[u8]) -> Vec<u8> {
        self.lib
            .compress(&cparams, src, src.len() + 64)
            .unwrap_or_else(|rc| panic!("C-Blosc2 {} refused to compress: {rc}", self.version))
    }

    /// `blosc2_decompress_ctx` of `chunk` into `dest` (one thread): its return value.
    pub fn decompress(&self, chunk: &[u8], dest: &mut [u8]) -> i32 {
        self.lib.decompress_into(self.dctx, chunk, dest)
    }

    /// `chunk` (of `nbytes`) decompressed into a new buffer, as a C caller without one
    /// does it (and python-blosc2's `decompress`): `malloc` (not zero-filled), then
    /// `blosc2_decompress_ctx`; the counterpart of our `decode`.
    #[allow(dead_code)] // Only the chunk bench times it.
    pub fn decompress_new(&self, chunk: &[u8], nbytes: usize) -> Vec<u8> {
        let mut out = Vec::<u8>::with_capacity(nbytes);
        let n = unsafe {
            (self.lib.decompress_ctx)(
                self.dctx,
                chunk.as_ptr().cast(),
                chunk.len() as i32,
                out.as_mut_ptr().cast(),
                nbytes as i32,
            )
        };
        // C wrote the first `n` bytes.
        unsafe { out.set_len(n.max(0) as usize) };
        out
    }
}

impl Drop for Blosc2 {
    fn drop(&mut self) {
        unsafe { (self.lib.free_ctx)(self.dctx) };
    }
}
