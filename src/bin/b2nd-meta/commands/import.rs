//! `import`: a NumPy `.npy` file (or stdin) as a new Blosc2 array, streamed a batch of
//! chunk rows at a time, compressed in parallel, staged beside the target and renamed
//! over it.

use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use b2nd_meta::array::write::NewArray;
use b2nd_meta::array::{ArrayError, ArrayErrorKind, NpyHeader};
use b2nd_meta::blosc::{Codec, Filter, MAX_FILTERS};
use b2nd_meta::container::{sniff, Sniffed};
use b2nd_meta::frame::{FrameErrorKind, Locking};
use b2nd_meta::value::Value;

use crate::output::{say, Fatal};
use crate::progress::{CountingAt, CountingReader, Transfer};
use crate::render::messages;

pub const IMPORT_LONG: &str = "\
Write the array of a NumPy .npy file (as np.save writes it: any dtype numpy saves
without pickling, versions 1.0 to 3.0, C or Fortran order; - reads stdin) as a new
Blosc2 array that python-blosc2 opens: a contiguous .b2nd file, or with --sparse a
sparse frame's directory.

The defaults are python-blosc2's blosc2.asarray(np.load(IN), urlpath=OUT): chunks and
blocks as python chooses them on this machine, zstd at level 5, byte-shuffle. --filter
fills the pipeline's slots in order (as python's filters=[...]); NAME:META gives a
filter its meta byte (shuffle's and bytedelta's element size, trunc_prec's bits);
--filter nofilter leaves the pipeline empty. --meta and --vlmeta take a JSON value,
stored as python-blosc2 stores the same value given to meta= or arr.vlmeta[NAME].

The data streams through a batch of chunk rows at a time (a Fortran-ordered file is
read whole, then reordered), compressed on --threads threads (the machine's parallelism
by default), written to OUT.<pid>.tmp beside OUT and renamed over it when complete. An
existing OUT is refused unless --force. When stderr is a terminal and the import takes
over a second, a line on stderr says how far it is (bytes read, rate, time left),
erased at the end (B2ND_META_PROGRESS_AFTER=MS sets the wait).";

pub const IMPORT_EXAMPLES_SHORT: &str = "\
Example (more in --help):
  b2nd-meta import x.npy x.b2nd    as blosc2.asarray(np.load('x.npy'), urlpath='x.b2nd')";

pub const IMPORT_EXAMPLES: &str = "\
Examples:
  # As blosc2.asarray(np.load('x.npy'), urlpath='x.b2nd') writes it
  b2nd-meta import x.npy x.b2nd

  # LZ4 at level 9 with bit-shuffle, chunks of 100 rows, a metalayer and a vlmeta entry
  b2nd-meta import x.npy x.b2nd --codec lz4 --clevel 9 --filter bitshuffle \\
      --chunks 100,1000 --meta 'units={\"x\": \"m\"}' --vlmeta 'note=\"raw\"'

  # From a pipe, as a sparse frame, replacing what is there
  python -c 'import numpy, sys; numpy.save(sys.stdout.buffer, numpy.eye(3))' | b2nd-meta import - eye.b2nd --sparse --force";

/// What `import` is given.
pub struct Import {
    pub input: PathBuf,
    pub output: PathBuf,
    pub chunks: Option<Vec<i64>>,
    pub blocks: Option<Vec<i64>>,
    pub codec: Option<String>,
    pub clevel: Option<u32>,
    pub filters: Vec<String>,
    pub meta: Vec<String>,
    pub vlmeta: Vec<String>,
    pub sparse: bool,
    pub force: bool,
    pub threads: Option<usize>,
    /// The lock protocol's options (`--lock-timeout`).
    pub locking: Locking,
}

/// `dims` as lengths, or the flag's problem.
fn lengths(flag: &str, dims: &[i64]) -> Result<Vec<u64>, String> {
    dims.iter()
        .map(|&d| u64::try_from(d))
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{flag} {dims:?}: expected lengths of at least 0"))
}

/// The pipeline of `--filter NAME[:META]...`, python's `filters=[...]` from slot 0.
fn pipeline(names: &[String]) -> Result<Option<[(Filter, u8); MAX_FILTERS]>, String> {
    if names.is_empty() {
        return Ok(None);
    }
    if names.len() > MAX_FILTERS {
        return Err(format!(
            "--filter given {} times: expected at most {MAX_FILTERS}",
            names.len()
        ));
    }
    let mut slots = [(Filter::None, 0); MAX_FILTERS];
    for (slot, given) in slots.iter_mut().zip(names) {
        let (name, meta) = match given.split_once(':') {
            Some((name, meta)) => {
                // python-blosc2 reads a filter's meta back as an int8_t.
                let meta = meta
                    .parse::<u8>()
                    .ok()
                    .filter(|&m| m <= 127)
                    .ok_or_else(|| {
                        format!("--filter {given:?}: expected NAME:META with META from 0 to 127")
                    })?;
                (name, meta)
            }
            None => (given.as_str(), 0),
        };
        // `none`, as the library's `Filter::None` spells it.
        let name = if name == "none" { "nofilter" } else { name };
        let filter = match Filter::from_name(name) {
            Some(f)
                if matches!(
                    f,
                    Filter::None
                        | Filter::Shuffle
                        | Filter::BitShuffle
                        | Filter::Delta
                        | Filter::TruncPrec
                        | Filter::ByteDelta
                ) =>
            {
                f
            }
            _ => {
                return Err(format!(
                    "--filter {name:?}: expected nofilter (or none), shuffle, bitshuffle, delta, trunc_prec or bytedelta"
                ));
            }
        };
        *slot = (filter, meta);
    }
    Ok(Some(slots))
}

/// `NAME=JSON` as a name and a value.
fn named_value(flag: &str, given: &str) -> Result<(String, Value), String> {
    let Some((name, json)) = given.split_once('=') else {
        return Err(format!("{flag} {given:?}: expected NAME=JSON"));
    };
    let value: Value = serde_json::from_str(json).map_err(|e| match messages::json_hint(json) {
        Some(hint) => format!("{flag} {given:?}: the value is not JSON: {hint}"),
        None => format!("{flag} {given:?}: the value is not JSON: {e}"),
    })?;
    Ok((name.to_string(), value))
}

/// The new array's parameters from the header and the flags.
fn params(args: &Import, header: &NpyHeader) -> Result<NewArray, String> {
    let err = |e: ArrayError| e.to_string();
    let mut a = NewArray::new(&header.shape, &header.dtype.to_string())
        .map_err(err)?
        .sparse(args.sparse)
        .overwrite(args.force)
        .locking(args.locking);
    if args.input.as_os_str() != "-" {
        a = a.made_from(&args.input);
    }
    if let Some(dims) = &args.chunks {
        a = a.chunks(&lengths("--chunks", dims)?);
    }
    if let Some(dims) = &args.blocks {
        a = a.blocks(&lengths("--blocks", dims)?);
    }
    let codec = match &args.codec {
        Some(name) => match Codec::from_name(name) {
            Some(c @ (Codec::BloscLz | Codec::Lz4 | Codec::Lz4Hc | Codec::Zlib | Codec::Zstd)) => c,
            _ => {
                return Err(format!(
                    "--codec {name:?}: expected blosclz, lz4, lz4hc, zlib or zstd"
                ));
            }
        },
        None => Codec::Zstd,
    };
    let clevel = args.clevel.unwrap_or(5);
    // Past a byte: the library's own message, with the number given.
    let clevel = u8::try_from(clevel)
        .map_err(|_| format!("expected a compression level from 0 to 9, found {clevel}"))?;
    a = a.codec(codec, clevel);
    if let Some(filters) = pipeline(&args.filters)? {
        a = a.filters(filters);
    }
    for given in &args.meta {
        let (name, value) = named_value("--meta", given)?;
        a = a.meta_value(&name, &value).map_err(err)?;
    }
    for given in &args.vlmeta {
        let (name, value) = named_value("--vlmeta", given)?;
        a = a.vlmeta_value(&name, &value).map_err(err)?;
    }
    if let Some(t) = args.threads {
        a = a.threads(t);
    }
    Ok(a)
}

/// The message of `e`, without the path the context names already.
fn message(e: ArrayError, path: &Path) -> String {
    let text = e.to_string();
    match e.path() {
        Some(p) if p == path => text
            .strip_prefix(&format!("{}: ", p.display()))
            .unwrap_or(&text)
            .to_string(),
        _ => text,
    }
}

/// What is said of a Blosc2 frame given to `import`.
const FRAME_NOT_NPY: &str = "a Blosc2 frame, not a .npy file: b2nd-meta export it first";

/// Whether `start`, the first bytes of the input, are a Blosc2 frame's (its magic
/// `b2frame\0` at byte 2).
fn starts_as_frame(start: &[u8]) -> bool {
    start.get(2..10) == Some(&b"b2frame\0"[..])
}

/// What is said of an input that is Blosc2's, not numpy's.
fn blosc2_input(sniffed: Sniffed) -> Option<&'static str> {
    match sniffed {
        Sniffed::Frame => Some(FRAME_NOT_NPY),
        Sniffed::SparseFrame => {
            Some("a Blosc2 sparse frame, not a .npy file: b2nd-meta export it first")
        }
        Sniffed::Bundle | Sniffed::StoreDir => {
            Some("a Blosc2 store or bundle, not a .npy file: b2nd-meta export --key KEY it first")
        }
        _ => None,
    }
}

