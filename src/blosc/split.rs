//! [`SplitMode`]: whether a chunk's blocks are split into one stream per byte of the type.

/// How blocks are split into streams (the frame header's other flags, bits 0-1, plus 1;
/// python's `blosc2.SplitMode`). Compared with a `u8`, a split mode is its id.
///
/// ```
/// use b2nd_meta::blosc::SplitMode;
///
/// assert_eq!(SplitMode::from_id(1), SplitMode::Always);
/// assert_eq!((SplitMode::Never.id(), SplitMode::Never.name()), (2, "never"));
/// assert_eq!(SplitMode::Auto, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplitMode {
    /// 1: always split.
    Always,
    /// 2: never split.
    Never,
    /// 3: split when C-Blosc2 deems it worth it.
    Auto,
    /// 4: forward-compatible (split for the codecs C-Blosc2 2.x split).
    ForwardCompat,
}

impl SplitMode {
    /// The split mode of id `id` (1 to 4; the frame header cannot hold another, as it
    /// stores `id - 1` in two bits, so any other id reads as forward-compatible).
    pub const fn from_id(id: u8) -> SplitMode {
        match id {
            1 => SplitMode::Always,
            2 => SplitMode::Never,
            3 => SplitMode::Auto,
            _ => SplitMode::ForwardCompat,
        }
    }

    /// Its id, 1 to 4.
    pub const fn id(self) -> u8 {
        match self {
            SplitMode::Always => 1,
            SplitMode::Never => 2,
            SplitMode::Auto => 3,
            SplitMode::ForwardCompat => 4,
        }
    }

    /// Its name, lower-cased python's (`"auto"`, `"forward-compatible"`).
    pub const fn name(self) -> &'static str {
        match self {
            SplitMode::Always => "always",
            SplitMode::Never => "never",
            SplitMode::Auto => "auto",
            SplitMode::ForwardCompat => "forward-compatible",
        }
    }
}

impl PartialEq<u8> for SplitMode {
    fn eq(&self, id: &u8) -> bool {
        self.id() == *id
    }
}
