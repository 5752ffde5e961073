//! No allocation larger than the input: length fields that claim gigabytes cost nothing.
//!
//! The counting global allocator of tests/common records the largest single allocation
//! (or reallocation) made by the current thread while a check is armed, so that tests
//! running in parallel threads do not see each other's allocations.

use std::io::Read;

use crate::common;

use b2nd_meta::dtype::Dtype;
use b2nd_meta::frame::{self, FrameError, FrameErrorKind};
use b2nd_meta::{ErrorKind, Meta, MetaB2nd, MetaB2ndV1, MetaRef};

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

#[test]
fn the_counter_counts_this_thread_only_and_nests() {
    let (_, stats) = common::alloc::measure(|| {
        let (v, inner) = common::alloc::measure(|| vec![0u8; 1000]);
        assert_eq!(
            inner,
            common::alloc::Stats {
                count: 1,
                peak: 1000
            }
        );
        let other = std::thread::spawn(|| vec![0u8; 1 << 20]);
        drop(other.join().unwrap());
        v
    });
    // The vector above, plus what spawning and joining cost this thread (not the
    // other thread's megabyte).
    assert!(stats.count >= 1, "{stats:?}");
    assert!(stats.peak >= 1000 && stats.peak < 1 << 20, "{stats:?}");
    assert!(common::alloc::largest_ever() >= 1 << 20);
}

/// Far below every size claimed below, far above what decoding a small input needs.
const SMALL: usize = 4096;

#[track_caller]
fn assert_small<T: std::fmt::Debug>(what: &str, (value, peak): (T, usize)) -> T {
    eprintln!("{what}: largest allocation {peak} bytes");
    assert!(
        peak < SMALL,
        "{what}: largest allocation {peak} bytes (result {value:?})"
    );
    value
}

#[test]
fn the_counter_sees_a_large_allocation() {
    // Without this the other tests could pass by measuring nothing.
    let (v, peak) = common::alloc::peak_during(|| vec![0u8; 1 << 20]);
    assert_eq!(v.len(), 1 << 20);
    assert!(peak >= 1 << 20, "peak {peak}");
    let (_, peak) = common::alloc::peak_during(|| ());
    assert_eq!(peak, 0);
}

/// A 20-byte b2nd v1 metalayer (ndim 0) whose dtype str32 claims `len` bytes; 8 bytes
/// of dtype follow.
fn v1_claiming(len: u32) -> Vec<u8> {
    let mut b = vec![0x97, 0x00, 0x00, 0x90, 0x90, 0x90, 0x00, 0xdb];
    b.extend_from_slice(&len.to_be_bytes());
    b.extend_from_slice(b"<i4<i4<i");
    assert_eq!(b.len(), 20);
    b
}

/// The same in the draft layout (no dtype_format byte, 9 bytes of dtype).
fn draft_claiming(len: u32) -> Vec<u8> {
    let mut b = vec![0x96, 0x00, 0x00, 0x90, 0x90, 0x90, 0xdb];
    b.extend_from_slice(&len.to_be_bytes());
    b.extend_from_slice(b"<i4<i4<i4");
    assert_eq!(b.len(), 20);
    b
}

fn decode_every_way(bytes: &[u8]) {
    let what = format!("{bytes:02x?}");
    let meta = assert_small(
        &what,
        common::alloc::peak_during(|| b2nd_meta::from_slice::<Meta>(bytes)),
    );
    let err = meta.expect_err("a 2 GB dtype in 20 bytes");
    match err.kind() {
        ErrorKind::UnexpectedEnd { needed, .. } => assert!(*needed > 1 << 30, "{err}"),
        ErrorKind::LengthOutOfRange { len } => assert!(*len > i32::MAX as u32, "{err}"),
        _ => panic!("unexpected error {err}"),
    }
    let typed = if bytes[0] == 0x97 {
        common::alloc::peak_during(|| b2nd_meta::from_slice::<MetaB2ndV1>(bytes).map(drop))
    } else {
        common::alloc::peak_during(|| b2nd_meta::from_slice::<MetaB2nd>(bytes).map(drop))
    };
    assert!(assert_small(&what, typed).is_err());
    let taken = common::alloc::peak_during(|| b2nd_meta::take_from_slice::<Meta>(bytes).map(drop));
    assert!(assert_small(&what, taken).is_err());
    let read = common::alloc::peak_during(|| b2nd_meta::from_reader::<_, Meta>(bytes).map(drop));
    assert!(assert_small(&what, read).is_err());
    let view = common::alloc::peak_during(|| MetaRef::parse(bytes).map(drop));
    assert!(assert_small(&what, view).is_err());
    // The str32 alone, as a String.
    let str32 = &bytes[bytes.iter().position(|&b| b == 0xdb).unwrap()..];
    let string = common::alloc::peak_during(|| b2nd_meta::from_slice::<String>(str32));
    assert!(assert_small(&what, string).is_err());
}

