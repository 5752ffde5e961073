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

use b2nd_meta::dtype::Dtype;
use b2nd_meta::frame::{self, FrameError, FrameFile, FrameKind, Metalayer};
use b2nd_meta::Meta;
use clap::{Parser, Subcommand};

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
    let analysis = Analysis::of(&file);
    let text = if human {
        human_view(&context, &file, &analysis)
    } else {
        json_view(&context, &file, &analysis)?
    };
    emit(out, &text)?;

    let mut ok = true;
    for layer in &analysis.layers {
        if let Some(Err(e)) = &layer.decoded {
            report(
                &context,
                &format!("metalayer {:?} does not decode: {e}", layer.raw.name),
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

/// A metalayer, decoded when it describes the array.
struct Layer<'a> {
    raw: &'a Metalayer,
    /// `None` for metalayers other than `b2nd` and `caterva`; with the number of bytes
    /// after the metalayer in the content (C-Blosc2 ignores them, and so do we).
    decoded: Option<Result<(Meta, usize), b2nd_meta::Error>>,
}

/// What the array's dtype is.
enum DtypeView {
    /// Parsed from the metalayer.
    Parsed(Dtype),
    /// Assumed from the typesize (caterva has no dtype).
    Assumed(Dtype),
    /// The string does not parse, or has a format other than NumPy's.
    Unparsed { raw: String, error: String },
}

/// The array the frame holds, when its metalayer decodes.
struct ArrayView {
    metalayer: String,
    dtype: DtypeView,
    problems: Vec<String>,
    blocks_within_chunks: Vec<String>,
    trailing_bytes: usize,
}

struct Analysis<'a> {
    layers: Vec<Layer<'a>>,
    array: Option<ArrayView>,
}

impl<'a> Analysis<'a> {
    fn of(file: &'a FrameFile) -> Self {
        let layers: Vec<Layer<'a>> = file
            .header
            .metalayers
            .iter()
            .map(|raw| Layer {
                raw,
                decoded: frame::ARRAY_METALAYERS
                    .contains(&raw.name.as_str())
                    .then(|| {
                        b2nd_meta::take_from_slice::<Meta>(&raw.content)
                            .map(|(meta, rest)| (meta, rest.len()))
                    }),
            })
            .collect();
        let array = file.header.array_metalayer().and_then(|chosen| {
            let meta = layers
                .iter()
                .find(|l| l.raw.name == chosen.name)?
                .decoded
                .as_ref()?
                .as_ref()
                .ok()?;
            Some(array_view(
                &chosen.name,
                &meta.0,
                meta.1,
                file.header.info.typesize,
            ))
        });
        Analysis { layers, array }
    }
}

fn array_view(name: &str, meta: &Meta, trailing_bytes: usize, typesize: u32) -> ArrayView {
    let dtype = match (meta, meta.parsed_dtype()) {
        (Meta::V0Caterva(_), _) => DtypeView::Assumed(Dtype::for_typesize(typesize)),
        (_, Some(Ok(dtype))) => DtypeView::Parsed(dtype),
        (_, Some(Err(e))) => DtypeView::Unparsed {
            raw: meta.dtype().unwrap_or_default().to_owned(),
            error: e.to_string(),
        },
        (_, None) => DtypeView::Unparsed {
            raw: meta.dtype().unwrap_or_default().to_owned(),
            error: format!(
                "dtype_format {} is not NumPy's (0); the dtype is not interpreted",
                meta.dtype_format().unwrap_or_default()
            ),
        },
    };
    let strings = |r: Result<(), b2nd_meta::validate::Invalid>| -> Vec<String> {
        r.err()
            .map(|invalid| invalid.problems().iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    };
    ArrayView {
        metalayer: name.to_owned(),
        problems: strings(meta.validate_with_typesize(u64::from(typesize))),
        blocks_within_chunks: strings(meta.check_blocks_within_chunks()),
        trailing_bytes,
        dtype,
    }
}

// ---------------------------------------------------------------------------
// JSON output. serde_json (without `preserve_order`) sorts object keys, so objects
// are assembled here in a fixed order, every value escaped by serde_json.
// ---------------------------------------------------------------------------

/// A JSON object written in insertion order.
struct JsonObject {
    buf: String,
    empty: bool,
}

impl JsonObject {
    fn new() -> Self {
        JsonObject {
            buf: String::from("{"),
            empty: true,
        }
    }

    /// Adds `key` with `value`, which is already JSON.
    fn raw(&mut self, key: &str, value: &str) -> &mut Self {
        if !self.empty {
            self.buf.push(',');
        }
        self.empty = false;
        self.buf.push_str(&json_str(key));
        self.buf.push(':');
        self.buf.push_str(value);
        self
    }

    fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.raw(key, &json_str(value))
    }

    fn num(&mut self, key: &str, value: impl Into<u64>) -> &mut Self {
        self.raw(key, &value.into().to_string())
    }

    fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.raw(key, if value { "true" } else { "false" })
    }

    fn strs<'s>(&mut self, key: &str, values: impl IntoIterator<Item = &'s str>) -> &mut Self {
        let items: Vec<String> = values.into_iter().map(json_str).collect();
        self.raw(key, &format!("[{}]", items.join(",")))
    }

    fn finish(&mut self) -> String {
        let mut s = std::mem::take(&mut self.buf);
        s.push('}');
        s
    }
}

