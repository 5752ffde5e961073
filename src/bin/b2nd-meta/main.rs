//! `b2nd-meta`: show the metadata of Blosc2 frames, and decode or encode b2nd/caterva
//! metalayers, from the command line.
//!
//! Every failure is one line on stderr (`b2nd-meta: <context>: <message>`) and a
//! non-zero exit status; nothing here panics on any input, and a closed stdout
//! (`b2nd-meta show ... | head -1`) ends the program quietly.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use b2nd_meta::frame;
use b2nd_meta::report::{MetalayerReport, Options, RawContent, Report};
use b2nd_meta::Meta;
use clap::{Parser, Subcommand};

mod export;
mod help;
mod human;
mod messages;
mod set_meta;
mod set_shape;
mod set_vlmeta;
mod show_store;
mod stdin;

use help::*;

/// Read and write the metalayers in which Blosc2 stores n-dimensional array metadata.
#[derive(Parser)]
#[command(
    name = "b2nd-meta",
    version,
    about = "Read and write the metalayers in which Blosc2 stores n-dimensional array metadata",
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the header facts and metalayers of Blosc2 frames, one JSON document per path
    #[command(long_about = SHOW_LONG, after_help = SHOW_EXAMPLES)]
    Show {
        /// Print a compact summary for a terminal instead of JSON
        #[arg(long, short = 'H')]
        human: bool,
        /// In JSON, print every byte of each raw metalayer content as hex (streamed
        /// from the file), instead of the first 4096 bytes and "raw_len"
        #[arg(long, conflicts_with = "human")]
        full_hex: bool,
        /// Show only the node KEY of the store or bundle PATH (its key as python-blosc2
        /// lists it, e.g. /dir/name; hidden nodes too); repeat for several
        #[arg(long, short = 'k', value_name = "KEY")]
        key: Vec<String>,
        /// A contiguous frame file or a sparse frame's directory, or - for stdin; a
        /// store or bundle (.b2e, .b2d, .b2z)
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
    /// Change an array's shape in place, within its chunk grid
    #[command(long_about = SET_SHAPE_LONG, after_help = SET_SHAPE_EXAMPLES)]
    SetShape {
        /// Print the metalayer now and as it would become, as JSON, without writing
        #[arg(long)]
        dry_run: bool,
        /// A contiguous frame file or a sparse frame's directory
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The new shape: DIM[,DIM...] (an empty string for ndim 0)
        #[arg(value_name = "SHAPE", allow_hyphen_values = true, value_parser = set_shape::parse_shape)]
        shape: set_shape::Shape,
    },
    /// Rewrite a user metalayer from JSON, in place, when its length does not change
    #[command(long_about = SET_META_LONG, after_help = SET_META_EXAMPLES)]
    SetMeta {
        /// A contiguous frame file or a sparse frame's directory
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The user metalayer's name
        #[arg(value_name = "NAME")]
        name: String,
        /// The new value as JSON (the mapping show prints), or - for stdin
        #[arg(value_name = "JSON", allow_hyphen_values = true)]
        json: String,
    },
    /// Set a variable-length metalayer (vlmeta) from JSON: python's vlmeta[NAME] = value
    #[command(long_about = set_vlmeta::SET_VLMETA_LONG, after_help = set_vlmeta::SET_VLMETA_EXAMPLES)]
    SetVlmeta {
        /// Print what would change, as JSON, without writing
        #[arg(long)]
        dry_run: bool,
        /// A contiguous frame file or a sparse frame's directory
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The vlmetalayer's name (at most 31 bytes)
        #[arg(value_name = "NAME")]
        name: String,
        /// The value as JSON (the mapping show prints), or - for stdin
        #[arg(value_name = "JSON", allow_hyphen_values = true)]
        json: String,
    },
    /// Delete a variable-length metalayer (vlmeta): python's del vlmeta[NAME]
    #[command(long_about = set_vlmeta::DEL_VLMETA_LONG, after_help = set_vlmeta::DEL_VLMETA_EXAMPLES)]
    DelVlmeta {
        /// Print what would change, as JSON, without writing
        #[arg(long)]
        dry_run: bool,
        /// A contiguous frame file or a sparse frame's directory
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The vlmetalayer's name
        #[arg(value_name = "NAME")]
        name: String,
    },
    /// Write an array's values (a slice of them) as a NumPy .npy file
    #[command(long_about = export::EXPORT_LONG, after_help = export::EXPORT_EXAMPLES)]
    Export {
        /// A contiguous frame file or a sparse frame's directory; with --key, a store
        /// or bundle (.b2e, .b2d, .b2z)
        #[arg(value_name = "PATH")]
        path: PathBuf,
        /// The node of the store or bundle PATH to export (e.g. /dir/name)
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
        /// Threads decoding chunks (default: the machine's parallelism)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },
    /// Encode a metalayer given as JSON (the schema decode prints) to hex
    #[command(long_about = ENCODE_LONG, after_help = ENCODE_EXAMPLES)]
    Encode {
        /// The metalayer as JSON, or - for stdin
        #[arg(value_name = "JSON")]
        json: String,
    },
}

/// Why a command stopped before its end.
enum Fatal {
    /// stdout was closed by its reader: stop quietly.
    BrokenPipe,
    /// A failure to report on stderr: context and message.
    Error(String, String),
}

pub(crate) fn fatal(context: impl Into<String>, message: impl ToString) -> Fatal {
    Fatal::Error(context.into(), message.to_string())
}

/// Writes one line to stderr, as `b2nd-meta: <context>: <message>`, on one line
/// whatever the message holds. Errors writing to stderr are ignored: there is no
/// one left to tell.
fn report(context: &str, message: &str) {
    let line = format!("b2nd-meta: {context}: {message}");
    let line: String = line
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// Writes `text` and a newline to stdout.
fn emit(out: &mut impl Write, text: &str) -> Result<(), Fatal> {
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => Fatal::BrokenPipe,
            _ => fatal("stdout", e),
        })
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version (exit 0) go to stdout, usage errors (exit 2) to stderr.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let mut out = io::stdout().lock();
    let result = match cli.command {
        Command::Show {
            human,
            full_hex,
            key,
            paths,
        } => {
            let options = if full_hex {
                Options::FULL_HEX
            } else {
                Options::SHOW
            };
            if key.is_empty() {
                show(&mut out, &paths, human, options)
            } else {
                show_store::show_keys(&mut out, &paths, &key, human)
            }
        }
        Command::Decode { hex } => decode(&mut out, &hex).map(|()| true),
        Command::Encode { json } => encode(&mut out, &json).map(|()| true),
        Command::Export {
            path,
            key,
            slice,
            output,
            threads,
        } => {
            // export writes its own stdout (binary, buffered).
            drop(out);
            let threads = threads.map(usize::from);
            return finish(export::run(&path, key.as_deref(), &slice, &output, threads));
        }
        Command::SetShape {
            dry_run,
            path,
            shape,
        } => set_shape::run(&mut out, &path, &shape.0, dry_run),
        Command::SetMeta { path, name, json } => set_meta::run(&path, &name, &json),
        Command::SetVlmeta {
            dry_run,
            path,
            name,
            json,
        } => set_vlmeta::set(&mut out, &path, &name, &json, dry_run),
        Command::DelVlmeta {
            dry_run,
            path,
            name,
        } => set_vlmeta::del(&mut out, &path, &name, dry_run),
    };
    finish(result)
}

