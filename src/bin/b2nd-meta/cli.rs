//! The command line's arguments (clap), and the parsing of those that are not text.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::commands::{export, import};
use crate::help::*;

/// Blosc2 files: show what they hold, export and import values, change arrays and metadata in place.
#[derive(Parser)]
#[command(
    name = "b2nd-meta",
    version,
    about = "Blosc2 files: show what they hold, export and import values, change arrays and metadata in place",
    disable_help_subcommand = true,
    // clap's own, without the blank line after the about: -h keeps to 24 lines.
    help_template = "{before-help}{about-with-newline}{usage-heading} {usage}\n\n{all-args}{after-help}",
    after_help = EXAMPLES_SHORT,
    after_long_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Give up (exit 1) after SECONDS waiting for another process's lock
    ///
    /// The lock of a frame (its .b2lock, C-Blosc2's lock protocol). Without it, wait as
    /// long as it takes, saying so on stderr after a second.
    // In --help only, so that -h keeps to a 24-line screen.
    #[arg(
        long,
        global = true,
        value_name = "SECONDS",
        value_parser = parse_seconds,
        hide_short_help = true
    )]
    pub lock_timeout: Option<Duration>,
}

/// The frame a writing command works on.
#[derive(Args)]
pub struct FramePath {
    /// A contiguous frame file or a sparse frame's directory
    #[arg(value_name = "PATH")]
    pub path: PathBuf,
}

