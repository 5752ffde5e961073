//! `b2nd-meta`: show the metadata of Blosc2 frames, and decode or encode b2nd/caterva
//! metalayers, from the command line.
//!
//! Every failure is one line on stderr (`b2nd-meta: <context>: <message>`) and a
//! non-zero exit status; nothing here panics on any input, and a closed stdout
//! (`b2nd-meta show ... | head -1`) ends the program quietly.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use b2nd_meta::frame::{self, FrameError};
use b2nd_meta::report::{MetalayerReport, RawContent, Report};
use b2nd_meta::Meta;
use clap::{Parser, Subcommand};

mod human;

const EXAMPLES: &str = "\
Examples:
  # Header facts, metalayers, dtype and validation of a frame, as one JSON line
  b2nd-meta show tests/data/corpus/ndim2_i4.b2nd

  # The same for several frames (a sparse frame is a directory), for a terminal
  b2nd-meta show --human tests/data/corpus/ndim2_i4.b2nd tests/data/corpus/sparse_2d.b2nd

  # The content of a b2nd metalayer (hex) as JSON
  b2nd-meta decode 97000090909000db000000033c6934

  # JSON (as decode prints it) back to the metalayer's bytes, as hex
  b2nd-meta encode '{\"layout\":\"b2nd-v1\",\"version\":0,\"ndim\":0,\"shape\":[],\"chunkshape\":[],\"blockshape\":[],\"dtype_format\":0,\"dtype\":\"<i4\"}'

Exit status: 0 on success, 1 when an input cannot be read or decoded (or a frame is
truncated), 2 on a usage error. Validation problems are reported, not failures.";

const SHOW_LONG: &str = "\
Print what the header of each Blosc2 frame holds, one JSON document per line:

  {\"path\": ..., \"frame\": {...}, \"metalayers\": {...}, \"array\": {...}}

\"frame\" has the header's facts (kind, header_len, frame_len, file_len, truncated,
typesize, blocksize, chunksize, nbytes, cbytes, codec, codec_code, clevel,
metalayer_names). \"metalayers\" has one entry per metalayer, in header order: the
b2nd and caterva metalayers decoded (the schema `decode` prints), any other as
{\"raw_hex\": ...}; one that fails to decode as {\"raw_hex\": ..., \"error\": ...}.
\"array\" (when the b2nd, else caterva, metalayer decodes) has the parsed dtype with its
itemsize, C-Blosc2's validation problems, and python-blosc2's stricter
blocks-within-chunks rule.

A PATH is a contiguous frame (.b2nd, .b2frame) or a sparse frame's directory (its
chunks.b2frame is read). Only the header is read. A file shorter than the frame its
header declares is reported as truncated, after printing what could be read.";

