//! Bad input: every one an error naming its byte or axis, never a panic.

use b2nd_meta::array::{Array, ArrayErrorKind, Selection};

use crate::data;

fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(data("blosc2-4.14.1").join(name)).unwrap()
}

fn open_bytes(bytes: &[u8]) -> Result<Array, b2nd_meta::array::ArrayError> {
    Array::open(b2nd_meta::frame::Source::bytes(bytes.to_vec()))
}

#[test]
fn a_buffer_of_another_length_is_refused() {
    let array = Array::open(data("blosc2-4.14.1").join("ndim2_u2.b2nd")).unwrap();
    let mut small = vec![0u8; 13 * 11 * 2 - 1];
    let err = array.read_into(&Selection::all(), &mut small).unwrap_err();
    assert!(matches!(
        err.kind(),
        ArrayErrorKind::BufferLength {
            expected: 286,
            found: 285
        }
    ));
    let mut typed = vec![0u16; 12];
    assert!(array
        .read_typed_into(&"0".parse().unwrap(), &mut typed)
        .is_err());
    assert!(array
        .read_typed_into(&"0, :-1".parse().unwrap(), &mut typed[..10])
        .is_ok());
}

#[test]
fn frames_that_are_not_arrays_are_refused() {
    let schunk = data("../containers/blosc2-4.14.1/schunk.b2f");
    let err = Array::open(schunk).unwrap_err();
    assert_eq!(
        err.to_string().rsplit(": ").next().unwrap(),
        "expected an NDArray, found a frame python-blosc2 opens as SChunk"
    );
    let lazy = data("../containers/blosc2-4.14.1/lazyexpr.b2nd");
    assert!(matches!(
        Array::open(lazy).unwrap_err().kind(),
        ArrayErrorKind::NotAnArray { .. }
    ));
    let store = data("blosc2-4.14.1").join("store_tree.b2z");
    let err = Array::open_key(&store, "/g").unwrap_err();
    assert!(
        err.to_string()
            .ends_with("expected an NDArray, found a group"),
        "{err}"
    );
    let err = Array::open_key(&store, "/nope").unwrap_err();
    assert!(matches!(err.kind(), ArrayErrorKind::Container(_)), "{err}");
    let err = Array::open(&store).unwrap_err();
    assert!(matches!(err.kind(), ArrayErrorKind::Frame(_)), "{err}");
}

/// Every truncation of a frame opens or reads with an error, never a panic, and a read
/// that succeeds gives the values.
#[test]
fn truncated_frames_fail_at_a_byte() {
    let whole = fixture_bytes("edge_many_chunks.b2nd");
    let want = open_bytes(&whole)
        .unwrap()
        .read_bytes(&Selection::all())
        .unwrap();
    for cut in (0..whole.len()).step_by(97) {
        match open_bytes(&whole[..cut]).and_then(|a| a.read_bytes(&Selection::all())) {
            Ok(got) => assert_eq!(got, want, "cut at {cut}"),
            Err(e) => assert!(
                e.offset().is_some() || matches!(e.kind(), ArrayErrorKind::Frame(_)),
                "cut at {cut}: {e}"
            ),
        }
    }
}

/// Every byte changed, one at a time, in a small frame: an error or values, never a
/// panic or a hang.
#[test]
fn changed_bytes_never_panic() {
    let whole = fixture_bytes("ndim2_u2.b2nd");
    for at in 0..whole.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut bytes = whole.clone();
            bytes[at] ^= flip;
            if let Ok(array) = open_bytes(&bytes) {
                let _ = array.read_bytes(&Selection::all());
                let _ = array.read_bytes(&"::-2, 3".parse().unwrap());
            }
        }
    }
}

#[test]
fn a_chunk_index_pointing_outside_the_frame_is_refused() {
    // The offsets chunk of a memcpyed array stores its int64 offsets as they are: the
    // last 8 * nchunks bytes before the trailer. Point the first one far away.
    let mut bytes = fixture_bytes("memcpyed_clevel0.b2nd");
    let array = open_bytes(&bytes).unwrap();
    let index_at = array.header().info.header_len as usize + array.header().info.cbytes as usize;
    let first_offset = index_at + 32;
    bytes[first_offset..first_offset + 8].copy_from_slice(&(1i64 << 40).to_le_bytes());
    let err = open_bytes(&bytes)
        .and_then(|a| a.read_bytes(&Selection::all()))
        .unwrap_err();
    assert!(
        err.to_string().contains("outside the frame's data"),
        "{err}"
    );
    assert_eq!(err.offset(), Some(index_at as u64));
}

#[test]
fn a_chunk_of_the_wrong_size_is_refused() {
    // A chunk that decodes to fewer bytes than the array's chunks hold: the first
    // chunk's nbytes (bytes 4..8 of its header) lowered, its memcpyed data cut to match.
    let mut bytes = fixture_bytes("memcpyed_clevel0.b2nd");
    let array = open_bytes(&bytes).unwrap();
    let at = array.header().info.header_len as usize;
    let nbytes = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap());
    let cbytes = u32::from_le_bytes(bytes[at + 12..at + 16].try_into().unwrap());
    bytes[at + 4..at + 8].copy_from_slice(&(nbytes - 4).to_le_bytes());
    bytes[at + 12..at + 16].copy_from_slice(&(cbytes - 4).to_le_bytes());
    let err = open_bytes(&bytes)
        .unwrap()
        .read_bytes(&"0".parse().unwrap())
        .unwrap_err();
    assert_eq!(err.offset(), Some(at as u64 + 4), "{err}");
    assert!(
        err.to_string()
            .contains("fewer bytes than the array's chunks hold"),
        "{err}"
    );
}

/// The frames of tests/data/corpus (python-blosc2's, other purposes): each opens as an
/// array or is refused with a reason, and reads a few elements from its end.
#[test]
fn corpus_frames_open_or_are_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut opened = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let array = match Array::open(&path) {
            Ok(array) => array,
            Err(e) => {
                assert!(
                    matches!(e.kind(), ArrayErrorKind::NotAnArray { .. }),
                    "{}: {e}",
                    path.display()
                );
                continue;
            }
        };
        opened += 1;
        let sel: Selection = match array.ndim() {
            0 => "...".parse().unwrap(),
            n => std::iter::repeat_n("-3:", n)
                .collect::<Vec<_>>()
                .join(", ")
                .parse()
                .unwrap(),
        };
        let got = array
            .read_bytes(&sel)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let len: u64 = array.shape_of(&sel).unwrap().iter().product();
        assert_eq!(got.len() as u64, len * array.itemsize() as u64);
    }
    assert!(opened > 50, "{opened}");
}

#[test]
fn a_sparse_frame_missing_a_chunk_file_names_it() {
    let copy =
        crate::common::scratch::Scratch::of("arrays/blosc2-4.14.1/sparse_2d.b2nd", "missing-chunk");
    std::fs::remove_file(copy.0.join("00000002.chunk")).unwrap();
    let array = Array::open(&copy.0).unwrap();
    assert_eq!(
        array
            .read_bytes(&"0:5, 0:4".parse().unwrap())
            .unwrap()
            .len(),
        5 * 4 * 4
    );
    let err = array.read_bytes(&Selection::all()).unwrap_err();
    assert_eq!(
        err.path(),
        Some(copy.0.join("00000002.chunk").as_path()),
        "{err}"
    );
    assert!(err.to_string().contains("No such file"), "{err}");
}