#[test]
fn a_20_byte_metalayer_claiming_a_2_gb_dtype_allocates_nothing_of_that_size() {
    // i32::MAX: a valid length, 2 GB missing from the input.
    decode_every_way(&v1_claiming(0x7fff_ffff));
    decode_every_way(&draft_claiming(0x7fff_ffff));
    // 0x80000000 and above: negative in C's int32_t, refused before anything is read.
    for len in [0x8000_0000, 0xffff_fffe, 0xffff_ffff] {
        decode_every_way(&v1_claiming(len));
        decode_every_way(&draft_claiming(len));
    }
}

#[test]
fn a_metalayer_claiming_16_dimensions_in_a_few_bytes_allocates_little() {
    // ndim 16 and an int64 shape header, then the input ends.
    let bytes = [0x97, 0x00, 0x10, 0xa0, 0xd3, 0x7f];
    let result = common::alloc::peak_during(|| b2nd_meta::from_slice::<Meta>(&bytes).map(drop));
    assert!(assert_small("ndim 16", result).is_err());
}

// ---------------------------------------------------------------------------
// Frame headers

fn fixture() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/frame/usermeta.b2nd"
    );
    std::fs::read(path).unwrap()
}

/// The fixture with header_len set to `header_len` and frame_len to i64::MAX, so that
/// only the input's length stands between the claim and an allocation.
fn claiming_header_len(header_len: i32) -> Vec<u8> {
    let mut b = fixture();
    b[11..15].copy_from_slice(&header_len.to_be_bytes());
    b[16..24].copy_from_slice(&(i64::MAX as u64).to_be_bytes());
    b
}

#[test]
fn a_frame_header_claiming_header_len_i32_max_allocates_nothing_of_that_size() {
    let bytes = claiming_header_len(i32::MAX);
    assert!(bytes.len() < 1024);
    let parsed = assert_small(
        "parse_header",
        common::alloc::peak_during(|| frame::parse_header(&bytes).map(drop)),
    );
    assert!(
        matches!(parsed.as_ref().map_err(FrameError::kind), Err(FrameErrorKind::Truncated { end, .. }) if *end == i32::MAX as u64),
        "{parsed:?}"
    );
    // A small reader: read_header grows its buffer with the bytes that arrive.
    let read = assert_small(
        "read_header",
        common::alloc::peak_during(|| frame::read_header(&bytes[..]).map(drop)),
    );
    assert!(
        matches!(
            read.as_ref().map_err(FrameError::kind),
            Err(FrameErrorKind::Truncated { .. })
        ),
        "{read:?}"
    );
    // Only the fixed part, and nothing after it.
    let read = assert_small(
        "read_header, 87 bytes",
        common::alloc::peak_during(|| {
            frame::read_header(&bytes[..frame::FIXED_HEADER_LEN]).map(drop)
        }),
    );
    assert!(read.is_err());
}

#[test]
fn read_header_memory_follows_the_bytes_read_not_header_len() {
    // header_len claims 2 GiB; the reader holds 1 MiB: memory stays within twice what
    // was actually read (a growing Vec), never near the claim.
    let bytes = claiming_header_len(i32::MAX);
    let supplied = bytes.len() + (1 << 20);
    let reader = (&bytes[..]).chain(std::io::repeat(0).take(1 << 20));
    let (result, peak) = common::alloc::peak_during(|| frame::read_header(reader).map(drop));
    assert!(result.is_err());
    assert!(
        peak <= 2 * supplied,
        "peak {peak} for {supplied} bytes read"
    );
    // The rest of the claimed header is read and dropped (8 KiB at a time), not kept.
    assert!(peak <= 16 << 10, "peak {peak}: the dropped bytes were kept");
}

#[test]
fn open_on_a_file_claiming_header_len_i32_max_allocates_nothing_of_that_size() {
    let path = std::env::temp_dir().join(format!(
        "b2nd-meta-alloc-bounds-{}.b2nd",
        std::process::id()
    ));
    std::fs::write(&path, claiming_header_len(i32::MAX)).unwrap();
    let (result, peak) = common::alloc::peak_during(|| frame::open(&path).map(drop));
    std::fs::remove_file(&path).unwrap();
    assert!(result.is_err());
    // open() also allocates the path and the file handle's buffers: well under 4 KiB.
    assert!(peak < SMALL, "peak {peak}");
}

/// Offset of the first metalayer content's bin32 length in the usermeta fixture.
fn first_content_len_at(bytes: &[u8]) -> usize {
    let header = frame::parse_header(bytes).unwrap();
    header.metalayers[0].offset as usize + 1
}

