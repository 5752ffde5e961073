//! Every case of `cases.rs` written, then read back by our reader and by C-Blosc2 3.3.5
//! (`b2nd_open` + `b2nd_to_cbuffer` in a forked child): the same shapes, the values
//! written (truncation of precision aside, where both readers agree), the metalayers
//! and vlmeta given.

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::blosc::{Codec, Filter, Special};
use b2nd_meta::frame::{self, ChunkIndex, ChunkLocation};

use crate::c_b2nd::{c_reads, Ask};
use crate::cases::{self, Case};
use crate::TempDir;

/// What one written case holds.
struct Written {
    case: Case,
    path: std::path::PathBuf,
    data: Vec<u8>,
}

fn write_all(cases: Vec<Case>, dir: &TempDir) -> Vec<Written> {
    cases
        .into_iter()
        .map(|case| {
            let params = case.params(2);
            let itemsize = b2nd_meta::dtype::Dtype::parse(case.dtype)
                .unwrap()
                .itemsize() as usize;
            let data = cases::data(&case, itemsize);
            let path = dir.0.join(format!("{}.b2nd", case.name));
            params
                .write(&path, &data)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            Written { case, path, data }
        })
        .collect()
}

fn check_ours(w: &Written) -> Vec<u8> {
    let name = &w.case.name;
    let array = Array::open(&w.path).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(array.shape(), w.case.shape, "{name}");
    if let Some(c) = &w.case.chunks {
        assert_eq!(array.chunkshape(), c, "{name}");
    }
    if let Some(b) = &w.case.blocks {
        assert_eq!(array.blockshape(), b, "{name}");
    }
    let values = array.read_bytes(&Selection::all()).unwrap();
    if !w.case.lossy() {
        assert!(values == w.data, "{name}: our reader reads other values");
    }
    let file = frame::open(&w.path).unwrap();
    for (meta, json) in &w.case.meta {
        let got: serde_json::Value = file.header.user_meta(meta).unwrap();
        assert_eq!(&got, json, "{name}: metalayer {meta}");
    }
    for (meta, json) in &w.case.vlmeta {
        let got: serde_json::Value = file.vlmeta(meta).unwrap();
        assert_eq!(&got, json, "{name}: vlmeta {meta}");
    }
    values
}

#[test]
fn every_case_reads_back_in_our_reader_and_in_c_blosc2() {
    let dir = TempDir::new("roundtrip");
    let written = write_all(cases::all(), &dir);
    let ours: Vec<Vec<u8>> = written.iter().map(check_ours).collect();
    let asks: Vec<Ask> = written
        .iter()
        .map(|w| Ask {
            path: w.path.clone(),
            ndim: w.case.shape.len(),
            nbytes: w.data.len(),
            vlmeta: w.case.vlmeta.iter().map(|(n, _)| n.to_string()).collect(),
        })
        .collect();
    let Some(c) = c_reads(&asks) else {
        eprintln!("C-Blosc2 3.3.5 (python-blosc2's libblosc2.so) not found: C not asked");
        return;
    };
    for ((w, read), ours) in written.iter().zip(&c).zip(&ours) {
        let name = &w.case.name;
        assert_eq!(read.open, 0, "{name}: b2nd_open");
        let array = Array::open(&w.path).unwrap();
        let shapes = [array.shape(), array.chunkshape(), array.blockshape()]
            .map(|s| s.iter().map(|&d| d as i64).collect::<Vec<_>>());
        assert_eq!(read.shapes, shapes, "{name}: C's shapes");
        let values = read
            .values
            .as_ref()
            .unwrap_or_else(|rc| panic!("{name}: b2nd_to_cbuffer {rc}"));
        assert!(values == ours, "{name}: C reads other values than ours");
        let file = frame::open(&w.path).unwrap();
        for ((meta, _), got) in w.case.vlmeta.iter().zip(&read.vlmeta) {
            let content = file
                .trailer()
                .unwrap()
                .vlmetalayer(meta)
                .unwrap()
                .content
                .clone();
            let ours =
                b2nd_meta::chunk::decode(&content, &b2nd_meta::chunk::DecodeBudget::default())
                    .unwrap();
            assert_eq!(got.as_ref().ok(), Some(&ours), "{name}: C's vlmeta {meta}");
        }
    }
}

#[test]
fn all_zero_chunks_are_indexed_as_zeros_and_not_stored() {
    let dir = TempDir::new("zeros");
    let cases = vec![
        cases::case("z", "<f8", &[100, 10], Some(&[10, 10]), Some(&[5, 10])),
        cases::case("zs", "<f8", &[100, 10], Some(&[10, 10]), Some(&[5, 10])).sparse(),
    ];
    for w in write_all(cases, &dir) {
        // The first fifth of the elements are zeros: chunks 0 and 1.
        let file = frame::open(&w.path).unwrap();
        let index_file = match w.case.sparse {
            true => w.path.join("chunks.b2frame"),
            false => w.path.clone(),
        };
        let index =
            ChunkIndex::read(&std::fs::File::open(&index_file).unwrap(), &file.header).unwrap();
        let zeros = ChunkLocation::Special(Special::Zero);
        assert_eq!(
            index.locations[..3]
                .iter()
                .map(|l| *l == zeros)
                .collect::<Vec<_>>(),
            [true, true, false]
        );
        assert_eq!(index.locations.len(), 10);
        if w.case.sparse {
            // Eight chunk files, numbered from 0 in order, and chunks.b2frame.
            assert_eq!(std::fs::read_dir(&w.path).unwrap().count(), 9);
            assert_eq!(index.locations[2], ChunkLocation::File(0));
        }
    }
}