fn json_str(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

fn json_view(context: &str, file: &FrameFile, analysis: &Analysis<'_>) -> Result<String, Fatal> {
    let info = &file.header.info;
    let frame_json = JsonObject::new()
        .str("kind", &info.kind.to_string())
        .num("header_len", info.header_len)
        .num("frame_len", info.frame_len)
        .num("file_len", file.file_len)
        .bool("truncated", file.is_truncated())
        .num("typesize", info.typesize)
        .num("blocksize", info.blocksize)
        .num("chunksize", info.chunksize)
        .num("nbytes", info.nbytes)
        .num("cbytes", info.cbytes)
        .str("codec", info.codec.name())
        .num("codec_code", info.codec.code)
        .num("clevel", info.clevel)
        .strs("metalayer_names", file.header.names())
        .finish();

    let mut layers = JsonObject::new();
    for layer in &analysis.layers {
        let value = match &layer.decoded {
            Some(Ok((meta, _))) => meta_json(meta).map_err(|e| fatal(context, e))?,
            Some(Err(e)) => JsonObject::new()
                .str("raw_hex", &to_hex(&layer.raw.content))
                .str("error", &e.to_string())
                .finish(),
            None => JsonObject::new()
                .str("raw_hex", &to_hex(&layer.raw.content))
                .finish(),
        };
        layers.raw(&layer.raw.name, &value);
    }

    let mut doc = JsonObject::new();
    doc.str("path", context)
        .raw("frame", &frame_json)
        .raw("metalayers", &layers.finish());
    if let Some(array) = &analysis.array {
        doc.raw("array", &array_json(array));
    }
    Ok(doc.finish())
}

fn meta_json(meta: &Meta) -> Result<String, String> {
    serde_json::to_string(meta).map_err(|e| format!("cannot write a metalayer as JSON: {e}"))
}

fn array_json(array: &ArrayView) -> String {
    let dtype = match &array.dtype {
        DtypeView::Parsed(d) => JsonObject::new()
            .str("str", &d.to_string())
            .str("kind", d.kind().name())
            .num("itemsize", d.itemsize())
            .finish(),
        DtypeView::Assumed(d) => JsonObject::new()
            .str("str", &d.to_string())
            .str("kind", d.kind().name())
            .num("itemsize", d.itemsize())
            .bool("assumed", true)
            .finish(),
        DtypeView::Unparsed { raw, error } => JsonObject::new()
            .str("str", raw)
            .str("error", error)
            .finish(),
    };
    JsonObject::new()
        .str("metalayer", &array.metalayer)
        .raw("dtype", &dtype)
        .strs("problems", array.problems.iter().map(String::as_str))
        .strs(
            "blocks_within_chunks",
            array.blocks_within_chunks.iter().map(String::as_str),
        )
        .num("trailing_bytes", array.trailing_bytes as u64)
        .finish()
}

// ---------------------------------------------------------------------------
// Human-readable output
// ---------------------------------------------------------------------------

/// A Python-style tuple: `()`, `(10,)`, `(10, 7)`.
fn tuple<T: std::fmt::Display>(items: &[T]) -> String {
    match items {
        [] => "()".to_owned(),
        [one] => format!("({one},)"),
        many => {
            let parts: Vec<String> = many.iter().map(T::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// Hex of at most 16 bytes, with `...` when there are more.
fn short_hex(bytes: &[u8]) -> String {
    const MAX: usize = 16;
    match bytes.get(..MAX) {
        Some(head) if bytes.len() > MAX => format!("{}...", to_hex(head)),
        _ => to_hex(bytes),
    }
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `s` as is, or quoted and escaped when it holds control characters (a newline in a
/// metalayer name must not break the line).
fn printable(s: &str) -> String {
    if s.chars().any(char::is_control) {
        format!("{s:?}")
    } else {
        s.to_owned()
    }
}

fn human_view(context: &str, file: &FrameFile, analysis: &Analysis<'_>) -> String {
    let info = &file.header.info;
    let context = printable(context);
    let mut s = String::new();
    let size = match info.kind {
        FrameKind::Contiguous => plural(info.frame_len, "byte"),
        FrameKind::Sparse => format!("{} in chunks.b2frame", plural(info.frame_len, "byte")),
    };
    let _ = write!(
        s,
        "{context}: {} frame, {size}, {} level {}, typesize {}",
        info.kind,
        info.codec.name(),
        info.clevel,
        info.typesize
    );
    if file.is_truncated() {
        let _ = write!(
            s,
            " (TRUNCATED: {} on disk, {} missing)",
            plural(file.file_len, "byte"),
            file.missing_bytes()
        );
    }
    for layer in &analysis.layers {
        let name = printable(&layer.raw.name);
        let content = &layer.raw.content;
        match &layer.decoded {
            Some(Ok((meta, _))) => {
                let _ = write!(
                    s,
                    "\n  {name} ({}): shape {}, chunks {}, blocks {}",
                    meta.layout(),
                    tuple(meta.shape()),
                    tuple(meta.chunkshape()),
                    tuple(meta.blockshape())
                );
                let is_array = analysis
                    .array
                    .as_ref()
                    .is_some_and(|a| a.metalayer == layer.raw.name);
                match (&analysis.array, meta.dtype()) {
                    (Some(array), _) if is_array => {
                        let _ = write!(s, ", dtype {}", dtype_human(&array.dtype));
                    }
                    (_, Some(dtype)) => {
                        let _ = write!(s, ", dtype {}", printable(dtype));
                    }
                    (_, None) => {}
                }
                if let Some(format) = meta.dtype_format().filter(|&f| f != 0) {
                    let _ = write!(s, " (dtype_format {format})");
                }
            }
            Some(Err(e)) => {
                let _ = write!(
                    s,
                    "\n  {name}: DOES NOT DECODE: {e}\n  {name}: {}: {}",
                    plural(content.len() as u64, "byte"),
                    short_hex(content)
                );
            }
            None => {
                let _ = write!(
                    s,
                    "\n  {name}: {}: {}",
                    plural(content.len() as u64, "byte"),
                    short_hex(content)
                );
            }
        }
    }
    if analysis.layers.is_empty() {
        s.push_str("\n  (no metalayers)");
    } else if file.header.array_metalayer().is_none() {
        s.push_str("\n  (no b2nd or caterva metalayer: not an n-dimensional array)");
    }
    if let Some(array) = &analysis.array {
        for problem in &array.problems {
            let _ = write!(s, "\n  problem: {problem}");
        }
        for problem in &array.blocks_within_chunks {
            let _ = write!(s, "\n  problem (python-blosc2 only): {problem}");
        }
        if array.trailing_bytes > 0 {
            let _ = write!(
                s,
                "\n  note: {} stale byte(s) after the metalayer in its content (ignored, as C-Blosc2 does)",
                array.trailing_bytes
            );
        }
    }
    s
}

fn dtype_human(dtype: &DtypeView) -> String {
    let describe = |d: &Dtype| {
        format!(
            "{} ({}, {})",
            printable(&d.to_string()),
            d.kind().name(),
            plural(d.itemsize(), "byte")
        )
    };
    match dtype {
        DtypeView::Parsed(d) => describe(d),
        DtypeView::Assumed(d) => format!("{} (assumed from the typesize)", describe(d)),
        DtypeView::Unparsed { raw, error } => {
            format!("{} (not understood: {error})", printable(raw))
        }
    }
}
