//! `write`, `resize` and `append`: an array's values changed in place
//! (`Array::open_rw`), each one crash-consistent step; nothing printed on success.

use std::io::{self, BufReader, Read};
use std::path::Path;

use b2nd_meta::array::{Array, ArrayError, ArrayRw, NpyHeader, Selection};
use b2nd_meta::container::{self, Location};

use crate::output::{say, source};

/// The array at `path` (or its store's node `key`, when a file of its own) opened for
/// changing; the line to say when it cannot be.
fn open(path: &Path, key: Option<&str>) -> Result<ArrayRw, String> {
    match key {
        None => open_at(path),
        Some(key) => {
            let store = container::open(source(path)).map_err(|e| e.to_string())?;
            let key = &*super::show_store::node_key(&store, key);
            let Some(entry) = store.find(key) else {
                return Err(format!("no node {key:?} in this store"));
            };
            let where_ = match &entry.location {
                Location::External { path } => return open_at(path),
                Location::Embedded { .. } => "is inside the store's embed file".to_string(),
                Location::ZipMember { .. } => "is a member of the zip file".to_string(),
                Location::Remote { urlbase, .. } => format!("is a remote array at {urlbase}"),
                Location::Implicit => "is a group, not an array".to_string(),
                Location::Invalid { reason } => format!("is not readable: {reason}"),
            };
            Err(format!(
                "node {key:?} {where_}, not a file of its own: \
                 only the array files of a .b2d store are changed in place"
            ))
        }
    }
}

/// The array file (or sparse directory) at `target` opened for changing.
fn open_at(target: &Path) -> Result<ArrayRw, String> {
    Array::open_rw(source(target)).map_err(|e| message(target, e))
}

/// The error without the path the line starts with.
fn message(path: &Path, e: ArrayError) -> String {
    let text = e.to_string();
    text.strip_prefix(&format!("{}: ", path.display()))
        .map(str::to_string)
        .unwrap_or(text)
}

/// The values of an .npy: in its file from an offset on, or in memory.
enum Values {
    /// A file's C-order data: read as it goes into chunks, never held whole.
    File(std::fs::File, u64),
    /// Stdin's data, or a Fortran-order file's, in C order.
    Memory(Vec<u8>),
}

/// The .npy at `input` (or stdin): its header and its elements in C order.
fn values(input: &Path) -> Result<(NpyHeader, Values), String> {
    let named = |e: ArrayError| format!("{}: {}", input.display(), e);
    let truncated = |header: &NpyHeader, found: u64| {
        format!(
            "{}: truncated: expected {} bytes of data after the {}-byte header, found {found}",
            input.display(),
            header.nbytes(),
            header.data_offset,
        )
    };
    if input.as_os_str() != "-" {
        let file = std::fs::File::open(input)
            .map_err(|e| format!("{}: cannot open: {e}", input.display()))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        // Small: the header is all that comes through it.
        let header =
            NpyHeader::read(&mut BufReader::with_capacity(8 << 10, &file)).map_err(named)?;
        let found = len.saturating_sub(header.data_offset);
        if u128::from(found) < header.nbytes() {
            return Err(truncated(&header, found));
        }
        if !header.fortran_order || header.shape.len() < 2 {
            let offset = header.data_offset;
            return Ok((header, Values::File(file, offset)));
        }
    }
    let stdin = io::stdin();
    let reader: Box<dyn Read> = match input.as_os_str() == "-" {
        true => Box::new(stdin.lock()),
        false => Box::new(
            std::fs::File::open(input)
                .map_err(|e| format!("{}: cannot open: {e}", input.display()))?,
        ),
    };
    let mut reader = BufReader::with_capacity(64 << 10, reader);
    let header = NpyHeader::read(&mut reader).map_err(named)?;
    let nbytes = header.nbytes();
    let mut data = Vec::new();
    reader
        .by_ref()
        .take(u64::try_from(nbytes).unwrap_or(u64::MAX))
        .read_to_end(&mut data)
        .map_err(|e| format!("{}: cannot read: {e}", input.display()))?;
    if data.len() as u128 != nbytes {
        return Err(truncated(&header, data.len() as u64));
    }
    let data = header.c_order(data);
    Ok((header, Values::Memory(data)))
}

