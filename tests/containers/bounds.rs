//! What listing reads: a `.b2z` bundle of 1 MiB arrays (frames written by C-Blosc2,
//! zipped STORED as python-blosc2 zips them, around the `embed.b2e` python-blosc2
//! wrote for an empty DictStore) listed through a counting reader. Listing every
//! entry and reading every node's metadata touches less than 1% of the bytes.
//!
//! The default size is 16 nodes (16 MiB in memory); the 1,000 nodes (1 GiB in
//! a temporary file) run with `cargo test --all-features --test containers -- --ignored`.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use b2nd_meta::container;
use b2nd_meta::io::ReadAt;

use crate::c::Schunk;
use crate::c_ffi::c_serialize;
use crate::data;

/// A source that counts the bytes read from it.
pub struct Counting<R> {
    pub inner: R,
    pub read: AtomicU64,
    pub calls: AtomicU64,
}

impl<R: ReadAt> ReadAt for Counting<R> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        let n = self.inner.read_at(buf, offset)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        self.calls.fetch_add(1, Ordering::Relaxed);
        Ok(n)
    }

    fn size(&self) -> std::io::Result<u64> {
        self.inner.size()
    }
}

/// A frame of a 1 MiB int64 array of noise, written by C-Blosc2 (b2nd metalayer from
/// C's `b2nd_serialize_meta`).
pub fn big_frame() -> Vec<u8> {
    let mut s = Schunk::new();
    let meta = c_serialize(&[131072], &[131072], &[8192], "<i8", 0);
    s.meta_add("b2nd", &meta);
    // xorshift noise: incompressible, so the frame holds the whole MiB.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let noise: Vec<u8> = (0..1 << 17)
        .flat_map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.to_le_bytes()
        })
        .collect();
    s.append(&noise);
    s.to_frame()
}

/// The embed.b2e python-blosc2 wrote for an empty DictStore.
fn empty_embed() -> Vec<u8> {
    let zip = std::fs::read(data("blosc2-4.14.1").join("dict_empty.b2z")).unwrap();
    let archive = rawzip::ZipArchive::from_slice(&zip).unwrap();
    let mut entries = archive.entries();
    let record = entries.next_entry().unwrap().unwrap();
    assert_eq!(record.file_path().as_bytes(), b"embed.b2e");
    archive
        .get_entry(record.wayfinder())
        .unwrap()
        .data()
        .to_vec()
}

/// A `.b2z` of `n` copies of `frame` (`nNNNN.b2nd`), `embed.b2e` last, STORED.
pub fn bundle<W: Write>(out: W, n: usize, frame: &[u8]) -> W {
    let mut archive = rawzip::ZipArchiveWriter::new(out);
    let embed = empty_embed();
    let members = (0..n)
        .map(|i| (format!("n{i:04}.b2nd"), frame))
        .chain([("embed.b2e".to_owned(), &embed[..])]);
    for (name, bytes) in members {
        let (mut entry, config) = archive
            .new_file(&name)
            .compression_method(rawzip::CompressionMethod::STORE)
            .start()
            .unwrap();
        let mut writer = config.wrap(&mut entry);
        writer.write_all(bytes).unwrap();
        let (_, descriptor) = writer.finish().unwrap();
        entry.finish(descriptor).unwrap();
    }
    archive.finish().unwrap()
}

/// Lists `src`, reads every node's metadata; returns (bytes read, bytes in the file).
fn list_counting<R: ReadAt + Send + Sync + 'static>(src: R, n: usize) -> (u64, u64) {
    let counting = Arc::new(Counting {
        inner: src,
        read: AtomicU64::new(0),
        calls: AtomicU64::new(0),
    });
    let size = counting.size().unwrap();
    let c = container::open_source(counting.clone(), "bundle.b2z".as_ref(), true).unwrap();
    assert_eq!(c.kind.name(), "DictStore");
    assert_eq!(c.entries().len(), n);
    for e in c.entries() {
        let info = c.entry_info(e).unwrap();
        assert_eq!(info.kind.name(), "NDArray");
        assert_eq!(info.array().unwrap().dtype_str(), "<i8");
    }
    (counting.read.load(Ordering::Relaxed), size)
}

#[test]
fn listing_a_bundle_reads_under_one_percent() {
    let frame = big_frame();
    assert!(frame.len() > 1 << 20, "{}", frame.len());
    let zip = bundle(Vec::new(), 16, &frame);
    let (read, size) = list_counting(zip, 16);
    assert!(read * 100 < size, "read {read} of {size} bytes");
    // And what it reads does not grow with the data: a few KiB per node at most.
    assert!(read < 16 * 4096 + 64 * 1024, "read {read}");
}

#[test]
#[ignore = "writes a 1 GiB bundle to a temporary file"]
fn listing_a_thousand_node_bundle_reads_under_one_percent() {
    let frame = big_frame();
    let path = std::env::temp_dir().join(format!("b2nd-meta-bundle-{}.b2z", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    bundle(std::io::BufWriter::new(file), 1000, &frame)
        .flush()
        .unwrap();
    let (read, size) = list_counting(std::fs::File::open(&path).unwrap(), 1000);
    std::fs::remove_file(&path).unwrap();
    assert!(read * 100 < size, "read {read} of {size} bytes");
    println!(
        "read {read} of {size} bytes ({:.4}%)",
        read as f64 * 100.0 / size as f64
    );
}
