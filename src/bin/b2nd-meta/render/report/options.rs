//! [`Options`]: how much of the raw contents a report holds.

/// How much of the raw contents a report holds.
#[derive(Clone, Copy)]
pub struct Options {
    /// At most this many bytes of each raw content go into `raw_hex` (with `raw_len`
    /// giving the full length); `None`: all of it.
    pub hex_limit: Option<usize>,
    /// Whether a content that goes in whole is read again from the frame's file when
    /// serialized ([`Hex::Frame`]) rather than copied into the report.
    pub from_file: bool,
}

impl Options {
    /// What `show` prints without `--full-hex`: the first 4096 bytes.
    pub const SHOW: Options = Options {
        hex_limit: Some(4096),
        from_file: false,
    };

    /// What `show --full-hex` prints: every byte, streamed from the file.
    pub const FULL_HEX: Options = Options {
        hex_limit: None,
        from_file: true,
    };
}