/// The .npy's dtype must be the array's.
fn same_dtype(array: &Array, header: &NpyHeader) -> Result<(), String> {
    match header.dtype == *array.dtype() {
        true => Ok(()),
        false => Err(format!(
            "the values' dtype {} is not the array's {} (convert it first, e.g. numpy's astype)",
            header.dtype,
            array.dtype()
        )),
    }
}

/// "s" after a count other than one.
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Runs `edit`, saying its line on failure.
fn run(path: &Path, edit: impl FnOnce() -> Result<(), String>) -> bool {
    match edit() {
        Ok(()) => true,
        Err(line) => {
            say(&path.to_string_lossy(), &line);
            false
        }
    }
}

/// `write PATH [--key KEY] [--slice SPEC] IN.npy`.
pub fn write(path: &Path, key: Option<&str>, slice: &str, input: &Path) -> bool {
    run(path, || {
        let sel = Selection::parse(slice).map_err(|e| format!("--slice {slice:?}: {e}"))?;
        let mut array = open(path, key)?;
        let (header, data) = values(input)?;
        same_dtype(array.array(), &header)?;
        match data {
            Values::File(file, at) => array.write_from_at(&sel, &file, at, &header.shape),
            Values::Memory(data) => array.write_bytes(&sel, &data, &header.shape),
        }
        .map_err(|e| message(path, e))
    })
}

/// `resize PATH [--key KEY] SHAPE`.
pub fn resize(path: &Path, key: Option<&str>, shape: &[i64]) -> bool {
    run(path, || {
        let shape: Vec<u64> = shape
            .iter()
            .map(|&d| u64::try_from(d).map_err(|_| format!("a negative length: {d}")))
            .collect::<Result<_, _>>()?;
        let mut array = open(path, key)?;
        let ndim = array.array().shape().len();
        if shape.len() != ndim {
            return Err(format!(
                "the new shape has {} length{}, the array {ndim} dimension{}",
                shape.len(),
                plural(shape.len()),
                plural(ndim)
            ));
        }
        array.resize(&shape).map_err(|e| message(path, e))
    })
}

/// `append PATH [--key KEY] [--axis N] IN.npy`.
pub fn append(path: &Path, key: Option<&str>, axis: usize, input: &Path) -> bool {
    run(path, || {
        let mut array = open(path, key)?;
        let (header, data) = values(input)?;
        same_dtype(array.array(), &header)?;
        let shape = array.array().shape();
        if axis >= shape.len() {
            return Err(format!(
                "--axis {axis}: the array has {} dimension{}",
                shape.len(),
                plural(shape.len())
            ));
        }
        let others = |s: &[u64]| -> Vec<u64> {
            s.iter()
                .enumerate()
                .filter(|(d, _)| *d != axis)
                .map(|(_, &n)| n)
                .collect()
        };
        if header.shape.len() != shape.len() || others(&header.shape) != others(shape) {
            let want: Vec<String> = shape
                .iter()
                .enumerate()
                .map(|(d, n)| match d == axis {
                    true => "N".to_string(),
                    false => n.to_string(),
                })
                .collect();
            return Err(format!(
                "the values' shape {:?} does not extend the array's {:?} along axis {axis}: \
                 expected [{}]",
                header.shape,
                shape,
                want.join(", ")
            ));
        }
        match data {
            Values::File(file, at) => {
                let len = u64::try_from(header.nbytes()).unwrap_or(u64::MAX);
                array.append_from_at(axis, &file, at, len)
            }
            Values::Memory(data) => array.append_bytes(axis, &data),
        }
        .map_err(|e| message(path, e))
    })
}
