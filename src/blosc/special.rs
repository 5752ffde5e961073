//! [`Special`]: a chunk whose whole content is one value.

/// A chunk whose whole content is one special value (`blosc2_flags` bits 4..6 of its
/// header; a frame's chunk-offsets index marks special chunks the same way).
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
