//! Reading the vlmeta of a frame costs what its header and trailer cost, whatever the
//! size of the data between: the same python-blosc2 header and trailer in a 1 KiB
//! frame and in a 1 GiB one (a sparse file made with `set_len`, so no disk is used).
//!
//! Run with `cargo bench --bench vlmeta --all-features`.

use std::fs::{self, File};
use std::hint::black_box;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use b2nd_meta::frame;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd"
);
/// Offset of frame_len's 8 bytes, big-endian (after its 0xcf marker at byte 15).
const FRAME_LEN_AT: usize = 16;

/// The fixture's header and trailer, with `len - header - trailer` bytes of holes
/// between them and frame_len set to `len`.
fn frame_of_len(dir: &Path, len: u64) -> PathBuf {
    let bytes = fs::read(FIXTURE).unwrap();
    let header = frame::parse_header(&bytes).unwrap();
    let trailer = frame::parse_trailer(&bytes, &header).unwrap();
    let mut head = bytes[..header.info.header_len as usize].to_vec();
    head[FRAME_LEN_AT..FRAME_LEN_AT + 8].copy_from_slice(&len.to_be_bytes());
    let tail = &bytes[trailer.offset as usize..];
    let path = dir.join(format!("vlmeta_{len}.b2nd"));
    let mut file = File::create(&path).unwrap();
    file.write_all(&head).unwrap();
    file.set_len(len).unwrap();
    file.seek(SeekFrom::Start(len - tail.len() as u64)).unwrap();
    file.write_all(tail).unwrap();
    path
}

fn read_vlmeta(path: &Path) -> usize {
    let frame = frame::open(path).unwrap();
    let trailer = frame.trailer().unwrap();
    trailer
        .vlmetalayers
        .iter()
        .map(|vl| vl.decode().unwrap().len())
        .sum()
}

fn bench(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-bench-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let small = fs::metadata(FIXTURE).unwrap().len();
    let cases = [
        ("1 KiB", frame_of_len(&dir, small)),
        ("1 GiB", frame_of_len(&dir, 1 << 30)),
    ];
    // Both hold the same values.
    assert_eq!(read_vlmeta(&cases[0].1), read_vlmeta(&cases[1].1));
    let mut group = c.benchmark_group("open + trailer + decode every vlmeta");
    group.measurement_time(Duration::from_secs(3));
    for (name, path) in &cases {
        group.bench_with_input(BenchmarkId::from_parameter(name), path, |b, path| {
            b.iter(|| read_vlmeta(black_box(path)))
        });
    }
    group.finish();
    let _ = fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
