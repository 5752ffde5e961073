//! Setting a vlmeta value costs what the trailer costs, not what the file holds: the
//! same python-blosc2 frame (tests/data/vlmeta_write/base/4.14.1.b2nd: header, two
//! chunks, offsets index, trailer) as it is (~1 KiB), and with 1 GiB of holes between
//! its chunks and its offsets index (cbytes and frame_len grown to match: C-Blosc2
//! 2.15.3 opens it, reads its chunks and our vlmeta, checked before timing). And
//! C-Blosc2's own `blosc2_vlmeta_update` on both, in the same run. And a frame without
//! data (base/4.14.1_empty.b2nd, nbytes 0), which we replace by a staged file renamed
//! over it (C rewrites it in place).
//!
//! Run with `cargo bench --features repo-tests --bench vlmeta_write`.

use std::ffi::{c_char, c_int, c_void, CString};
use std::fs::{self, File};
use std::hint::black_box;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use b2nd_meta::frame;
use b2nd_meta::vlmeta::{self, VlmetaChange, VlmetaOptions};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

#[path = "../tests/c_ffi/mod.rs"]
mod c_ffi;
#[path = "../tests/frame/c_vlmeta.rs"]
mod c_vlmeta;

const BASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/vlmeta_write/base/4.14.1.b2nd"
);
const EMPTY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/vlmeta_write/base/4.14.1_empty.b2nd"
);
/// frame_len (uint64) and cbytes (int64), big-endian, after their markers.
const FRAME_LEN_AT: usize = 16;
const CBYTES_AT: usize = 39;

unsafe extern "C" {
    fn blosc2_init();
    fn blosc2_schunk_open(urlpath: *const c_char) -> *mut c_void;
    fn blosc2_schunk_free(schunk: *mut c_void) -> c_int;
    fn blosc2_vlmeta_update(
        schunk: *mut c_void,
        name: *const c_char,
        content: *const u8,
        content_len: i32,
        cparams: *const c_void,
    ) -> c_int;
}

/// The base frame with `hole` bytes of holes after its chunks.
fn frame_with_hole(dir: &Path, hole: u64) -> PathBuf {
    let bytes = fs::read(BASE).unwrap();
    let header = frame::parse_header(&bytes).unwrap();
    let header_len = header.info.header_len as usize;
    let data_end = header_len + header.info.cbytes as usize;
    let mut head = bytes[..data_end].to_vec();
    let frame_len = bytes.len() as u64 + hole;
    head[FRAME_LEN_AT..FRAME_LEN_AT + 8].copy_from_slice(&frame_len.to_be_bytes());
    let cbytes = header.info.cbytes + hole as i64;
    head[CBYTES_AT..CBYTES_AT + 8].copy_from_slice(&cbytes.to_be_bytes());
    let path = dir.join(format!("frame_{hole}.b2nd"));
    let mut file = File::create(&path).unwrap();
    file.write_all(&head).unwrap();
    file.seek(SeekFrom::Start(data_end as u64 + hole)).unwrap();
    file.write_all(&bytes[data_end..]).unwrap();
    path
}

/// C-Blosc2's update of the same value, opened from the path each time as we are.
fn c_update(path: &Path, msgpack: &[u8]) {
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    let name = CString::new("units").unwrap();
    unsafe {
        let schunk = blosc2_schunk_open(cpath.as_ptr());
        assert!(!schunk.is_null());
        let rc = blosc2_vlmeta_update(
            schunk,
            name.as_ptr(),
            msgpack.as_ptr(),
            msgpack.len() as i32,
            std::ptr::null(),
        );
        assert!(rc >= 0, "blosc2_vlmeta_update: {rc}");
        blosc2_schunk_free(schunk);
    }
}

fn bench(c: &mut Criterion) {
    unsafe { blosc2_init() };
    let dir = std::env::temp_dir().join(format!("b2nd-meta-bench-w-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("1 KiB", frame_with_hole(&dir, 0)),
        ("1 GiB", frame_with_hole(&dir, 1 << 30)),
    ];
    let before = c_vlmeta::c_read(&cases[0].1, false);
    for (name, path) in &cases {
        vlmeta::set_vlmeta(path, "units", "m/s").unwrap();
        // C opens it, reads the same chunks as before and our value.
        let c = c_vlmeta::c_read(path, false);
        assert_eq!(c.data(), before.data(), "{name}");
        assert!(c
            .vlmeta()
            .iter()
            .any(|(n, v)| n == "units" && v == b"\xa3m/s"));
    }
    let mut group = c.benchmark_group("set-vlmeta (open, check, write, sync)");
    group.measurement_time(Duration::from_secs(5));
    for (name, path) in &cases {
        let mut flip = false;
        group.bench_with_input(BenchmarkId::new("ours", name), path, |b, path| {
            b.iter(|| {
                flip = !flip;
                let v = if flip { "m/s" } else { "km" };
                vlmeta::set_vlmeta(black_box(path), "units", v).unwrap()
            })
        });
        let mut flip = false;
        group.bench_with_input(BenchmarkId::new("C-Blosc2", name), path, |b, path| {
            b.iter(|| {
                flip = !flip;
                c_update(black_box(path), if flip { b"\xa3m/s" } else { b"\xa2km" })
            })
        });
    }
    group.finish();
    // All but the writes and syncs (the same syscalls on both: strace shows it): open,
    // lock, read the header and trailer, check, compress, plan.
    let mut group = c.benchmark_group("set-vlmeta --dry-run");
    group.measurement_time(Duration::from_secs(3));
    let dry = VlmetaOptions::default().dry_run(true);
    let change = [VlmetaChange::set("units", "km").unwrap()];
    for (name, path) in &cases {
        group.bench_with_input(BenchmarkId::new("ours", name), path, |b, path| {
            b.iter(|| vlmeta::update_vlmeta_with(black_box(path), &change, dry).unwrap())
        });
    }
    group.finish();
    // No data: the new frame staged, synced, renamed, the directory synced.
    let empty = dir.join("empty.b2nd");
    fs::copy(EMPTY, &empty).unwrap();
    vlmeta::set_vlmeta(&empty, "units", "m/s").unwrap();
    let read = c_vlmeta::c_read(&empty, false);
    assert!(read.data().is_empty());
    assert!(read
        .vlmeta()
        .iter()
        .any(|(n, v)| n == "units" && v == b"\xa3m/s"));
    let mut group = c.benchmark_group("set-vlmeta without data (ours: a replacement)");
    group.measurement_time(Duration::from_secs(5));
    let mut flip = false;
    group.bench_function("ours", |b| {
        b.iter(|| {
            flip = !flip;
            let v = if flip { "m/s" } else { "km" };
            vlmeta::set_vlmeta(black_box(&empty), "units", v).unwrap()
        })
    });
    let mut flip = false;
    group.bench_function("C-Blosc2", |b| {
        b.iter(|| {
            flip = !flip;
            c_update(black_box(&empty), if flip { b"\xa3m/s" } else { b"\xa2km" })
        })
    });
    group.finish();
    let _ = fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