/// The exit status of a command's result, its error reported on stderr.
fn finish(result: Result<bool, Fatal>) -> ExitCode {
    match result {
        Ok(true) | Err(Fatal::BrokenPipe) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Fatal::Error(context, message)) => {
            report(&context, &message);
            ExitCode::FAILURE
        }
    }
}

// ---------------------------------------------------------------------------
// decode and encode
// ---------------------------------------------------------------------------

/// The argument, or stdin when it is `-`.
fn argument_or_stdin(arg: &str, context: &str) -> Result<String, Fatal> {
    if arg != "-" {
        return Ok(arg.to_owned());
    }
    let mut text = String::new();
    io::stdin()
        .lock()
        .read_to_string(&mut text)
        .map_err(|e| fatal(context, format!("cannot read stdin: {e}")))?;
    Ok(text)
}

/// Bytes from hex: whitespace anywhere, an optional `0x` prefix; an error's offset
/// counts in `text`.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let skipped = text.len() - text.trim_start().len();
    let mut text = text.to_owned();
    if matches!(text.get(skipped..skipped + 2), Some("0x" | "0X")) {
        // Blanked, so that offsets still count in the text as given.
        text.replace_range(skipped..skipped + 2, "  ");
    }
    b2nd_meta::hex::decode_spaced(&text).map_err(|e| e.to_string())
}

