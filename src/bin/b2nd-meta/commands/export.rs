//! `export`: an array's values (a slice of them) as a NumPy `.npy` file, to a path or
//! stdout, streamed in pieces of about 16 MiB (`Array::read_rows`).

use std::io::{self, BufWriter};
use std::path::Path;

use b2nd_meta::array::{Array, ArrayError, ArrayErrorKind, Selection};

use crate::output::{say, Fatal};

pub const EXPORT_LONG: &str = "\
Write the values of an array (a contiguous frame, a sparse frame's directory, or with
--key a node of a store or bundle) as a NumPy .npy file that np.load reads as
python-blosc2's arr[SLICE]: the dtype as stored (byte order included), the shape after
indexing, C order.

SLICE is written as inside python's brackets: integers (negative count from the end,
the axis is dropped), start:stop:step (any part optional, bounds clipped, negative
steps run backwards), ... and None; the default is ... (the whole array).

The values stream out in pieces of about 16 MiB cut at block boundaries, decoded on
--threads threads (the machine's parallelism by default).";

pub const EXPORT_EXAMPLES: &str = "\
Examples:
  # The whole array, as python's np.save(arr[...]) would write it
  b2nd-meta export array.b2nd -o array.npy

  # Rows 2 to 7, every third column, to stdout
  b2nd-meta export array.b2nd --slice '2:8, ::3' -o - | python -c 'import numpy, sys; print(numpy.load(sys.stdin.buffer))'

  # The last plane of a node of a DictStore bundle
  b2nd-meta export store.b2z --key /dir/ext --slice '..., -1' -o plane.npy";

/// Writes `slice` of the array at `path` (node `key` of it, when given) to `output`
/// (`-`: stdout); `Ok(false)` after one line on stderr when it cannot.
pub fn run(
    path: &Path,
    key: Option<&str>,
    slice: &str,
    output: &Path,
    threads: Option<usize>,
) -> Result<bool, Fatal> {
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
    let array = match key {
        Some(key) => Array::open_key(path, key),
        None => Array::open(path),
    };
    let array = match array {
        Ok(array) => array,
        Err(e) => return refuse(message(e)),
    };
    let array = match threads {
        Some(t) => array.with_threads(t),
        None => array,
    };
    if let Err(e) = array.shape_of(&sel) {
        return refuse(format!("--slice {slice:?}: {e}"));
    }
    let written = if output.as_os_str() == "-" {
        let stdout = io::stdout();
        let result = array.write_npy(&sel, BufWriter::with_capacity(1 << 20, stdout.lock()));
        if let Err(e) = &result
            && broken_pipe(e)
        {
            return Err(Fatal::BrokenPipe);
        }
        result
    } else {
        let file = match std::fs::File::create(output) {
            Ok(file) => file,
            Err(e) => return refuse(format!("cannot create {}: {e}", output.display())),
        };
        let result = array.write_npy(&sel, BufWriter::with_capacity(1 << 20, file));
        if result.is_err() {
            // No half-written file left behind under the name asked for.
            let _ = std::fs::remove_file(output);
        }
        result
    };
    match written {
        Ok(()) => Ok(true),
        Err(e) => refuse(message(e)),
    }
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
