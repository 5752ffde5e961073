//! [`Codec`]: the compressor a frame header names by its id, or a chunk header by its
//! format code.

use core::fmt;

use super::names;

/// A Blosc2 codec. The frame header names it by its id (`BLOSC_BLOSCLZ` 0, `BLOSC_LZ4`
/// 1, `BLOSC_LZ4HC` 2, `BLOSC_ZLIB` 4, `BLOSC_ZSTD` 5, plugins 32-159 registered with
/// C-Blosc2, 160-255 user-defined); a chunk header by its format code (bits 5..7 of its
/// flags), in which LZ4 and LZ4HC share format 1 (read as [`Codec::Lz4`]) and format 6
/// takes the plugin's id from the extended header.
///
/// Compared with a `u8`, a codec is its id (as python's `blosc2.Codec`, an `IntEnum`).
///
/// ```
/// use b2nd_meta::blosc::Codec;
///
/// assert_eq!(Codec::from_id(2), Codec::Lz4Hc);
/// assert_eq!(Codec::from_format(1, 0), Codec::Lz4);
/// assert_eq!(Codec::from_format(6, 32).to_string(), "ndlz (codec 32)");
/// assert_eq!(Codec::Zstd, 5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Codec {
    /// BloscLZ: id 0, format 0.
    BloscLz,
    /// LZ4: id 1, format 1 (which LZ4HC shares).
    Lz4,
    /// LZ4HC: id 2 (its chunks have format 1, read as [`Codec::Lz4`]).
    Lz4Hc,
    /// zlib: id 4, format 3.
    Zlib,
    /// Zstandard: id 5, format 4.
    Zstd,
    /// A plugin, by its id: registered with C-Blosc2 (32-159) or user-defined (160-255);
    /// a chunk's format 6 carries any id here.
    Plugin(u8),
    /// An id Blosc gives no codec (3, 6-31).
    Unknown(u8),
    /// A chunk format code that names no codec (2, 5, 7: reserved).
    Reserved(u8),
}

/// The chunk format code of a plugin codec (`BLOSC_UDCODEC_FORMAT`).
const PLUGIN_FORMAT: u8 = 6;
/// The first plugin id (`BLOSC2_GLOBAL_REGISTERED_CODECS_START`).
const FIRST_PLUGIN: u8 = 32;

impl Codec {
    /// The codec of id `id` (the frame header's).
    ///
    /// ```
    /// use b2nd_meta::blosc::Codec;
    /// assert_eq!([0, 3, 40].map(Codec::from_id), [Codec::BloscLz, Codec::Unknown(3), Codec::Plugin(40)]);
    /// ```
    pub const fn from_id(id: u8) -> Codec {
        match id {
            0 => Codec::BloscLz,
            1 => Codec::Lz4,
            2 => Codec::Lz4Hc,
            4 => Codec::Zlib,
            5 => Codec::Zstd,
            id if id >= FIRST_PLUGIN => Codec::Plugin(id),
            id => Codec::Unknown(id),
        }
    }

    /// The codec python-blosc2 names `name`, in any case (`"zstd"`, `"LZ4HC"`,
    /// `"zfp_rate"`).
    ///
    /// ```
    /// use b2nd_meta::blosc::Codec;
    /// assert_eq!([Codec::from_name("ZSTD"), Codec::from_name("ndlz"), Codec::from_name("gzip")], [Some(Codec::Zstd), Some(Codec::Plugin(32)), None]);
    /// ```
    pub fn from_name(name: &str) -> Option<Codec> {
        names::codec_id(&name.to_ascii_lowercase()).map(Codec::from_id)
    }

    /// The codec of a chunk's format code; `plugin_id` is the extended header's codec
    /// byte, which format 6 names.
    ///
    /// ```
    /// use b2nd_meta::blosc::Codec;
    /// assert_eq!([0, 3, 4, 7].map(|f| Codec::from_format(f, 0)), [Codec::BloscLz, Codec::Zlib, Codec::Zstd, Codec::Reserved(7)]);
    /// ```
    pub const fn from_format(format: u8, plugin_id: u8) -> Codec {
        match format {
            0 => Codec::BloscLz,
            1 => Codec::Lz4,
            3 => Codec::Zlib,
            4 => Codec::Zstd,
            PLUGIN_FORMAT => Codec::Plugin(plugin_id),
            format => Codec::Reserved(format),
        }
    }

    /// The format code a chunk compressed with it carries (LZ4HC writes LZ4's); `None`
    /// for a codec whose chunks C-Blosc2 writes with format 6 (a plugin) or none.
    ///
    /// ```
    /// use b2nd_meta::blosc::Codec;
    /// assert_eq!([Codec::Lz4Hc, Codec::Zstd, Codec::Plugin(32)].map(Codec::format), [Some(1), Some(4), None]);
    /// ```
    pub const fn format(self) -> Option<u8> {
        Some(match self {
            Codec::BloscLz => 0,
            Codec::Lz4 | Codec::Lz4Hc => 1,
            Codec::Zlib => 3,
            Codec::Zstd => 4,
            Codec::Plugin(_) | Codec::Unknown(_) | Codec::Reserved(_) => return None,
        })
    }

    /// Its id; `None` for a reserved chunk format, which names no codec.
    ///
    /// ```
    /// use b2nd_meta::blosc::Codec;
    /// assert_eq!((Codec::Lz4Hc.id(), Codec::Reserved(5).id()), (Some(2), None));
    /// ```
    pub const fn id(self) -> Option<u8> {
        Some(match self {
            Codec::BloscLz => 0,
            Codec::Lz4 => 1,
            Codec::Lz4Hc => 2,
            Codec::Zlib => 4,
            Codec::Zstd => 5,
            Codec::Plugin(id) | Codec::Unknown(id) => id,
            Codec::Reserved(_) => return None,
        })
    }

    /// Its name as python-blosc2 spells it (`"zstd"`), a registered plugin's name
    /// (`"zfp_rate"`), else `"unknown"`.
    ///
    /// ```
    /// use b2nd_meta::blosc::Codec;
    /// assert_eq!([Codec::Zlib.name(), Codec::Plugin(33).name(), Codec::Plugin(200).name()], ["zlib", "zfp_acc", "unknown"]);
    /// ```
    pub fn name(self) -> &'static str {
        self.known_name().unwrap_or("unknown")
    }

    /// The name Blosc gives it, when it has one (a plugin's only from id 32 on: a chunk's
    /// format 6 with a lower id names no registered plugin).
    fn known_name(self) -> Option<&'static str> {
        match self {
            Codec::Plugin(id) if id < FIRST_PLUGIN => None,
            codec => codec.id().and_then(names::codec_name),
        }
    }
}

impl PartialEq<u8> for Codec {
    fn eq(&self, id: &u8) -> bool {
        self.id() == Some(*id)
    }
}

/// `zstd`, `ndlz (codec 32)`, `user-defined codec 200`, `unknown codec 3`, `reserved
/// codec format 7`.
impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Codec::Plugin(id) => match self.known_name() {
                Some(name) => write!(f, "{name} (codec {id})"),
                None => write!(f, "user-defined codec {id}"),
            },
            Codec::Unknown(id) => write!(f, "unknown codec {id}"),
            Codec::Reserved(format) => write!(f, "reserved codec format {format}"),
            named => f.write_str(named.name()),
        }
    }
}
