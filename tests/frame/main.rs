//! Tests for `b2nd_meta::frame`.
//!
//! Fixtures in `tests/data/frame/` were written by python-blosc2 4.14.1
//! (C-Blosc2 3.3.5) with `tests/data/frame/gen_fixtures.py`; the expected
//! values below come from that script's output (`expected.json`): sizes, codec
//! and clevel from python-blosc2's `SChunk` properties, and the metalayer
//! content bytes from `blosc2.blosc2_ext.meta__getitem__`, which calls C-Blosc2's
//! `blosc2_meta_get()` in the libblosc2 shipped with python-blosc2 — i.e. C's
//! own header parser, not this crate's.
//!
//! One module per concern, declared below; the helpers they share are here, and
//! `crate::common` is `tests/common`.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

#[path = "../c_ffi/mod.rs"]
mod c_ffi;
#[path = "../common/mod.rs"]
mod common;

mod any_error;
mod array;
mod bounds;
mod c_frame;
mod c_vlmeta;
mod corpus_frames;
mod corruption;
mod debug_lines;
mod edges;
mod fixed_part;
mod metalayers;
mod python_blosc2;
mod resize;
mod rewrite;
mod rmp_offsets;
mod special_files;
mod user_meta;
mod vlmeta;
mod vlmeta_crash;
mod vlmeta_python;
mod vlmeta_refusals;
mod vlmeta_replace;
mod write;

use common::frame::{build_with, fixstr, Fixed};

use b2nd_meta::frame::FrameHeader;

// ---------------------------------------------------------------------------
// Largest single allocation seen by this test binary, to prove that bogus
// length fields never turn into big allocations.

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

/// No test in this binary legitimately allocates more than this at once.
const ALLOC_LIMIT: usize = 16 << 20;

// ---------------------------------------------------------------------------
// Helpers

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/frame")
}

fn fixture(rel: &str) -> Vec<u8> {
    fs::read(data_dir().join(rel)).unwrap()
}

/// (name, header bytes) of every fixture's header file.
fn fixture_headers() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("contiguous.b2nd", fixture("contiguous.b2nd")),
        ("sparse.b2nd", fixture("sparse.b2nd/chunks.b2frame")),
        ("usermeta.b2nd", fixture("usermeta.b2nd")),
    ]
}

/// A fresh, empty scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "b2nd-meta-frame-tests-{}-{}",
        std::process::id(),
        test
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(src: &Path, dst: &Path) {
    fs::create_dir_all(dst).unwrap();
    for entry in fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dst.join(entry.file_name())).unwrap();
    }
}

fn snapshot_dir(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let bytes = fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

/// A `Read` that counts the bytes it hands out.
struct Counting<R> {
    inner: R,
    count: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// A well-formed header (on the synthetic fixed part: version 2, zstd clevel 1,
/// typesize 8) whose index holds the given already-encoded names.
fn build(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    build_with(&Fixed::default().bytes(), entries).bytes
}

fn simple(names: &[&str]) -> Vec<u8> {
    let entries: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (fixstr(n.as_bytes()), vec![i as u8; i + 1]))
        .collect();
    build(&entries)
}

fn meta_hex(h: &FrameHeader, name: &str) -> Vec<u8> {
    h.metalayer(name).unwrap().content.clone()
}
