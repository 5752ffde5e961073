//! `frame::ChunkIndex` and `frame::DataReader` against C-Blosc2: every chunk of the
//! python-written fixtures decodes to what `blosc2_schunk_decompress_chunk` gives, byte
//! ranges (across chunk boundaries too) are slices of that, special chunks in the
//! offsets index read as C fills them.

use std::io::Cursor;

use b2nd_meta::blosc::Special;
use b2nd_meta::frame::{parse_header, ChunkIndex, ChunkLocation, DataReader};

use crate::c::Schunk;
use crate::data;

/// Our chunks and C's, then ranges of our data against C's concatenated chunks.
fn against_c(frame: &[u8]) -> usize {
    let header = parse_header(frame).unwrap();
    let index = ChunkIndex::parse(frame, &header).unwrap();
    let c = Schunk::from_frame(frame);
    let mut data = DataReader::new(Cursor::new(frame), &header).unwrap();
    let max = header.info.chunksize.max(1 << 16) as usize;
    let mut all = Vec::new();
    for n in 0..index.locations.len() {
        let ours = data.read_chunk(n).unwrap();
        assert_eq!(Some(&ours), c.chunk(n as i64, max).as_ref(), "chunk {n}");
        all.extend(ours);
    }
    assert_eq!(
        c.chunk(index.locations.len() as i64, max),
        None,
        "C has more chunks"
    );
    assert_eq!(all.len() as u64, data.nbytes());
    let len = all.len();
    let chunksize = header.info.chunksize.max(1) as usize;
    // Ranges within one chunk, across a boundary, the whole data, empty.
    let ranges = [
        (0, len.min(3)),
        (len / 3, len / 2 - len / 3),
        (
            chunksize.saturating_sub(5).min(len),
            10.min(len - chunksize.saturating_sub(5).min(len)),
        ),
        (0, len),
        (len, 0),
    ];
    for (start, n) in ranges {
        assert_eq!(
            data.read_range(start as u64, n).unwrap(),
            all[start..start + n],
            "range {start}+{n}"
        );
    }
    assert!(
        data.read_range(len as u64, 1).is_err(),
        "a range past the data"
    );
    index.locations.len()
}

/// (A BatchArray's chunks have variable-length blocks, which the C-Blosc2 2.15.3 linked
/// here does not know: `batcharray.b2b` is left out; such chunks are checked against
/// 3.3.5 in tests/chunk/vlblocks.rs.)
#[test]
fn python_fixtures_read_as_c_reads_them() {
    let d = data("blosc2-4.14.1");
    for (file, min_chunks) in [
        ("embed_span.b2e", 3),
        ("embed_many.b2e", 2),
        ("embed_one.b2e", 1),
        ("schunk.b2f", 3),
        ("ndarray.b2nd", 2),
        ("tree.b2d/embed.b2e", 1),
    ] {
        let bytes = std::fs::read(d.join(file)).unwrap();
        let n = against_c(&bytes);
        assert!(n >= min_chunks, "{file}: {n} chunks");
    }
}

#[test]
fn an_empty_store_has_no_chunks() {
    let bytes = std::fs::read(data("blosc2-4.14.1").join("embed_empty.b2e")).unwrap();
    let header = parse_header(&bytes).unwrap();
    assert_eq!(ChunkIndex::parse(&bytes, &header).unwrap().locations, []);
}

#[test]
fn special_chunks_in_the_index() {
    for (special, kind) in [(1, Special::Zero), (2, Special::Nan), (4, Special::Uninit)] {
        let mut s = Schunk::new();
        // 8-byte items (C's default typesize): 1000 items in chunks of 800 bytes.
        s.fill_special(1000, special, 800);
        let frame = s.to_frame();
        let header = parse_header(&frame).unwrap();
        let index = ChunkIndex::parse(&frame, &header).unwrap();
        assert_eq!(index.locations, vec![ChunkLocation::Special(kind); 10]);
        let c = Schunk::from_frame(&frame);
        let mut data = DataReader::new(Cursor::new(&frame[..]), &header).unwrap();
        for n in 0..10 {
            let ours = data.read_chunk(n).unwrap();
            let theirs = c.chunk(n as i64, 800).unwrap();
            if kind == Special::Uninit {
                // C leaves uninitialised bytes as they were: only the length is defined.
                assert_eq!(ours.len(), theirs.len());
            } else {
                assert_eq!(ours, theirs, "special {special} chunk {n}");
            }
        }
    }
}

#[test]
fn chunk_offsets_index_errors_carry_offsets() {
    let bytes = std::fs::read(data("blosc2-4.14.1").join("schunk.b2f")).unwrap();
    let header = parse_header(&bytes).unwrap();
    let index = ChunkIndex::parse(&bytes, &header).unwrap();
    // The offsets chunk cut short: an error at its offset or after, never a panic.
    let cut = &bytes[..index.offset as usize + 10];
    let err = ChunkIndex::parse(cut, &header).unwrap_err();
    assert!(err.offset().unwrap() >= index.offset, "{err}");
    // Every single-byte corruption of the offsets chunk: Ok or an error with an offset.
    for i in index.offset as usize..index.offset as usize + index.cbytes as usize {
        let mut m = bytes.clone();
        m[i] ^= 0xff;
        if let Ok(idx) = ChunkIndex::parse(&m, &header) {
            let mut data = DataReader::new(Cursor::new(&m[..]), &header).unwrap();
            for n in 0..idx.locations.len() {
                if let Err(e) = data.read_chunk(n) {
                    assert!(e.offset().is_some(), "byte {i}: {e}");
                }
            }
        } else if let Err(e) = ChunkIndex::parse(&m, &header) {
            assert!(e.offset().is_some(), "byte {i}: {e}");
        }
    }
}