#[test]
fn a_frame_metalayer_claiming_2_gb_of_content_allocates_nothing_of_that_size() {
    for len in [i32::MAX, i32::MIN, -1] {
        let mut bytes = fixture();
        let at = first_content_len_at(&bytes);
        bytes[at..at + 4].copy_from_slice(&len.to_be_bytes());
        let result = assert_small(
            &format!("content length {len}"),
            common::alloc::peak_during(|| frame::parse_header(&bytes).map(drop)),
        );
        assert!(result.is_err(), "content length {len}");
        let result = assert_small(
            &format!("content length {len}, read_header"),
            common::alloc::peak_during(|| frame::read_header(&bytes[..]).map(drop)),
        );
        assert!(result.is_err(), "content length {len}");
    }
}

#[test]
fn a_frame_claiming_65535_metalayers_allocates_nothing_of_that_size() {
    let mut bytes = fixture();
    // The map16 count at byte 92, then the contents' array16 count after the index.
    bytes[92..94].copy_from_slice(&u16::MAX.to_be_bytes());
    let result = assert_small(
        "map16 count 65535",
        common::alloc::peak_during(|| frame::parse_header(&bytes).map(drop)),
    );
    assert!(
        matches!(
            result.as_ref().map_err(FrameError::kind),
            Err(FrameErrorKind::TooManyMetalayers { count: 65535, .. })
        ),
        "{result:?}"
    );
}

#[test]
fn a_frame_metalayer_name_claiming_4_gb_allocates_nothing_of_that_size() {
    let mut bytes = fixture();
    // The first name's fixstr marker at byte 94 becomes a str32 of u32::MAX bytes.
    assert_eq!(bytes[94], 0xa4); // "b2nd"
    bytes[94] = 0xdb;
    bytes[95..99].copy_from_slice(&u32::MAX.to_be_bytes());
    let result = assert_small(
        "str32 name",
        common::alloc::peak_during(|| frame::parse_header(&bytes).map(drop)),
    );
    assert!(
        matches!(result.as_ref().map_err(FrameError::kind), Err(FrameErrorKind::NameTooLong { len, .. }) if *len == u64::from(u32::MAX)),
        "{result:?}"
    );
}

// ---------------------------------------------------------------------------
// Dtypes: sizes are numbers, never buffers.

#[test]
fn dtypes_claiming_huge_sizes_allocate_nothing_of_that_size() {
    for s in [
        "|S9223372036854775807",
        "|V2147483647",
        "<U2305843009213693951",
        "('<f8', (2147483647, 2147483647))",
        "[('a', '<i4', (1000000000,)), ('b', '|V4000000000')]",
        "{'names': ['a'], 'formats': ['<i4'], 'offsets': [4000000000], 'itemsize': 9000000000}",
        "|S99999999999999999999999999",
        "<M8[2147483647ns]",
    ] {
        let (result, peak) =
            common::alloc::peak_during(|| Dtype::parse(s).map(|d| (d.itemsize(), d.to_string())));
        assert!(peak < SMALL, "{s:?}: peak {peak}, {result:?}");
    }
    // The first one is a valid dtype whose itemsize is i64::MAX.
    assert_eq!(
        Dtype::parse("|S9223372036854775807").unwrap().itemsize(),
        i64::MAX as u64
    );
}

/// Every layout, ndim 0 to 16, with dtypes of 0 to 22 bytes (kept inline) and longer
/// ones (one allocation: the dtype's), encoded by hand from the spec's diagram.
fn metalayers_by_dtype_len() -> Vec<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    for ndim in [0usize, 1, 3, 8, 16] {
        for dtype_len in [0usize, 3, 16, 22, 23, 60] {
            for header in [0x95u8, 0x96, 0x97] {
                let mut b = vec![header, 0x00, ndim as u8, 0x90 + ndim as u8];
                for i in 0..ndim {
                    b.push(0xd3);
                    b.extend_from_slice(&(1000 + i as i64).to_be_bytes());
                }
                for v in [100i32, 10] {
                    b.push(0x90 + ndim as u8);
                    for _ in 0..ndim {
                        b.push(0xd2);
                        b.extend_from_slice(&v.to_be_bytes());
                    }
                }
                if header == 0x97 {
                    b.push(0x00);
                }
                let has_dtype = header != 0x95;
                if has_dtype {
                    b.push(0xdb);
                    b.extend_from_slice(&(dtype_len as u32).to_be_bytes());
                    b.extend(std::iter::repeat_n(b'x', dtype_len));
                }
                out.push((b, if has_dtype { dtype_len } else { 0 }));
            }
        }
    }
    out
}