/// How a new array is chunked and compressed (`import`, and `store put` of a .npy).
#[derive(Args)]
pub struct Encoding {
    /// Chunk shape, e.g. 100,1000 (default: python-blosc2's choice)
    #[arg(long, value_name = "C", value_parser = parse_shape)]
    pub chunks: Option<Shape>,
    /// Block shape, e.g. 10,1000 (default: python-blosc2's choice)
    #[arg(long, value_name = "B", value_parser = parse_shape)]
    pub blocks: Option<Shape>,
    /// blosclz, lz4, lz4hc, zlib or zstd (default zstd)
    #[arg(long, value_name = "NAME")]
    pub codec: Option<String>,
    /// Compression level, 0 to 9 (default 5)
    #[arg(long, value_name = "N")]
    pub clevel: Option<u32>,
    /// A filter for the next slot: nofilter, shuffle, bitshuffle, delta, trunc_prec or
    /// bytedelta, with :META for its meta byte (default: shuffle in the last slot)
    #[arg(long = "filter", value_name = "NAME[:META]")]
    pub filters: Vec<String>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Show what Blosc2 files hold: frames, stores, bundles, directories of them
    #[command(long_about = SHOW_LONG, after_help = SHOW_EXAMPLES)]
    Show {
        /// A summary for a person (the default on a terminal)
        #[arg(long, short = 'H')]
        human: bool,
        /// One JSON document per line (the default when piped)
        #[arg(long, short = 'j', conflicts_with = "human")]
        json: bool,
        /// Look in subdirectories too
        #[arg(long, short = 'r')]
        recursive: bool,
        /// In JSON, every byte of each raw metalayer as hex, not the first 4096
        ///
        /// Each raw metalayer content is streamed from the file as it is printed, and
        /// "raw_len" never appears. Implies --json.
        #[arg(long, conflicts_with = "human")]
        full_hex: bool,
        /// Only the node KEY of the store or bundle PATH (e.g. /dir/name)
        ///
        /// Its key as python-blosc2 lists it, hidden nodes too (/g1/__vlmeta__);
        /// repeat for several nodes, printed in the order given. A key without its
        /// leading / (temps) names the node that has one (/temps) when only that exists.
        #[arg(long, short = 'k', value_name = "KEY")]
        key: Vec<String>,
        /// Print the values of arr[SPEC] instead (e.g. '0', '2:8, ::3', '..., -1')
        ///
        /// SPEC as inside python's brackets, as export takes it. JSON: one line of
        /// nested lists as python's json.dumps(arr[SPEC].tolist()) writes them, except:
        /// float32 in its own shortest digits, complex numbers as [re, im], datetimes
        /// and timedeltas as their count of units (NaT null), bytes as latin-1 text,
        /// voids and records as hex strings. --human: laid out as numpy prints an
        /// array (ints, bools and floats as numpy does; rows never wrapped nor
        /// summarized). A terminal is shown at most 10000 values.
        #[arg(
            long,
            short = 's',
            value_name = "SPEC",
            allow_hyphen_values = true,
            conflicts_with_all = ["recursive", "full_hex"]
        )]
        slice: Option<String>,
        /// Decode at most BYTES in all (vlmeta values, store chunks), e.g. 512M
        ///
        /// Past it, a value is shown raw with why, a node as an error [default: 128M].
        #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
        budget: Option<u64>,
        /// Frames, stores, bundles, directories holding them; - for stdin
        ///
        /// A contiguous frame file (.b2nd, .b2frame), a sparse frame's directory, a
        /// store or bundle (.b2e, .b2d, .b2z), a directory holding any of them, or - for
        /// a frame on stdin.
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
    },
    /// Decode a metalayer's content, given as hex, to JSON
    #[command(long_about = DECODE_LONG, after_help = DECODE_EXAMPLES)]
    Decode {
        /// The content as hex (whitespace and a 0x prefix allowed), or - for stdin
        #[arg(value_name = "HEX", required = true)]
        hex: Vec<String>,
    },
    /// Write values into an array in place: arr[SPEC] = the .npy's values
    #[command(long_about = WRITE_LONG, after_help = WRITE_EXAMPLES)]
    Write {
        #[command(flatten)]
        frame: FramePath,
        /// A node of a store (.b2d) holding the array, e.g. /dir/a
        #[arg(long, value_name = "KEY")]
        key: Option<String>,
        /// Where to write: what goes inside python's brackets (default: ..., all)
        #[arg(
            long,
            value_name = "SPEC",
            default_value = "...",
            allow_hyphen_values = true
        )]
        slice: String,
        /// The values: a .npy file of the array's dtype, broadcast to the selection (- for stdin)
        #[arg(value_name = "IN.npy")]
        input: PathBuf,
    },
    /// Resize an array in place, past its chunk grid: new cells read as zeros
    #[command(long_about = RESIZE_LONG, after_help = RESIZE_EXAMPLES)]
    Resize {
        #[command(flatten)]
        frame: FramePath,
        /// A node of a store (.b2d) holding the array
        #[arg(long, value_name = "KEY")]
        key: Option<String>,
        /// The new shape: DIM[,DIM...]
        #[arg(value_name = "SHAPE", value_parser = parse_shape)]
        shape: Shape,
    },
    /// Grow an array in place along an axis by the .npy's values
    #[command(long_about = APPEND_LONG, after_help = APPEND_EXAMPLES)]
    Append {
        #[command(flatten)]
        frame: FramePath,
        /// A node of a store (.b2d) holding the array
        #[arg(long, value_name = "KEY")]
        key: Option<String>,
        /// The axis to grow (default 0)
        #[arg(long, value_name = "N", default_value_t = 0)]
        axis: usize,
        /// The values: a .npy of the array's dtype whose other axes are the array's (- for stdin)
        #[arg(value_name = "IN.npy")]
        input: PathBuf,
    },
    /// Change an array's shape in place, within its chunk grid
    #[command(long_about = SET_SHAPE_LONG, after_help = SET_SHAPE_EXAMPLES)]
    SetShape {
        /// Print the metalayer now and as it would become, as JSON, without writing
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        frame: FramePath,
        /// The new shape: DIM[,DIM...] (an empty string for ndim 0)
        #[arg(value_name = "SHAPE", allow_hyphen_values = true, value_parser = parse_shape)]
        shape: Shape,
    },
    /// Rewrite a user metalayer in place from JSON, same length only
    #[command(long_about = SET_META_LONG, after_help = SET_META_EXAMPLES)]
    SetMeta {
        #[command(flatten)]
        frame: FramePath,
        /// The user metalayer's name
        #[arg(value_name = "NAME")]
        name: String,
        /// The new value as JSON (the mapping show prints), or - for stdin
        #[arg(value_name = "JSON", allow_hyphen_values = true)]
        json: String,
    },
    /// Set a vlmeta value from JSON: python's vlmeta[NAME] = value
    #[command(long_about = SET_VLMETA_LONG, after_help = SET_VLMETA_EXAMPLES)]
    SetVlmeta {
        /// Print what would change, as JSON, without writing
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        frame: FramePath,
        /// The node of the store PATH (.b2z, .b2d, .b2e) to change; / for the store's own
        /// vlmeta (a TreeStore's, an EmbedStore's)
        #[arg(long, value_name = "KEY", conflicts_with = "dry_run")]
        key: Option<String>,
        /// The vlmetalayer's name (at most 31 bytes)
        #[arg(value_name = "NAME")]
        name: String,
        /// The value as JSON (the mapping show prints), or - for stdin
        #[arg(value_name = "JSON", allow_hyphen_values = true)]
        json: String,
    },
    /// Delete a vlmeta value: python's del vlmeta[NAME]
    #[command(long_about = DEL_VLMETA_LONG, after_help = DEL_VLMETA_EXAMPLES)]
    DelVlmeta {
        /// Print what would change, as JSON, without writing
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        frame: FramePath,
        /// The node of the store PATH (.b2z, .b2d, .b2e) to change; / for the store's own
        /// vlmeta (a TreeStore's, an EmbedStore's)
        #[arg(long, value_name = "KEY", conflicts_with = "dry_run")]
        key: Option<String>,
        /// The vlmetalayer's name
        #[arg(value_name = "NAME")]
        name: String,
    },
    /// Write an array's values (a slice of them) as a NumPy .npy file
    #[command(long_about = export::EXPORT_LONG, after_help = export::EXPORT_EXAMPLES)]
    Export {
        /// A frame file or a sparse frame's directory; with --key, a store or bundle
        ///
        /// A contiguous frame file (.b2nd, .b2frame) or a sparse frame's directory; with
        /// --key, a store or bundle (.b2e, .b2d, .b2z).
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The node of the store or bundle PATH to export (e.g. /dir/name)
        ///
        /// Its key as python-blosc2 lists it; a key without its leading / (temps) names
        /// the node that has one (/temps) when only that exists.
        #[arg(long, short = 'k', value_name = "KEY")]
        key: Option<String>,
        /// The slice, as inside python's brackets (e.g. '2:8, ::3' or '..., 0')
        #[arg(
            long,
            short = 's',
            value_name = "SPEC",
            default_value = "...",
            allow_hyphen_values = true
        )]
        slice: String,
        /// The .npy file to write, or - for stdout
        #[arg(long, short = 'o', value_name = "OUT", allow_hyphen_values = true)]
        output: PathBuf,
        /// Replace OUT if it is a file that exists
        #[arg(long)]
        force: bool,
        /// Threads decoding chunks (default: the machine's parallelism)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Write a NumPy .npy file's array as a new Blosc2 array python-blosc2 opens
    #[command(
        long_about = import::IMPORT_LONG,
        after_help = import::IMPORT_EXAMPLES_SHORT,
        after_long_help = import::IMPORT_EXAMPLES
    )]
    Import {
        /// The .npy file, or - for stdin
        #[arg(value_name = "IN", allow_hyphen_values = true)]
        input: PathBuf,
        /// The new array: a .b2nd file, or with --sparse a directory
        #[arg(value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        encoding: Encoding,
        /// A user metalayer, NAME=JSON
        #[arg(long, value_name = "NAME=JSON")]
        meta: Vec<String>,
        /// A vlmeta entry, NAME=JSON
        #[arg(long, value_name = "NAME=JSON")]
        vlmeta: Vec<String>,
        /// Write a sparse frame (a directory) instead of a contiguous file
        #[arg(long)]
        sparse: bool,
        /// Replace OUT if it is a frame that exists (a file by a contiguous frame, a
        /// sparse frame by a sparse frame)
        #[arg(long)]
        force: bool,
        /// Threads compressing chunks (default: the machine's parallelism)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Make and change DictStores, TreeStores and EmbedStores as python-blosc2 does
    #[command(
        long_about = crate::commands::store::STORE_LONG,
        after_help = crate::commands::store::STORE_EXAMPLES
    )]
    Store {
        #[command(subcommand)]
        action: StoreAction,
    },
    /// Encode a metalayer given as JSON (the schema decode prints) to hex
    #[command(long_about = ENCODE_LONG, after_help = ENCODE_EXAMPLES)]
    Encode {
        /// The metalayer as JSON, or - for stdin
        #[arg(value_name = "JSON")]
        json: String,
    },
    /// Print the shell completions of b2nd-meta for SHELL
    #[command(long_about = COMPLETIONS_LONG, after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell
        #[arg(value_name = "SHELL", value_enum)]
        shell: clap_complete::Shell,
    },
}

