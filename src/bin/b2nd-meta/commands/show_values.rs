//! `show PATH --slice SPEC`: the values of `arr[SPEC]` printed, as one line of JSON
//! (nested lists, python's `json.dumps(arr[SPEC].tolist())`) or laid out for a person
//! as numpy prints them. A terminal gets at most [`TERMINAL_MAX`] elements: more is
//! refused with a hint (a smaller slice, a pipe, `export`).

use std::io::Write;
use std::path::Path;

use b2nd_meta::array::{ArrayError, Selection};

use super::export::message;
use super::stdin;
use crate::output::{say, stdout_error, Fatal, Outcome};
use crate::render::values::{empty, ElementText, Nesting};

/// The most elements printed to a terminal.
pub const TERMINAL_MAX: u64 = 10_000;

/// The text written to stdout at once.
const FLUSH_AT: usize = 1 << 16;

/// What `show --slice` was asked.
pub struct Request<'a> {
    pub paths: &'a [std::path::PathBuf],
    pub keys: &'a [String],
    pub slice: &'a str,
    pub human: bool,
    /// Whether stdout is a terminal.
    pub terminal: bool,
}

/// Prints `arr[slice]` of every path (of the nodes `keys` of each, when given);
/// `Ok(false)` when any of them could not be (each said on stderr).
pub fn run(out: &mut impl Write, req: &Request) -> Outcome {
    let sel = match Selection::parse(req.slice) {
        Ok(sel) => sel,
        Err(e) => {
            say("show", &format!("--slice {:?}: {e}", req.slice));
            return Ok(false);
        }
    };
    let mut all_ok = true;
    for path in req.paths {
        // Standard input, copied to a file first (as `show -` does), shown as `-`.
        let copy = if path.as_os_str() == "-" {
            let Some(copy) = stdin::copy()? else {
                all_ok = false;
                continue;
            };
            Some(copy)
        } else {
            None
        };
        let at = (
            copy.as_ref().map_or(path.as_path(), |c| c.path()),
            path.as_path(),
        );
        if req.keys.is_empty() {
            all_ok &= show(out, req, &sel, at, None)?;
        }
        for key in req.keys {
            all_ok &= show(out, req, &sel, at, Some(key))?;
        }
    }
    Ok(all_ok)
}

/// Why printing stopped: the array could not be read, or stdout failed.
enum Stop {
    Array(ArrayError),
    Out(Fatal),
}

impl From<ArrayError> for Stop {
    fn from(e: ArrayError) -> Stop {
        Stop::Array(e)
    }
}

/// Prints `arr[sel]` of the array at `path` (node `key` of it), named `shown`.
fn show(
    out: &mut impl Write,
    req: &Request,
    sel: &Selection,
    (path, shown): (&Path, &Path),
    key: Option<&str>,
) -> Outcome {
    let context = match key {
        Some(key) => format!("{}#{key}", shown.display()),
        None => shown.display().to_string(),
    };
    let array = match super::open::array(path, key, &context) {
        Ok(array) => array,
        Err(line) => {
            say(&context, &line);
            return Ok(false);
        }
    };
    let shape = match array.shape_of(sel) {
        Ok(shape) => shape,
        Err(e) => {
            say(&context, &message(path, &context, e));
            return Ok(false);
        }
    };
    let n: u64 = shape.iter().product();
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let tuple = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    if req.terminal && n > TERMINAL_MAX {
        let line = format!(
            "[{sel}] is {n} values (shape {tuple}), more than a terminal is shown \
             ({TERMINAL_MAX}): pick a smaller --slice, pipe it (| less), or write them \
             with `b2nd-meta export {} --slice '{sel}' -o values.npy`",
            shown.display()
        );
        say(&context, &line);
        return Ok(false);
    }
    let json = !req.human;
    let mut text = ElementText::new(array.dtype(), json);
    let itemsize = array.itemsize().max(1);
    let mut element = String::new();
    let result = (|| {
        // A person's layout right-aligns every element to the widest: a first pass.
        let mut width = 0;
        if req.human {
            let header = format!("{context} [{sel}]: shape {tuple}, dtype {}", array.dtype());
            writeln!(out, "{header}").map_err(|e| Stop::Out(stdout_error(e)))?;
            // Floats are surveyed (numpy's notation and pads, one width for all).
            let surveys = text.surveys();
            array.read_rows(sel, |bytes| {
                for e in bytes.chunks_exact(itemsize) {
                    if surveys {
                        text.survey(e);
                        continue;
                    }
                    element.clear();
                    text.push(e, &mut element);
                    width = width.max(element.chars().count());
                }
                Ok::<(), Stop>(())
            })?;
            text.surveyed();
        }
        let mut line = String::new();
        if n == 0 {
            line = empty(&shape);
        }
        let mut nesting = Nesting::new(&shape, json, width);
        array.read_rows(sel, |bytes| {
            for e in bytes.chunks_exact(itemsize) {
                element.clear();
                text.push(e, &mut element);
                nesting.push(&element, &mut line);
                if line.len() >= FLUSH_AT {
                    out.write_all(line.as_bytes())
                        .map_err(|e| Stop::Out(stdout_error(e)))?;
                    line.clear();
                }
            }
            Ok::<(), Stop>(())
        })?;
        line.push('\n');
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| Stop::Out(stdout_error(e)))
    })();
    match result {
        Ok(()) => Ok(true),
        Err(Stop::Out(fatal)) => Err(fatal),
        Err(Stop::Array(e)) => {
            say(&context, &message(path, &context, e));
            Ok(false)
        }
    }
}