#[test]
fn streamed_in_pieces_or_typed_the_file_is_the_same() {
    let dir = TempDir::new("stream");
    let case = cases::case("s", "<i4", &[301, 57], Some(&[40, 20]), Some(&[8, 7]));
    let data = cases::data(&case, 4);
    let whole = dir.0.join("whole.b2nd");
    case.params(3).write(&whole, &data).unwrap();
    let expected = std::fs::read(&whole).unwrap();
    for piece in [1, 7, 4096, 57 * 40 * 4, 1 << 20] {
        let path = dir.0.join(format!("p{piece}.b2nd"));
        let mut w = case.params(3).create(&path).unwrap();
        for p in data.chunks(piece) {
            w.write(p).unwrap();
        }
        w.finish().unwrap();
        assert!(
            std::fs::read(&path).unwrap() == expected,
            "pieces of {piece}"
        );
    }
    let typed: Vec<i32> = data
        .chunks_exact(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let path = dir.0.join("typed.b2nd");
    case.params(3).write_typed(&path, &typed).unwrap();
    assert!(std::fs::read(&path).unwrap() == expected, "typed");
    let path = dir.0.join("reader.b2nd");
    let mut w = case.params(3).create(&path).unwrap();
    assert_eq!(w.write_from(&data[..]).unwrap(), data.len() as u64);
    w.finish().unwrap();
    assert!(std::fs::read(&path).unwrap() == expected, "from a reader");
}

#[test]
fn the_thread_count_changes_only_the_threads_the_header_records() {
    let dir = TempDir::new("threads");
    let case = cases::case("t", "<f8", &[500, 300], Some(&[64, 100]), None);
    let data = cases::data(&case, 8);
    let files: Vec<Vec<u8>> = [1, 2, 5, 16]
        .iter()
        .map(|&threads| {
            let path = dir.0.join(format!("t{threads}.b2nd"));
            case.params(threads).write(&path, &data).unwrap();
            let mut bytes = std::fs::read(&path).unwrap();
            // Compression and decompression threads: bytes 63..65 and 66..68.
            bytes[63..65].fill(0);
            bytes[66..68].fill(0);
            bytes
        })
        .collect();
    assert!(files.iter().all(|f| *f == files[0]));
}

#[test]
fn chunks_fewer_than_threads_are_compressed_to_the_same_bytes() {
    // Two chunks of 40 blocks (the last with a leftover block) on up to 8 threads: each
    // chunk's blocks are compressed on the threads the chunks leave.
    let dir = TempDir::new("fewer-chunks");
    let case = cases::case("f", "<f8", &[70_000], Some(&[40_000]), Some(&[1000]));
    let data = cases::data(&case, 8);
    let files: Vec<Vec<u8>> = [1, 2, 3, 8]
        .iter()
        .map(|&threads| {
            let path = dir.0.join(format!("f{threads}.b2nd"));
            case.params(threads).write(&path, &data).unwrap();
            let mut bytes = std::fs::read(&path).unwrap();
            // Compression and decompression threads: bytes 63..65 and 66..68.
            bytes[63..65].fill(0);
            bytes[66..68].fill(0);
            bytes
        })
        .collect();
    assert!(files.iter().all(|f| *f == files[0]));
}

#[test]
fn read_at_offsets_whole_or_cut_short_the_file_is_the_same() {
    // Rows of one chunk (each read by the thread compressing it) and rows of several
    // (read ahead of the threads), on 1 and 3 threads.
    let dir = TempDir::new("read-at");
    let one = cases::case("one", "<f8", &[70_000], Some(&[9_000]), Some(&[1000]));
    let several = cases::case("several", "<i4", &[301, 57], Some(&[40, 20]), Some(&[8, 7]));
    for (case, itemsize) in [(one, 8), (several, 4)] {
        let data = cases::data(&case, itemsize);
        let mut source = vec![7u8; 13];
        source.extend_from_slice(&data);
        for threads in [1, 3] {
            let whole = dir.0.join(format!("{}-{threads}.b2nd", case.name));
            case.params(threads).write(&whole, &data).unwrap();
            let expected = std::fs::read(&whole).unwrap();
            let path = dir.0.join(format!("{}-at-{threads}.b2nd", case.name));
            let mut w = case.params(threads).create(&path).unwrap();
            assert_eq!(w.write_from_at(&source, 13).unwrap(), data.len() as u64);
            w.finish().unwrap();
            assert!(
                std::fs::read(&path).unwrap() == expected,
                "{} at",
                case.name
            );
            // A source that ends early: what it holds is taken, the rest written after.
            let cut = 13 + data.len() * 2 / 3 + 5;
            let path = dir.0.join(format!("{}-cut-{threads}.b2nd", case.name));
            let mut w = case.params(threads).create(&path).unwrap();
            let taken = w.write_from_at(&&source[..cut], 13).unwrap() as usize;
            assert_eq!(taken, cut - 13);
            w.write(&data[taken..]).unwrap();
            w.finish().unwrap();
            assert!(
                std::fs::read(&path).unwrap() == expected,
                "{} cut",
                case.name
            );
        }
    }
}

#[test]
fn every_case_read_at_offsets_is_the_file_written_from_bytes() {
    // Chunks that are one stretch of the source are read a block at a time as they are
    // compressed (delta's first block, memcpyed chunks and a chunk's blocks on several
    // threads included); the others are read whole and laid out. Either way, the bytes
    // written from memory.
    let dir = TempDir::new("read-at-all");
    let mut cases = cases::all();
    cases.push(cases::case(
        "noise",
        "<u8",
        &[5_000],
        Some(&[2_000]),
        Some(&[500]),
    ));
    cases.push(
        cases::case("delta", "<i4", &[64, 30], Some(&[16, 30]), Some(&[4, 30])).codec(
            Codec::Lz4,
            5,
            &[(Filter::Delta, 0), (Filter::Shuffle, 0)],
        ),
    );
    cases.push(cases::case(
        "cut-blocks",
        "<i2",
        &[64, 30],
        Some(&[16, 30]),
        Some(&[4, 10]),
    ));
    // One chunk of many small blocks: read several at a time, on one thread or on three
    // (each thread's blocks from its own reads).
    cases.push(cases::case(
        "one-chunk",
        "<f8",
        &[70_000],
        Some(&[70_000]),
        Some(&[1000]),
    ));
    for case in &cases {
        let itemsize = b2nd_meta::dtype::Dtype::parse(case.dtype)
            .unwrap()
            .itemsize() as usize;
        let mut data = cases::data(case, itemsize);
        if case.name == "noise" {
            let mut x = 7u64;
            for b in &mut data {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *b = (x >> 56) as u8;
            }
        }
        let mut source = vec![7u8; 5];
        source.extend_from_slice(&data);
        for threads in [1, 3] {
            let whole = dir.0.join(format!("{}-{threads}.b2nd", case.name));
            case.params(threads).write(&whole, &data).unwrap();
            let path = dir.0.join(format!("{}-at-{threads}.b2nd", case.name));
            let mut w = case.params(threads).create(&path).unwrap();
            assert_eq!(w.write_from_at(&source, 5).unwrap(), data.len() as u64);
            w.finish().unwrap();
            assert!(
                contents(&path) == contents(&whole),
                "{} on {threads} threads",
                case.name
            );
        }
    }
}

/// A file's bytes, or a sparse frame's files' names and bytes.
fn contents(path: &std::path::Path) -> Vec<(std::ffi::OsString, Vec<u8>)> {
    if path.is_file() {
        return vec![(Default::default(), std::fs::read(path).unwrap())];
    }
    let mut files: Vec<_> = std::fs::read_dir(path)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// A source that panics when asked for the bytes at `at`, and only there.
struct Panics {
    bytes: Vec<u8>,
    at: u64,
}

impl b2nd_meta::io::ReadAt for Panics {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        let asked = offset..offset + buf.len() as u64;
        assert!(!asked.contains(&self.at), "the source gives up");
        self.bytes.read_at(buf, offset)
    }

    fn size(&self) -> std::io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }
}

#[test]
fn a_source_panicking_on_a_compressing_thread_panics_the_caller_and_nothing_waits() {
    // Each thread reads its own chunks: the panic is on one of them, in the middle. The
    // others, and the thread storing chunks, stop; the caller gets the panic, as on one
    // thread.
    let case = cases::case("panics", "<f8", &[200_000], Some(&[10_000]), Some(&[1000]));
    let data = cases::data(&case, 8);
    for threads in [1, 2, 3] {
        let dir = TempDir::new("panics");
        let source = Panics {
            bytes: data.clone(),
            at: data.len() as u64 / 2,
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let params = case.params(threads);
        let path = dir.0.join("p.b2nd");
        std::thread::spawn(move || {
            let mut w = params.create(&path).unwrap();
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                w.write_from_at(&source, 0)
            }));
            let message = outcome
                .err()
                .and_then(|p| p.downcast_ref::<&str>().map(|s| s.to_string()));
            tx.send(message).unwrap();
        });
        let message = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the writer returned");
        assert_eq!(
            message.as_deref(),
            Some("the source gives up"),
            "{threads} threads"
        );
    }
}
