//! In-place writes (issue 11): one locked read-decide-check-write per call, under
//! concurrent writers and readers; a change between decide and write refused; frames
//! cut short refused; the new shape checked before the grid.

use crate::common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use b2nd_meta::frame::{self, FrameErrorKind, ShapeChangeRefusal};
use common::scratch::Scratch;

fn refusal(path: &Path, shape: &[u64]) -> ShapeChangeRefusal {
    match frame::set_shape(path, shape).map_err(|e| e.into_kind()) {
        Err(FrameErrorKind::ShapeChange { reason }) => reason,
        other => panic!("{shape:?}: {other:?}"),
    }
}

/// Shapes within the chunk grid of rewrite_2d_before.b2nd: (10, 7) in (4, 4) chunks.
const SHAPES: [[u64; 2]; 4] = [[10, 7], [12, 8], [9, 5], [11, 6]];

#[test]
#[clippy::msrv = "1.89"]
fn two_writers_and_readers_never_see_a_broken_header() {
    const ITERATIONS: usize = 1500;
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "race");
    let path = Arc::new(scratch.0.clone());
    let before = std::fs::read(&scratch.0).unwrap();
    let layer = frame::parse_header(&before).unwrap();
    let layer = layer.array_metalayer().unwrap();
    let (start, end) = (
        layer.content_offset() as usize,
        layer.content_offset() as usize + layer.content.len(),
    );
    let done = Arc::new(AtomicBool::new(false));

    let writers: Vec<_> = (0..2)
        .map(|w| {
            let path = Arc::clone(&path);
            std::thread::spawn(move || {
                for i in 0..ITERATIONS {
                    let shape = SHAPES[(i + w) % SHAPES.len()];
                    let meta = frame::set_shape(&*path, &shape).unwrap();
                    assert_eq!(meta.shapes().unwrap().shape[..], shape);
                }
            })
        })
        .collect();
    // One reader takes the shared lock, as a cooperating reader would: it sees exactly
    // one of the shapes written. The other takes no lock (as C-Blosc2 reads): it still
    // sees a header that parses, a metalayer that decodes and a shape within the grid.
    let readers: Vec<_> = [true, false]
        .into_iter()
        .map(|shared| {
            let path = Arc::clone(&path);
            let done = Arc::clone(&done);
            let before = before.clone();
            std::thread::spawn(move || {
                let mut reads = 0u64;
                while !done.load(Ordering::Relaxed) || reads == 0 {
                    let file = std::fs::File::open(&*path).unwrap();
                    if shared {
                        file.lock_shared().unwrap();
                    }
                    let bytes = std::fs::read(&*path).unwrap();
                    drop(file);
                    assert_eq!(bytes.len(), before.len());
                    assert_eq!(bytes[..start], before[..start], "outside the metalayer");
                    assert_eq!(bytes[end..], before[end..], "outside the metalayer");
                    let meta = frame::parse_header(&bytes).unwrap().array_meta().unwrap();
                    let shape = [meta.shape()[0] as u64, meta.shape()[1] as u64];
                    if shared {
                        assert!(SHAPES.contains(&shape), "{shape:?}");
                    } else {
                        assert!((9..=12).contains(&shape[0]) && (5..=8).contains(&shape[1]));
                    }
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    done.store(true, Ordering::Relaxed);
    for r in readers {
        assert!(r.join().unwrap() > 0);
    }
}

#[test]
fn compare_and_write_loses_no_update_between_two_writers() {
    // Each writer reads the counter (the 8 last bytes of the 9-byte "user" content),
    // and writes it + 1 only if it is still what it read; else it reads again.
    const PER_WRITER: u64 = 1000;
    let scratch = Scratch::of("frame/usermeta.b2nd", "cas");
    let path = Arc::new(scratch.0.clone());
    let mut zero = vec![0x81u8];
    zero.extend_from_slice(&0u64.to_be_bytes());
    frame::rewrite_metalayer(&*path, "user", &zero).unwrap();
    let refused = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let writers: Vec<_> = (0..2)
        .map(|_| {
            let path = Arc::clone(&path);
            let refused = Arc::clone(&refused);
            std::thread::spawn(move || {
                let mut done = 0;
                while done < PER_WRITER {
                    let old = frame::open(&*path)
                        .unwrap()
                        .header
                        .metalayer("user")
                        .unwrap()
                        .content
                        .clone();
                    let n = u64::from_be_bytes(old[1..9].try_into().unwrap());
                    let mut new = vec![0x81u8];
                    new.extend_from_slice(&(n + 1).to_be_bytes());
                    match frame::rewrite_metalayer_if(&*path, "user", &old, &new) {
                        Ok(()) => done += 1,
                        Err(ref e) if matches!(e.kind(), FrameErrorKind::ContentChanged { .. }) => {
                            refused.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(e) => panic!("{e}"),
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let content = frame::open(&*path)
        .unwrap()
        .header
        .metalayer("user")
        .unwrap()
        .content
        .clone();
    assert_eq!(
        u64::from_be_bytes(content[1..9].try_into().unwrap()),
        2 * PER_WRITER
    );
    eprintln!(
        "{} stale decisions refused",
        refused.load(Ordering::Relaxed)
    );
}

#[test]
fn a_change_between_decide_and_write_is_refused() {
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "stale");
    // Decide from one read...
    let header = frame::open(&scratch.0).unwrap().header;
    let layer = header.array_metalayer().unwrap();
    let decided = frame::reshaped_meta(&header, &[12, 8]).unwrap();
    let new = b2nd_meta::to_vec(&decided).unwrap();
    // ... another writer changes the array meanwhile ...
    frame::set_shape(&scratch.0, &[9, 5]).unwrap();
    let changed = std::fs::read(&scratch.0).unwrap();
    // ... and the write decided from the first read is refused, nothing written.
    let err =
        frame::rewrite_metalayer_if(&scratch.0, &layer.name, &layer.content, &new).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::ContentChanged { .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("changed between reading and writing"),
        "{err}"
    );
    assert_eq!(std::fs::read(&scratch.0).unwrap(), changed);

    // The file replaced by another array of the same metalayer length: refused too.
    let other = Scratch::of("corpus/rewrite_2d_after.b2nd", "stale-other");
    std::fs::rename(&other.0, &scratch.0).unwrap();
    let replaced = std::fs::read(&scratch.0).unwrap();
    let err =
        frame::rewrite_metalayer_if(&scratch.0, &layer.name, &layer.content, &new).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::ContentChanged { .. }),
        "{err}"
    );
    assert_eq!(std::fs::read(&scratch.0).unwrap(), replaced);

    // With the right expected content it goes through.
    let now = frame::open(&scratch.0)
        .unwrap()
        .header
        .array_metalayer()
        .unwrap()
        .content
        .clone();
    frame::rewrite_metalayer_if(&scratch.0, &layer.name, &now, &new).unwrap();
    assert_eq!(
        frame::open(&scratch.0)
            .unwrap()
            .header
            .array_meta()
            .unwrap()
            .shape(),
        [12, 8]
    );
}

#[test]
fn a_frame_cut_short_is_not_rewritten() {
    for (relative, tag) in [
        ("corpus/rewrite_2d_before.b2nd", "cut-contiguous"),
        ("corpus/sparse_2d.b2nd", "cut-sparse"),
    ] {
        let scratch = Scratch::of(relative, tag);
        let file = scratch.header_file();
        let full = std::fs::metadata(&file).unwrap().len();
        let opened = frame::open(&scratch.0).unwrap();
        assert_eq!(
            opened.header.info.frame_len, full,
            "{relative}: frame_len is the file"
        );
        let shape = opened.header.array_meta().unwrap().shapes().unwrap().shape[..].to_vec();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(full - 1)
            .unwrap();
        let cut = std::fs::read(&file).unwrap();
        let err = frame::set_shape(&scratch.0, &shape).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::TruncatedFrame { frame_len, file_len }
                if *frame_len == full && *file_len == full - 1),
            "{relative}: {err}"
        );
        assert!(err.to_string().contains("truncated"), "{err}");
        let name = &opened.header.metalayers[0].name;
        let content = &opened.header.metalayers[0].content;
        let err = frame::rewrite_metalayer(&scratch.0, name, content).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::TruncatedFrame { .. }),
            "{err}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), cut, "{relative}: untouched");
    }
}

#[test]
fn the_new_shape_is_checked_before_the_grid() {
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "shape-first");
    let cases: &[(&[u64], ShapeChangeRefusal)] = &[
        (
            &[1 << 63, 7],
            ShapeChangeRefusal::TooLong {
                axis: 0,
                len: 1 << 63,
            },
        ),
        (
            &[10, u64::MAX],
            ShapeChangeRefusal::TooLong {
                axis: 1,
                len: u64::MAX,
            },
        ),
        (&[u64::MAX], ShapeChangeRefusal::Ndim { from: 2, to: 1 }),
        (&[], ShapeChangeRefusal::Ndim { from: 2, to: 0 }),
        (
            &[13, 7],
            ShapeChangeRefusal::ChunkGrid {
                axis: 0,
                from: 3,
                to: 4,
            },
        ),
        (
            &[0, 7],
            ShapeChangeRefusal::ChunkGrid {
                axis: 0,
                from: 3,
                to: 0,
            },
        ),
    ];
    for (shape, expected) in cases {
        assert_eq!(&refusal(&scratch.0, shape), expected, "{shape:?}");
    }
}

#[test]
fn set_shape_keeps_every_byte_outside_the_shape_entries() {
    for (relative, tag) in [
        ("corpus/rewrite_3d_before.b2nd", "keep-3d"),
        ("corpus/sparse_2d.b2nd", "keep-sparse"),
    ] {
        let scratch = Scratch::of(relative, tag);
        let file = scratch.header_file();
        let before = std::fs::read(&file).unwrap();
        let header = frame::parse_header(&before).unwrap();
        let meta = header.array_meta().unwrap();
        // The largest shape within the grid.
        let shape = common::frame::grid_filled(&meta);
        frame::set_shape(&scratch.0, &shape).unwrap();
        let after = std::fs::read(&file).unwrap();
        let layer = header.array_metalayer().unwrap();
        let start = layer.content_offset() as usize;
        assert_eq!(before.len(), after.len());
        for (i, (a, b)) in before.iter().zip(&after).enumerate() {
            if a != b {
                // Inside a shape entry: content byte 4 + 9 * axis + 1.. of the b2nd layout.
                let at = i - start;
                assert!(
                    (4..4 + 9 * shape.len()).contains(&at) && !(at - 4).is_multiple_of(9),
                    "{relative}: byte {i}"
                );
            }
        }
    }
}

/// Two metalayers with one name (C-Blosc2 writes none, but reads such a header): the
/// first is the one found and the one rewritten, as `blosc2_meta_get` and
/// `blosc2_meta_update` find the first (found by the `frame_header` fuzz target).
#[test]
fn a_repeated_name_reads_and_rewrites_the_first() {
    let mut bytes = common::frame::build_named(&[("m", b"\x01"), ("m", b"\x02")]);
    let header = frame::parse_header(&bytes).unwrap();
    assert_eq!(header.metalayer("m").unwrap().content, b"\x01");
    frame::rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut bytes), "m", b"\x03").unwrap();
    let header = frame::parse_header(&bytes).unwrap();
    let contents: Vec<&[u8]> = header.metalayers.iter().map(|m| &m.content[..]).collect();
    assert_eq!(contents, [b"\x03", b"\x02"]);
}