/// Imports `args.input` into `args.output`; `Ok(false)` after one line on stderr when
/// it cannot.
pub fn run(args: &Import) -> Result<bool, Fatal> {
    let input_name = args.input.display().to_string();
    let output_name = args.output.display().to_string();
    let stdin = io::stdin();
    // What Blosc2 holds is named as such, by its content, not its name.
    if args.input.as_os_str() != "-"
        && let Some(line) = sniff(&args.input).ok().and_then(blosc2_input)
    {
        say(&input_name, line);
        return Ok(false);
    }
    let opened = match args.input.as_os_str() == "-" {
        true => None,
        false => match std::fs::File::open(&args.input) {
            Ok(file) => Some(file),
            Err(e) => {
                say(&input_name, &format!("cannot open: {e}"));
                return Ok(false);
            }
        },
    };
    // A regular file is also read at offsets: the compressing threads read their own
    // chunks. A FIFO or a device given by path (`<(...)`, /dev/stdin) is read as a
    // stream, as `-` is.
    let regular = |f: &std::fs::File| f.metadata().is_ok_and(|md| md.is_file());
    let file = opened.as_ref().filter(|f| regular(f));
    let source: Box<dyn Read> = match &opened {
        Some(file) => Box::new(file),
        None => Box::new(stdin.lock()),
    };
    let mut input = BufReader::with_capacity(1 << 20, source);
    if input.fill_buf().is_ok_and(starts_as_frame) {
        say(&input_name, FRAME_NOT_NPY);
        return Ok(false);
    }
    let header = match NpyHeader::read(&mut input) {
        Ok(header) => header,
        Err(e) => {
            say(&input_name, &message(e, &args.input));
            return Ok(false);
        }
    };
    let params = match params(args, &header) {
        Ok(params) => params,
        Err(line) => {
            say(&output_name, &line);
            return Ok(false);
        }
    };
    let mut writer = match params.create(&args.output) {
        Ok(writer) => writer,
        Err(e) => {
            say(&output_name, &written(e, &args.output));
            return Ok(false);
        }
    };
    let nbytes = header.nbytes();
    let truncated = |found: u128| {
        format!(
            "truncated: expected {nbytes} bytes of data after the {}-byte header, found {found}",
            header.data_offset
        )
    };
    // On a terminal's stderr, after a second: how far the data is read.
    let progress = Transfer::new("importing", u64::try_from(nbytes).unwrap_or(u64::MAX));
    let say = |context: &str, line: &str| {
        progress.clear();
        say(context, line);
    };
    let fed = if header.fortran_order {
        let mut data = Vec::new();
        let mut counted = CountingReader {
            inner: input.by_ref().take(nbytes as u64),
            progress: &progress,
        };
        match counted.read_to_end(&mut data) {
            Ok(n) if n as u128 == nbytes => writer.write(&header.c_order(data)).map(|()| nbytes),
            Ok(n) => {
                say(&input_name, &truncated(n as u128));
                return Ok(false);
            }
            Err(e) => Err(e.into()),
        }
    } else if let Some(file) = file {
        let counted = CountingAt {
            inner: file,
            progress: &progress,
        };
        writer
            .write_from_at(&counted, header.data_offset)
            .map(u128::from)
    } else {
        let counted = CountingReader {
            inner: &mut input,
            progress: &progress,
        };
        writer.write_from(counted).map(u128::from)
    };
    match fed {
        Ok(n) if n < nbytes => {
            say(&input_name, &truncated(n));
            Ok(false)
        }
        Ok(_) => match writer.finish() {
            Ok(()) => Ok(true),
            Err(e) => {
                say(&output_name, &written(e, &args.output));
                Ok(false)
            }
        },
        Err(e) if matches!(e.kind(), ArrayErrorKind::Io(_)) && e.path().is_none() => {
            say(&input_name, &message(e, &args.input));
            Ok(false)
        }
        Err(e) => {
            say(&output_name, &written(e, &args.output));
            Ok(false)
        }
    }
}

/// The message of `e`, an error while writing OUT: an I/O error says it could not
/// write (a full disk, a read-only directory), naming the file only when it is not OUT
/// or its staging (a sparse frame's chunk file by its name).
fn written(e: ArrayError, out: &Path) -> String {
    let (file, source) = match e.kind() {
        ArrayErrorKind::Io(source) => (e.path(), source),
        ArrayErrorKind::Frame(f) => match f.kind() {
            FrameErrorKind::Exists => return "exists: --force replaces it".to_string(),
            FrameErrorKind::Io(source) => (f.path().or(e.path()), source),
            _ => return message(e, out),
        },
        _ => return message(e, out),
    };
    let beside = |p: &Path| p.parent() == out.parent();
    match file {
        Some(p) if p != out && !beside(p) => match p.parent().is_some_and(beside) {
            true => format!(
                "cannot write {}: {source}",
                p.file_name().unwrap_or_default().to_string_lossy()
            ),
            false => format!("cannot write {}: {source}", p.display()),
        },
        _ => format!("cannot write: {source}"),
    }
}