fn decode(out: &mut impl Write, args: &[String]) -> Result<(), Fatal> {
    let text = match args {
        [one] => argument_or_stdin(one, "decode")?,
        many => many.join(" "),
    };
    let bytes = parse_hex(&text).map_err(|e| fatal("decode", e))?;
    let meta: Meta = b2nd_meta::from_slice(&bytes).map_err(|e| fatal("decode", e))?;
    let json = serde_json::to_string(&meta).map_err(|e| fatal("decode", e))?;
    emit(out, &json)
}

fn encode(out: &mut impl Write, arg: &str) -> Result<(), Fatal> {
    let text = argument_or_stdin(arg, "encode")?;
    let meta: Meta = serde_json::from_str(&text).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => "invalid metalayer",
            _ => "invalid JSON",
        };
        fatal("encode", format!("{what}: {e}"))
    })?;
    let bytes = b2nd_meta::to_vec(&meta).map_err(|e| fatal("encode", e))?;
    emit(out, &b2nd_meta::hex::encode(&bytes))
}

// ---------------------------------------------------------------------------
// show
// ---------------------------------------------------------------------------

/// Shows every path; `Ok(false)` when any of them failed (reported on stderr).
fn show(
    out: &mut impl Write,
    paths: &[PathBuf],
    human: bool,
    options: Options,
) -> Result<bool, Fatal> {
    let mut all_ok = true;
    let mut last_store = None;
    for path in paths {
        all_ok &= if path.as_os_str() == "-" {
            stdin::show(out, human, options)?
        } else if let Some(c) = show_store::open(path) {
            last_store = Some(path);
            show_store::show(out, path, &c, None, human)?
        } else {
            let shown = show_one(out, path, human, options)?;
            if let Some(store) = last_store.filter(|_| !shown) {
                show_store::hint_key(store, path);
            }
            shown
        };
    }
    Ok(all_ok)
}

fn show_one(
    out: &mut impl Write,
    path: &Path,
    human: bool,
    options: Options,
) -> Result<bool, Fatal> {
    show_as(out, path, path, human, options)
}

/// Shows the frame at `path`, naming it `shown` (`-` for stdin) in the output.
pub(crate) fn show_as(
    out: &mut impl Write,
    path: &Path,
    shown: &Path,
    human: bool,
    options: Options,
) -> Result<bool, Fatal> {
    let context = shown.to_string_lossy().into_owned();
    let file = match frame::open(path) {
        Ok(file) => file,
        Err(e) => {
            let access = messages::Access::Read;
            report(&context, &messages::frame_error(path, &e, access));
            return Ok(false);
        }
    };
    let facts = Report::of_frame_with(shown, &file, options);
    if human {
        emit(out, &human::render(&facts))?;
    } else {
        emit_json(out, &facts)?;
    }

    let mut ok = true;
    for (name, layer) in &facts.metalayers.0 {
        // A user metalayer need not be msgpack: its "error" is information, not a failure.
        if let MetalayerReport::Raw(RawContent {
            error: Some(e),
            array: true,
            ..
        }) = layer
        {
            report(
                &context,
                &format!("metalayer {name:?} does not decode: {e}"),
            );
            ok = false;
        }
    }
    if file.is_truncated() {
        let (frame_len, access) = (file.header.info.frame_len, messages::Access::Read);
        let line = messages::truncated(path, &file.header_path, frame_len, file.file_len, access);
        report(&context, &line);
        ok = false;
    }
    Ok(ok)
}

/// Writes `value` as one line of JSON, streamed (a large metalayer's hex is never
/// held in memory as a whole).
fn emit_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Fatal> {
    let pipe = |e: io::Error| match e.kind() {
        io::ErrorKind::BrokenPipe => Fatal::BrokenPipe,
        _ => fatal("stdout", e),
    };
    {
        let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut *out);
        serde_json::to_writer(&mut buffered, value).map_err(|e| match e.io_error_kind() {
            Some(io::ErrorKind::BrokenPipe) => Fatal::BrokenPipe,
            _ => fatal("stdout", e),
        })?;
        buffered.write_all(b"\n").map_err(pipe)?;
        buffered.flush().map_err(pipe)?;
    }
    out.flush().map_err(pipe)
}
