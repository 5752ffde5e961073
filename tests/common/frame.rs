//! The one frame-header builder of the tests: a header laid out byte for byte as
//! C-Blosc2's `new_header_frame` writes it (checked against a real python-blosc2 file in
//! tests/frame/edges/, `the_builder_writes_what_c_writes`).
#![allow(dead_code)]

/// Length of the fixed part of a header.
pub const FIXED: usize = 87;

/// The fixed 87 bytes of a real header: tests/data/frame/contiguous.b2nd, written by
/// python-blosc2 4.14.1 (version 2, lz4 clevel 5, typesize 4).
pub fn real_fixed_part() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/frame/contiguous.b2nd"
    );
    std::fs::read(path).unwrap()[..FIXED].to_vec()
}

/// The values of a synthetic fixed part: a contiguous version-2 frame compressed with
/// zstd at clevel 1, 64-bit offsets, split mode 4, one filter (shuffle) in slot 5.
#[derive(Clone, Debug)]
pub struct Fixed {
    pub header_len: i32,
    pub frame_len: u64,
    pub nbytes: i64,
    pub cbytes: i64,
    pub typesize: i32,
    pub blocksize: i32,
    pub chunksize: i32,
    pub nthreads_comp: i16,
    pub nthreads_decomp: i16,
}

impl Default for Fixed {
    fn default() -> Self {
        Fixed {
            header_len: FIXED as i32,
            frame_len: FIXED as u64,
            nbytes: 80,
            cbytes: 120,
            typesize: 8,
            blocksize: 40,
            chunksize: 80,
            nthreads_comp: 2,
            nthreads_decomp: 3,
        }
    }
}

impl Fixed {
    /// An empty frame (no data) of the given typesize, one thread each way.
    pub fn empty(typesize: i32) -> Self {
        Fixed {
            nbytes: 0,
            cbytes: 0,
            typesize,
            blocksize: 0,
            chunksize: 0,
            nthreads_comp: 1,
            nthreads_decomp: 1,
            ..Fixed::default()
        }
    }

    /// The 87 bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut h = vec![0x9e, 0xa8];
        h.extend_from_slice(b"b2frame\0");
        h.push(0xd2);
        h.extend_from_slice(&self.header_len.to_be_bytes());
        h.push(0xcf);
        h.extend_from_slice(&self.frame_len.to_be_bytes());
        h.extend_from_slice(&[0xa4, 0x12, 0x00, 0x15, 0x03]);
        for v in [self.nbytes, self.cbytes] {
            h.push(0xd3);
            h.extend_from_slice(&v.to_be_bytes());
        }
        for v in [self.typesize, self.blocksize, self.chunksize] {
            h.push(0xd2);
            h.extend_from_slice(&v.to_be_bytes());
        }
        for v in [self.nthreads_comp, self.nthreads_decomp] {
            h.push(0xd1);
            h.extend_from_slice(&v.to_be_bytes());
        }
        h.push(0xc2); // no variable-length metalayers
        h.extend_from_slice(&[0xd8, 6]);
        h.extend_from_slice(&[0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(h.len(), FIXED);
        h
    }
}

/// A msgpack fixstr, as C writes metalayer names (at most 31 bytes).
pub fn fixstr(name: &[u8]) -> Vec<u8> {
    assert!(name.len() <= 31);
    let mut v = vec![0xa0 | name.len() as u8];
    v.extend_from_slice(name);
    v
}

/// A built header, with where its fields are.
pub struct Built {
    pub bytes: Vec<u8>,
    /// Position of each metalayer's int32 offset field in the index.
    pub offset_fields: Vec<usize>,
    /// Position of each content's bin32 length field.
    pub len_fields: Vec<usize>,
}

/// A header made of `fixed` (87 bytes) and a metalayer section holding `entries`, given
/// as (encoded name, content), as C's `new_header_frame` lays it out; header_len and
/// frame_len are set to the header's length (a frame of header only).
pub fn build_with(fixed: &[u8], entries: &[(Vec<u8>, Vec<u8>)]) -> Built {
    assert_eq!(fixed.len(), FIXED);
    let mut h = fixed.to_vec();
    let n = entries.len() as u16;
    let idx_size: usize = 7 + entries
        .iter()
        .map(|(name, _)| name.len() + 5)
        .sum::<usize>();
    h.push(0x93);
    h.push(0xcd);
    h.extend_from_slice(&(idx_size as u16).to_be_bytes());
    h.push(0xde);
    h.extend_from_slice(&n.to_be_bytes());
    let mut offset = FIXED + idx_size + 3;
    let mut offset_fields = Vec::new();
    for (name, content) in entries {
        h.extend_from_slice(name);
        h.push(0xd2);
        offset_fields.push(h.len());
        h.extend_from_slice(&(offset as i32).to_be_bytes());
        offset += 5 + content.len();
    }
    assert_eq!(h.len(), FIXED + idx_size);
    h.push(0xdc);
    h.extend_from_slice(&n.to_be_bytes());
    let mut len_fields = Vec::new();
    for (_, content) in entries {
        h.push(0xc6);
        len_fields.push(h.len());
        h.extend_from_slice(&(content.len() as i32).to_be_bytes());
        h.extend_from_slice(content);
    }
    let len = h.len();
    assert_eq!(len, offset);
    set_i32(&mut h, 11, len as i32); // header_len
    set_u64(&mut h, 16, len as u64); // frame_len: header only
    Built {
        bytes: h,
        offset_fields,
        len_fields,
    }
}

/// [`build_with`] on the synthetic [`Fixed::default`], names given as text.
pub fn build_named(metalayers: &[(&str, &[u8])]) -> Vec<u8> {
    frame_with(Fixed::default(), metalayers)
}

/// [`build_with`] on `fixed`, names given as text.
pub fn frame_with(fixed: Fixed, metalayers: &[(&str, &[u8])]) -> Vec<u8> {
    let entries: Vec<_> = metalayers
        .iter()
        .map(|(name, content)| (fixstr(name.as_bytes()), content.to_vec()))
        .collect();
    build_with(&fixed.bytes(), &entries).bytes
}

/// Overwrites the 4 bytes at `at` with `v`, big-endian.
pub fn set_i32(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_be_bytes());
}

/// Overwrites the 8 bytes at `at` with `v`, big-endian.
pub fn set_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_be_bytes());
}

/// `meta`'s shape grown to whole chunks on every axis (empty axes stay empty): the
/// largest shape with the same chunk grid, which `set_shape` accepts.
pub fn grid_filled(meta: &b2nd_meta::Meta) -> Vec<u64> {
    meta.shape()
        .iter()
        .zip(meta.chunkshape())
        .map(|(&s, &c)| {
            let (s, c) = (s as u64, c as u64);
            if s == 0 {
                0
            } else {
                s.div_ceil(c) * c
            }
        })
        .collect()
}