#[test]
fn decoding_allocates_nothing_with_a_dtype_of_up_to_22_bytes_and_once_beyond() {
    for (bytes, dtype_len) in metalayers_by_dtype_len() {
        let bound = usize::from(dtype_len > b2nd_meta::SmallString::INLINE_CAPACITY);
        let what = format!("{} bytes, dtype of {dtype_len}", bytes.len());
        let (meta, stats) = common::alloc::measure(|| b2nd_meta::from_slice::<Meta>(&bytes));
        assert_eq!(stats.count, bound, "from_slice::<Meta>, {what}: {stats:?}");
        let (_, stats) = common::alloc::measure(|| MetaRef::parse(&bytes).unwrap().to_meta());
        assert_eq!(stats.count, bound, "MetaRef::to_meta, {what}: {stats:?}");
        let (_, stats) = common::alloc::measure(|| MetaRef::parse(&bytes).map(drop));
        assert_eq!(stats.count, 0, "MetaRef::parse, {what}: {stats:?}");
        // The typed struct of the same layout, too.
        let (_, stats) = common::alloc::measure(|| match bytes[0] {
            0x95 => b2nd_meta::from_slice::<b2nd_meta::MetaV0Caterva>(&bytes).map(drop),
            0x96 => b2nd_meta::from_slice::<MetaB2nd>(&bytes).map(drop),
            _ => b2nd_meta::from_slice::<MetaB2ndV1>(&bytes).map(drop),
        });
        assert_eq!(stats.count, bound, "typed from_slice, {what}: {stats:?}");
        let meta = meta.unwrap();
        assert_eq!(meta.dtype().map_or(0, str::len), dtype_len);
        // Encoding into a caller's buffer allocates nothing either.
        let mut buf = [0u8; 512];
        let (n, stats) = common::alloc::measure(|| meta.encode_into(&mut buf).unwrap());
        assert_eq!((n, stats.count), (bytes.len(), 0), "encode_into, {what}");
        // Encoding into a vector of exactly its length allocates that vector alone.
        let (out, stats) = common::alloc::measure(|| meta.encode_to_vec().unwrap());
        assert_eq!(
            (out, stats.count),
            (bytes.clone(), 1),
            "encode_to_vec, {what}"
        );
        // Decoding into a reused value allocates what a fresh decode does, at most.
        let mut reused = meta.clone();
        let (_, stats) = common::alloc::measure(|| reused.decode_from(&bytes).unwrap());
        assert_eq!(stats.count, bound, "decode_from, {what}: {stats:?}");
    }
}

/// A reader of endless zeros after a valid metalayer: one byte past it is read.
#[test]
fn from_reader_stops_one_byte_after_the_metalayer_of_an_endless_reader() {
    struct Counted<R>(R, usize);
    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1 += n;
            Ok(n)
        }
    }
    for (bytes, _) in metalayers_by_dtype_len() {
        let mut reader = Counted(bytes.as_slice().chain(std::io::repeat(0)), 0);
        let (result, stats) =
            common::alloc::measure(|| b2nd_meta::from_reader::<_, Meta>(&mut reader));
        let err = result.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::TrailingBytes { count: 1 }),
            "{err}"
        );
        assert_eq!(err.offset(), Some(bytes.len() as u64));
        assert_eq!(reader.1, bytes.len() + 1, "bytes read");
        assert!(stats.peak < SMALL, "{stats:?}");
        // Without the zeros: the value, and nothing more read.
        let meta: Meta = b2nd_meta::from_reader(bytes.as_slice()).unwrap();
        assert_eq!(meta, b2nd_meta::from_slice::<Meta>(&bytes).unwrap());
    }
}

/// A `Read` that reports more bytes than the buffer it was given: an error, no panic.
#[test]
fn from_reader_refuses_a_reader_that_lies_about_its_length() {
    struct Liar;
    impl Read for Liar {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(0x95);
            Ok(buf.len() + 1)
        }
    }
    let err = b2nd_meta::from_reader::<_, Meta>(Liar).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Io(_)), "{err}");
    assert_eq!(err.offset(), None);
    assert!(err.to_string().contains("reported 2 bytes"), "{err}");
}

/// A reader that ends inside the metalayer: the error `from_slice` gives on the bytes
/// it yielded, at the same offset.
#[test]
fn from_reader_on_a_truncated_metalayer_gives_from_slices_error() {
    for (bytes, _) in metalayers_by_dtype_len().into_iter().take(12) {
        for len in 0..bytes.len() {
            let from_reader = b2nd_meta::from_reader::<_, Meta>(&bytes[..len]).unwrap_err();
            let from_slice = b2nd_meta::from_slice::<Meta>(&bytes[..len]).unwrap_err();
            assert_eq!(from_reader.to_string(), from_slice.to_string());
        }
    }
}