/// `BYTES`: a whole number of bytes, or of KiB, MiB or GiB with a `K`, `M` or `G`
/// after it (`64M` is 64 MiB).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 10),
        Some((i, 'M' | 'm')) => (&t[..i], 20),
        Some((i, 'G' | 'g')) => (&t[..i], 30),
        _ => (t, 0),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| {
            format!("expected a number of bytes, with K, M or G after it or not (e.g. 512M), found {text:?}")
        })
}

/// `SECONDS`: a number of seconds, fractions allowed (`0.5`).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("expected a number of seconds (e.g. 2.5), found {text:?}"))
}

/// A new shape, as given on the command line.
#[derive(Clone, Debug)]
pub struct Shape(pub Vec<i64>);

/// `DIM[,DIM...]`: integers separated by commas, spaces allowed around them; an empty
/// (or blank) string is the shape of ndim 0.
pub fn parse_shape(text: &str) -> Result<Shape, String> {
    if text.trim().is_empty() {
        return Ok(Shape(Vec::new()));
    }
    text.split(',')
        .enumerate()
        .map(|(i, dim)| {
            dim.trim().parse::<i64>().map_err(|e| {
                format!(
                    "axis {i} ({:?}) is not an integer: {e}; expected DIM[,DIM...], e.g. 12,8",
                    dim.trim()
                )
            })
        })
        .collect::<Result<Vec<i64>, String>>()
        .map(Shape)
}

