//! `export`: an array's values (a slice of them) as a NumPy `.npy` file, to a path or
//! stdout, streamed in pieces of about 16 MiB (`Array::read_rows`).

use std::io::{self, BufWriter};
use std::path::Path;

use b2nd_meta::array::{ArrayError, ArrayErrorKind, Selection};
use b2nd_meta::io::{OutFile, OutOptions};

use crate::output::{say, Fatal};
use crate::progress::{CountingWriter, Transfer};

pub const EXPORT_LONG: &str = "\
Write the values of an array (a contiguous frame, a sparse frame's directory, or with
--key a node of a store or bundle) as a NumPy .npy file that np.load reads as
python-blosc2's arr[SLICE]: the dtype as stored (byte order included), the shape after
indexing, C order.

SLICE is written as inside python's brackets: integers (negative count from the end,
the axis is dropped), start:stop:step (any part optional, bounds clipped, negative
steps run backwards), ... and None; the default is ... (the whole array). Lists and
booleans (numpy's advanced indexing) are not supported.

The values stream out in pieces of about 16 MiB cut at block boundaries, decoded on
--threads threads (the machine's parallelism by default). When stderr is a terminal
and the export takes over a second, a line on stderr says how far it is (bytes
written, rate, time left), erased at the end (B2ND_META_PROGRESS_AFTER=MS sets the
wait).";

pub const EXPORT_EXAMPLES: &str = "\
Examples:
  # The whole array, as python's np.save(arr[...]) would write it
  b2nd-meta export array.b2nd -o array.npy

  # Rows 2 to 7, every third column, to stdout
  b2nd-meta export array.b2nd --slice '2:8, ::3' -o - | python -c 'import numpy, sys; print(numpy.load(sys.stdin.buffer))'

  # The last plane of a node of a DictStore bundle
  b2nd-meta export store.b2z --key /dir/ext --slice '..., -1' -o plane.npy";

/// What `export` is given.
pub struct Export<'a> {
    pub path: &'a Path,
    pub key: Option<&'a str>,
    pub slice: &'a str,
    pub output: &'a Path,
    pub force: bool,
    pub threads: Option<usize>,
}

/// Writes `args.slice` of the array at `args.path` (node `args.key` of it, when given)
/// to `args.output` (`-`: stdout); `Ok(false)` after one line on stderr when it cannot.
pub fn run(args: &Export<'_>) -> Result<bool, Fatal> {
    let (path, key, slice, output) = (args.path, args.key, args.slice, args.output);
    let context = match key {
        Some(key) => format!("{}#{key}", path.display()),
        None => path.display().to_string(),
    };
    let refuse = |line: String| {
        say(&context, &line);
        Ok(false)
    };
    let message = |e: ArrayError| message(path, &context, e);
    let sel = match Selection::parse(slice) {
        Ok(sel) => sel,
        Err(e) => return refuse(format!("--slice {slice:?}: {e}")),
    };
    let array = match super::open::array(path, key, &context) {
        Ok(array) => array,
        Err(line) => return refuse(line),
    };
    let array = match args.threads {
        Some(t) => array.with_threads(t),
        None => array,
    };
    let shape = match array.shape_of(&sel) {
        Ok(shape) => shape,
        Err(e) => return refuse(format!("--slice {slice:?}: {e}")),
    };
    let total = (shape.iter().product::<u64>()).saturating_mul(array.itemsize() as u64);
    // On a terminal's stderr, after a second: how far the values are written.
    let progress = Transfer::new("exporting", total);
    let refuse = |line: String| {
        progress.clear();
        refuse(line)
    };
    if output.as_os_str() == "-" {
        let stdout = io::stdout();
        let counted = CountingWriter {
            inner: stdout.lock(),
            progress: &progress,
        };
        let result = array.write_npy(&sel, BufWriter::with_capacity(1 << 20, counted));
        return match result {
            Ok(()) => Ok(true),
            Err(e) if broken_pipe(&e) => Err(Fatal::BrokenPipe),
            Err(e) => refuse(message(e)),
        };
    }
    let out_name = output.display().to_string();
    // The output: replaced only once complete; the input never.
    let options = OutOptions::default().overwrite(args.force).input(path);
    let file = match OutFile::create(output, options) {
        Ok(file) => file,
        Err(e) => return Ok(say_output(&out_name, &e)),
    };
    let counted = CountingWriter {
        inner: file,
        progress: &progress,
    };
    let mut writer = BufWriter::with_capacity(1 << 20, counted);
    if let Err(e) = array.write_npy(&sel, &mut writer) {
        progress.clear();
        // Where writing failed, OUT is named; where reading did, the input.
        return match e.kind() {
            ArrayErrorKind::Io(io) if e.path().is_none() => Ok(say_output(&out_name, io)),
            _ => refuse(message(e)),
        };
    }
    let committed = writer
        .into_inner()
        .map_err(|e| io::Error::new(e.error().kind(), e.error().to_string()))
        .and_then(|counted| OutFile::commit(counted.inner));
    progress.clear();
    match committed {
        Ok(()) => Ok(true),
        Err(e) => Ok(say_output(&out_name, &e)),
    }
}

/// `false`, after saying what went wrong with the output.
fn say_output(out: &str, e: &io::Error) -> bool {
    match e.kind() {
        io::ErrorKind::AlreadyExists => say(out, "exists: --force replaces it"),
        _ => say(out, &format!("cannot write: {e}")),
    }
    false
}

/// The error's message without the path `context` (or `path`) names already.
pub fn message(path: &Path, context: &str, e: ArrayError) -> String {
    let text = e.to_string();
    let named = [path.to_path_buf(), std::path::PathBuf::from(context)];
    match e.path().filter(|p| named.iter().any(|n| n == p)) {
        Some(p) => text
            .strip_prefix(&format!("{}: ", p.display()))
            .unwrap_or(&text)
            .to_string(),
        None => text,
    }
}

fn broken_pipe(e: &ArrayError) -> bool {
    matches!(e.kind(), ArrayErrorKind::Io(io) if io.kind() == io::ErrorKind::BrokenPipe)
}
