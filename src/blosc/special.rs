//! [`Special`]: a chunk whose whole content is one value.

/// A chunk whose whole content is one special value (`blosc2_flags` bits 4..6 of its
/// header; a frame's chunk-offsets index marks special chunks the same way).
///
/// ```
/// use b2nd_meta::{blosc::Special, chunk::ChunkHeader};
///
/// // A chunk of 1 GiB of zeros is a 32-byte header: blosc2_flags 0x10 (bits 4..6: 1).
/// let mut zeros = vec![5, 1, 5, 1, 0, 0, 0, 0x40, 0, 0, 0, 1, 32, 0, 0, 0];
/// zeros.extend([0; 15]);
/// zeros.push(0x10);
/// assert_eq!(ChunkHeader::parse(&zeros)?.special(), Some(Special::Zero));
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// 1: zeros.
    Zero,
    /// 2: NaNs of the type's width.
    Nan,
    /// 3: one value, stored after the header, repeated.
    Value,
    /// 4: not initialized (decoded as zeros).
    Uninit,
}
