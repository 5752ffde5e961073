//! `chunk::decode_into` against `chunk::decode`: the same verdict and the same bytes on
//! every chunk the other tests decode (they decode through [`decode_both`]), nothing
//! written past `nbytes`, nothing written at all when the destination is too small.

use b2nd_meta::chunk::{self, ChunkError, ChunkErrorKind};

/// A byte no decoder writes by chance at the end of a destination.
const GUARD: u8 = 0xa5;
/// Guard bytes after `nbytes`.
const SLACK: usize = 7;

/// The chunk's declared `nbytes`, when the header holds it.
fn declared_nbytes(chunk: &[u8]) -> Option<usize> {
    let bytes = chunk.get(4..8)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?) as usize)
}

/// Chunks declaring more than this are decoded by `decode` alone: a mutated header that
/// claims 64 MiB of zeros would cost a 64 MiB fill of the destination per case.
const MAX_CHECKED: usize = 2 << 20;

std::thread_local! {
    /// One destination per thread, grown once.
    static DEST: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `chunk::decode`, checked against `chunk::decode_into` on a destination of `nbytes`
/// and a few guard bytes.
pub fn decode_both(bytes: &[u8]) -> Result<Vec<u8>, ChunkError> {
    let decoded = chunk::decode(bytes, &chunk::DecodeBudget::default());
    let capacity = declared_nbytes(bytes).unwrap_or(0);
    if capacity > MAX_CHECKED {
        return decoded;
    }
    DEST.with_borrow_mut(|dest| {
        dest.resize(capacity + SLACK, 0);
        let dest = &mut dest[..capacity + SLACK];
        dest[capacity..].fill(GUARD);
        let into = chunk::decode_into(bytes, dest);
        match (&decoded, into) {
            (Ok(vec), Ok(n)) => {
                assert_eq!(n, vec.len(), "decode_into's length");
                assert_eq!(dest[..n], vec[..], "decode_into's bytes");
                assert!(
                    dest[capacity..].iter().all(|&b| b == GUARD),
                    "written past nbytes"
                );
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.offset(), b.offset(), "{a} / {b}");
                // The limit is the destination's length, not the default.
                if !matches!(a.kind(), ChunkErrorKind::TooLarge { .. }) {
                    assert_eq!(a.kind(), b.kind());
                }
            }
            (a, b) => panic!("decode {a:?}, decode_into {b:?}"),
        }
    });
    decoded
}

#[test]
fn a_destination_too_small_is_refused_before_anything_is_written() {
    // python-blosc2's memcpyed {"a": 1} (nbytes 4).
    let mut chunk = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
    chunk.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    chunk.extend([0x81, 0xa1, 0x61, 0x01]);
    let mut dest = [GUARD; 3];
    let err = chunk::decode_into(&chunk, &mut dest).unwrap_err();
    assert_eq!(err.offset(), Some(4));
    assert_eq!(
        err.kind(),
        &ChunkErrorKind::TooLarge {
            nbytes: 4,
            limit: 3
        }
    );
    assert_eq!(dest, [GUARD; 3]);
    assert_eq!(decode_both(&chunk).unwrap(), [0x81, 0xa1, 0x61, 0x01]);
}