const SHOW_EXAMPLES: &str = "\
Examples:
  b2nd-meta show tests/data/corpus/ndim2_i4.b2nd
  b2nd-meta show --human tests/data/corpus/*.b2nd";

const DECODE_LONG: &str = "\
Decode the content of a b2nd (C-Blosc2, draft) or caterva metalayer, given as hex, and
print it as one line of JSON: {\"layout\", \"version\", \"ndim\", \"shape\", \"chunkshape\",
\"blockshape\"} and, where the layout has them, \"dtype_format\" and \"dtype\". The hex may
contain whitespace and one leading 0x; several arguments are joined; - alone reads stdin.
Decoding is strict: anything C-Blosc2 would not have written is an error naming its
byte offset.";

const DECODE_EXAMPLES: &str = "\
Examples:
  b2nd-meta decode 97000090909000db000000033c6934
  b2nd-meta decode '95 00 01 91 d3 00 00 00 00 00 00 00 0a 91 d2 00 00 00 05 91 d2 00 00 00 05'";

const ENCODE_LONG: &str = "\
Encode a metalayer given as JSON (the schema `decode` prints) and print its bytes as
lowercase hex. \"layout\" is \"b2nd-v1\" (what C-Blosc2 writes), \"b2nd\" (the draft) or
\"caterva-v0\"; \"ndim\" may be left out. Refused: more than 16 dimensions, shapes of
different lengths, a dtype_format above 127, a version other than 0, values out of
range. - reads the JSON from stdin.";

const ENCODE_EXAMPLES: &str = "\
Examples:
  b2nd-meta encode '{\"layout\":\"b2nd-v1\",\"shape\":[3,4],\"chunkshape\":[2,4],\"blockshape\":[1,2],\"dtype_format\":0,\"dtype\":\"<i4\"}'
  b2nd-meta decode 950000909090 | b2nd-meta encode -";

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
        /// A contiguous frame file or a sparse frame's directory
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

fn fatal(context: impl Into<String>, message: impl ToString) -> Fatal {
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
        Command::Show { human, paths } => show(&mut out, &paths, human),
        Command::Decode { hex } => decode(&mut out, &hex).map(|()| true),
        Command::Encode { json } => encode(&mut out, &json).map(|()| true),
    };
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

/// Bytes from hex: whitespace anywhere, an optional `0x` prefix.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let trimmed = text.trim_start();
    let skipped = text.len() - trimmed.len();
    let (body, start) = match trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
    {
        Some(rest) => (rest, skipped + 2),
        None => (trimmed, skipped),
    };
    let mut bytes = Vec::with_capacity(body.len() / 2);
    let mut high: Option<u8> = None;
    let mut digits = 0usize;
    for (i, c) in body.char_indices() {
        if c.is_whitespace() {
            continue;
        }
        let Some(v) = c.to_digit(16) else {
            return Err(format!(
                "invalid hex digit {c:?} at position {}; expected 0-9 or a-f",
                start + i
            ));
        };
        digits += 1;
        // A hex digit is < 16, so it fits a u8.
        let v = v as u8;
        match high.take() {
            None => high = Some(v),
            Some(h) => bytes.push(h << 4 | v),
        }
    }
    if high.is_some() {
        return Err(format!(
            "odd number of hex digits ({digits}); each byte needs two"
        ));
    }
    Ok(bytes)
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
    emit(out, &to_hex(&bytes))
}

fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

// ---------------------------------------------------------------------------
// show
// ---------------------------------------------------------------------------

/// Shows every path; `Ok(false)` when any of them failed (reported on stderr).
fn show(out: &mut impl Write, paths: &[PathBuf], human: bool) -> Result<bool, Fatal> {
    let mut all_ok = true;
    for path in paths {
        all_ok &= show_one(out, path, human)?;
    }
    Ok(all_ok)
}

fn show_one(out: &mut impl Write, path: &Path, human: bool) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let file = match frame::open(path) {
        Ok(file) => file,
        Err(e) => {
            report(&context, &open_error(path, &e));
            return Ok(false);
        }
    };
    let facts = Report::of_frame(path, &file);
    if human {
        emit(out, &human::render(&facts))?;
    } else {
        emit_json(out, &facts)?;
    }

    let mut ok = true;
    for (name, layer) in &facts.metalayers.0 {
        if let MetalayerReport::Raw(RawContent { error: Some(e), .. }) = layer {
            report(
                &context,
                &format!("metalayer {name:?} does not decode: {e}"),
            );
            ok = false;
        }
    }
    if file.is_truncated() {
        let holder = if file.header_path == path {
            "the file".to_owned()
        } else {
            file.header_path.to_string_lossy().into_owned()
        };
        report(
            &context,
            &format!(
                "truncated: the header declares {} bytes, {holder} has {} ({} missing)",
                file.header.info.frame_len,
                file.file_len,
                file.missing_bytes()
            ),
        );
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

/// The message for a frame that cannot be opened, without repeating the path.
fn open_error(path: &Path, e: &FrameError) -> String {
    match e {
        FrameError::Io {
            path: Some(p),
            source,
        } if p == path => format!("cannot read: {source}"),
        FrameError::Io {
            path: Some(p),
            source,
        } => format!("cannot read {}: {source}", p.display()),
        other => format!("not a readable Blosc2 frame: {other}"),
    }
}
