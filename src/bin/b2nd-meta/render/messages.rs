//! The command's one voice for errors: every command that takes a PATH says the same
//! thing, the same way, for the same problem (listed in `b2nd-meta --help`, ERRORS).
//!
//! A line is `b2nd-meta: <PATH as given>: <message>[ at byte N]`; a malformed argument
//! is `b2nd-meta: <command>: <message>` (or clap's usage error, exit status 2), and
//! axes count from 0, as everywhere else.

use std::io;
use std::path::Path;

use b2nd_meta::error::Class;
use b2nd_meta::frame::{FrameError, FrameErrorKind, SPARSE_HEADER_FILE};

/// Whether the command only reads the frame, or also writes it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// The message for `e`, an error on the frame at `path`, without repeating `path` (the
/// line starts with it): said by its class, in the words of its kind.
pub fn frame_error(path: &Path, e: &FrameError, access: Access) -> String {
    let at = e
        .offset()
        .map(|o| format!(" at byte {o}"))
        .unwrap_or_default();
    let file = e.path().unwrap_or(path);
    let kind = e.kind();
    let io = std::error::Error::source(e).and_then(|s| s.downcast_ref::<io::Error>());
    match (e.classify(), kind, io) {
        (Class::Io, _, Some(source)) => io_error(path, file, source, access),
        (
            Class::Truncated,
            FrameErrorKind::TruncatedFrame {
                frame_len,
                file_len,
            },
            _,
        ) => truncated(path, file, *frame_len, *file_len, access),
        (_, FrameErrorKind::LockTimeout { waited }, _) => format!(
            "gave up after {:.1} s waiting for the lock another process holds on {} \
             (--lock-timeout)",
            waited.as_secs_f64(),
            file.display()
        ),
        // The frame itself does not read (its header, or a version this crate does not
        // read); what is not a frame says so itself.
        (Class::Syntax | Class::Unsupported, _, _) => {
            format!("not a readable Blosc2 frame: {kind}{at}")
        }
        _ => format!("{kind}{at}"),
    }
}

/// An I/O error on `file` (`path` itself, or its `chunks.b2frame`).
fn io_error(path: &Path, file: &Path, source: &io::Error, access: Access) -> String {
    let sparse_header = path.join(SPARSE_HEADER_FILE);
    match source.kind() {
        io::ErrorKind::NotFound if file == sparse_header => format!(
            "a directory without {SPARSE_HEADER_FILE}, so not a sparse frame: cannot open {}: {source}",
            file.display()
        ),
        io::ErrorKind::NotFound if file == path => format!("cannot open: {source}"),
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
            if access == Access::Write =>
        {
            match file == path {
                true => format!("cannot open for writing: {source}"),
                false => format!("cannot open {} for writing: {source}", file.display()),
            }
        }
        _ if file == path => format!("cannot read: {source}"),
        _ => format!("cannot read {}: {source}", file.display()),
    }
}

/// A frame whose file (`holder`: `path`, or its `chunks.b2frame`) is shorter than the
/// header declares; a writing command does not write it.
pub fn truncated(
    path: &Path,
    holder: &Path,
    frame_len: u64,
    file_len: u64,
    access: Access,
) -> String {
    let holder = if holder == path {
        "the file".to_owned()
    } else {
        holder.display().to_string()
    };
    let missing = frame_len.saturating_sub(file_len);
    let refused = match access {
        Access::Read => "",
        Access::Write => "; a frame cut short is not rewritten",
    };
    format!(
        "truncated: the header declares {frame_len} bytes, {holder} has {file_len} ({missing} missing){refused}"
    )
}

/// What is said of a `.npy` file given where a Blosc2 frame is expected.
pub const NPY_NOT_A_FRAME: &str =
    "a .npy file (numpy), not a Blosc2 frame: b2nd-meta import it first";

/// The message for a file that is not a Blosc2 frame when its content says what it is
/// (a `.npy` file, by numpy's magic `\x93NUMPY`, whatever its name). Only a regular
/// file is read: a FIFO is not opened (it would wait for a writer).
pub fn not_a_frame(path: &Path) -> Option<String> {
    use std::io::Read;
    if !std::fs::metadata(path).is_ok_and(|md| md.is_file()) {
        return None;
    }
    let mut start = [0u8; 6];
    let mut file = std::fs::File::open(path).ok()?;
    file.read_exact(&mut start).ok()?;
    (&start == b"\x93NUMPY").then(|| NPY_NOT_A_FRAME.to_string())
}

/// When `text`, given as a JSON value, is not JSON, and is a bare word: a string
/// written without its quotes, given back with them, quoted for a shell
/// (`a string needs quotes: '"hi"'`).
pub fn json_hint(text: &str) -> Option<String> {
    let word = text.trim();
    let bare = word
        .chars()
        .next()
        .is_some_and(|c| !matches!(c, '{' | '[' | '"' | '-' | '0'..='9'));
    let json = serde_json::Value::String(word.to_owned()).to_string();
    bare.then(|| format!("a string needs quotes: '{}'", json.replace('\'', r"'\''")))
}
