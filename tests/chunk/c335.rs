//! C-Blosc2 3.3.5, the decoder python-blosc2 4.14.1 runs: its `libblosc2.so` from the
//! `blosc2==4.14.1` wheel, loaded by tests/common/libblosc2_335.rs (the path in
//! `B2ND_LIBBLOSC2_335`; .ci/run installs the wheel and sets it).
//! Compression runs in this process on our own data; decompression of possibly hostile
//! chunks runs in forked children (tests/chunk/children.rs), so that a crash is a
//! verdict and not the end of the run.

use std::ffi::c_int;
use std::sync::OnceLock;

pub use super::c_ref::CVerdict;
use lib335::{CParams, DParams, Library};

#[path = "../common/libblosc2_335.rs"]
mod lib335;

pub use lib335::ENV;
/// The largest output a child gives C for one chunk (our decoder's default limit).
const MAX_DEST: usize = 64 << 20;

type SetMaskout = unsafe extern "C" fn(lib335::Ctx, *mut bool, c_int) -> c_int;

/// Why C-Blosc2 3.3.5 is not here: the library is not found, or does not load.
pub fn unavailable() -> Option<String> {
    lib().err()
}

/// The library, loaded once (in this process, before any child is forked).
fn lib() -> Result<&'static Library, String> {
    static LIB: OnceLock<Result<Library, String>> = OnceLock::new();
    LIB.get_or_init(|| Library::open(&lib335::path()?))
        .as_ref()
        .map_err(Clone::clone)
}

fn loaded() -> &'static Library {
    lib().unwrap_or_else(|why| panic!("C-Blosc2 3.3.5: {why}"))
}

/// Compression parameters: one filter list, one thread, no dictionary.
pub fn cparams(codec: u8, clevel: u8, typesize: i32, blocksize: i32, split: i32) -> CParams {
    let filters = [0, 0, 0, 0, 0, super::c_ref::SHUFFLE];
    CParams::one_thread(codec, clevel, typesize, blocksize, split, filters, [0; 6])
}

/// Compresses `src` with C-Blosc2 3.3.5 (`blosc2_compress_ctx`); `None` when C refuses.
pub fn compress(src: &[u8], p: &CParams) -> Option<Vec<u8>> {
    loaded().compress(p, src, src.len() + 64 + (128 << 10)).ok()
}

/// C-Blosc2 3.3.5's verdict on each chunk: `blosc2_decompress_ctx` with a fresh
/// one-thread context per chunk (no state carried from chunk to chunk), into a
/// destination of the chunk's `nbytes` (at most 64 MiB), in forked children.
pub fn decompress_all(chunks: &[Vec<u8>]) -> Vec<CVerdict> {
    let items: Vec<(Vec<u8>, Option<Vec<bool>>)> =
        chunks.iter().map(|c| (c.clone(), None)).collect();
    decompress_items(&items, None)
}

/// [`decompress_all`] into a destination of `fill` bytes: with two fills, the bytes
/// that differ are those C leaves unwritten.
pub fn decompress_filled(chunks: &[Vec<u8>], fill: u8) -> Vec<CVerdict> {
    let items: Vec<(Vec<u8>, Option<Vec<bool>>)> =
        chunks.iter().map(|c| (c.clone(), None)).collect();
    decompress_items(&items, Some(fill))
}

/// [`decompress_all`] with a block mask per chunk (`blosc2_set_maskout`: `true` skips
/// a block) into a destination of `fill` bytes: C's answer is the whole destination.
pub fn decompress_masked(items: &[(Vec<u8>, Vec<bool>)], fill: u8) -> Vec<CVerdict> {
    let items: Vec<(Vec<u8>, Option<Vec<bool>>)> = items
        .iter()
        .map(|(c, m)| (c.clone(), Some(m.clone())))
        .collect();
    decompress_items(&items, Some(fill))
}

fn decompress_items(items: &[(Vec<u8>, Option<Vec<bool>>)], fill: Option<u8>) -> Vec<CVerdict> {
    let lib = loaded();
    let set_maskout: SetMaskout = unsafe { lib.symbol("blosc2_set_maskout") };
    let answers = super::children::answers(items, || {
        // Zeroed once per child, lazily (fresh pages).
        let mut dest = vec![0u8; MAX_DEST];
        Box::new(move |(chunk, mask): &(Vec<u8>, Option<Vec<bool>>)| {
            let nbytes = declared_nbytes(chunk).min(MAX_DEST);
            // C leaves an uninitialised chunk's destination as it was: zeros, as ours.
            if chunk.get(2).is_some_and(|f| f & 0x05 == 0x05)
                && chunk.get(31).is_some_and(|f| (f >> 4) & 7 == 4)
            {
                dest[..nbytes].fill(0);
            }
            if let Some(fill) = fill {
                dest[..nbytes].fill(fill);
            }
            let rc = unsafe {
                let ctx = (lib.create_dctx)(DParams::one_thread());
                if let Some(m) = mask {
                    // C copies the mask, and drops it after one decompression.
                    let mut m = m.clone();
                    let rc = set_maskout(ctx, m.as_mut_ptr(), m.len() as c_int);
                    assert_eq!(rc, 0, "blosc2_set_maskout");
                }
                let rc = lib.decompress_into(ctx, chunk, &mut dest[..nbytes]);
                (lib.free_ctx)(ctx);
                rc
            };
            match rc {
                rc if rc < 0 => (1, rc.to_le_bytes().to_vec()),
                // With a mask, C counts only the blocks it decoded.
                _ if mask.is_some() => (0, dest[..nbytes].to_vec()),
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

/// Whether the differential tests against 3.3.5 run: true when the library loads;
/// false, said loudly, when `B2ND_LIBBLOSC2_335` is unset outside CI; a failure when it
/// is missing in CI (`CI=true`), where .ci/run installs it.
pub fn present(test: &str) -> bool {
    match unavailable() {
        None => true,
        Some(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{test}: C-Blosc2 3.3.5 is required in CI: {why}")
        }
        Some(why) => {
            // Written to the process's stderr, not eprintln!'s captured one: shown by a
            // plain `cargo test` too.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED {test}: C-Blosc2 3.3.5 is not here ({why}). Set {ENV} to the \
                 libblosc2.so of the blosc2==4.14.1 wheel (.ci/run shows how). ***\n"
            );
            false
        }
    }
}
