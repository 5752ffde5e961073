//! `set-shape`: resize an array in place, within its chunk grid.

use std::io::Write;
use std::path::Path;

use b2nd_meta::frame::{self, FrameError, FrameErrorKind};
use b2nd_meta::Meta;

use crate::{emit_json, report, Fatal};

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
                    "dimension {} ({:?}) is not an integer: {e}; expected DIM[,DIM...], e.g. 12,8",
                    i + 1,
                    dim.trim()
                )
            })
        })
        .collect::<Result<Vec<i64>, String>>()
        .map(Shape)
}

/// Resizes (or with `dry_run`, prints what would change); `Ok(false)` when refused,
/// after one line on stderr.
pub fn run(out: &mut impl Write, path: &Path, shape: &[i64], dry_run: bool) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let result = if dry_run {
        dry(path, shape).map(Some)
    } else {
        frame::set_shape(path, shape)
            .map(|_| None)
            .map_err(|e| message(path, &e))
    };
    match result {
        Ok(None) => Ok(true),
        Ok(Some((old, new))) => {
            emit_json(out, &old)?;
            emit_json(out, &new)?;
            Ok(true)
        }
        Err(line) => {
            report(&context, &line);
            Ok(false)
        }
    }
}

/// The metalayer now and as `set_shape` would write it, refused as it would refuse.
fn dry(path: &Path, shape: &[i64]) -> Result<(Meta, Meta), String> {
    let file = frame::open(path).map_err(|e| message(path, &e))?;
    if file.is_truncated() {
        return Err(truncated(
            path,
            &file.header_path,
            file.header.info.frame_len,
            file.file_len,
        ));
    }
    let old = file.header.array_meta().map_err(|e| message(path, &e))?;
    let new = frame::reshaped_meta(&file.header, shape).map_err(|e| message(path, &e))?;
    Ok((old, new))
}

fn truncated(path: &Path, holder: &Path, frame_len: u64, file_len: u64) -> String {
    let holder = if holder == path {
        "the file".to_owned()
    } else {
        holder.display().to_string()
    };
    format!(
        "truncated: the header declares {frame_len} bytes, {holder} has {file_len}; \
         a frame cut short is not rewritten"
    )
}

/// The reason, without repeating the path the line starts with.
fn message(path: &Path, e: &FrameError) -> String {
    let file = e.path().unwrap_or(path);
    match e.kind() {
        FrameErrorKind::Io(source) if file == path => format!("cannot read or write: {source}"),
        FrameErrorKind::Io(source) => {
            format!("cannot read or write {}: {source}", file.display())
        }
        FrameErrorKind::TruncatedFrame {
            frame_len,
            file_len,
        } => truncated(path, file, *frame_len, *file_len),
        // The path, when the error has one, is the one of the line (or its
        // chunks.b2frame): say the rest.
        kind => match e.offset() {
            Some(at) => format!("{kind} at byte {at}"),
            None => kind.to_string(),
        },
    }
}