/// What `store` does.
#[derive(Subcommand)]
pub enum StoreAction {
    /// Put IN under KEY, making STORE when it is missing, replacing what KEY held
    Put {
        /// The store: a .b2z zip, a .b2d directory or a .b2e EmbedStore
        #[arg(value_name = "STORE")]
        store: PathBuf,
        /// The key, e.g. /dir/name
        #[arg(value_name = "KEY")]
        key: String,
        /// A .b2nd, .b2f or .b2b frame (copied as it is), a .npy file, or - for stdin
        #[arg(value_name = "IN", allow_hyphen_values = true)]
        input: PathBuf,
        /// Make a TreeStore (when STORE is missing)
        #[arg(long)]
        tree: bool,
        /// Put IN inside embed.b2e when its array holds fewer bytes (python's
        /// threshold; default 0: never)
        #[arg(long, value_name = "BYTES")]
        threshold: Option<u64>,
        // How an imported .npy is compressed: import's options.
        #[command(flatten)]
        encoding: Encoding,
        /// Threads compressing chunks (default: the machine's parallelism)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Remove KEY from STORE
    Rm {
        /// The store: a .b2z zip, a .b2d directory or a .b2e EmbedStore
        #[arg(value_name = "STORE")]
        store: PathBuf,
        /// The key to remove
        #[arg(value_name = "KEY")]
        key: String,
    },
}
