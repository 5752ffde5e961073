//! `set-shape`: resize an array in place, within its chunk grid.

use std::io::Write;
use std::path::Path;

use b2nd_meta::frame::{self, FrameError, FrameErrorKind, ShapeChangeRefusal};
use b2nd_meta::Meta;

use crate::output::{emit_json, say, Fatal};
use crate::render::messages::{self, Access};

/// Resizes (or with `dry_run`, prints what would change); `Ok(false)` when refused,
/// after one line on stderr.
pub fn run(out: &mut impl Write, path: &Path, shape: &[i64], dry_run: bool) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let shape = match unsigned(path, shape) {
        Ok(shape) => shape,
        Err(line) => {
            say(&context, &line);
            return Ok(false);
        }
    };
    let shape = &shape[..];
    let result = if dry_run {
        dry(path, shape).map(Some)
    } else {
        frame::set_shape(crate::output::target(path), shape)
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
            say(&context, &line);
            Ok(false)
        }
    }
}

/// The shape as the library takes it (`u64`). A negative length is refused as the
/// library refused it when it took `i64`: after what does not read and after another
/// number of dimensions, so that the reason is the same as for any other shape.
fn unsigned(path: &Path, shape: &[i64]) -> Result<Vec<u64>, String> {
    let Some((axis, &len)) = shape.iter().enumerate().find(|&(_, &len)| len < 0) else {
        return Ok(shape.iter().map(|&len| len as u64).collect());
    };
    let file = frame::open(crate::output::source(path)).map_err(|e| message(path, &e))?;
    if file.is_truncated() {
        let (at, frame_len) = (&file.header_path, file.header.info.frame_len);
        let access = Access::Write;
        return Err(messages::truncated(
            path,
            at,
            frame_len,
            file.file_len,
            access,
        ));
    }
    let ndim = file
        .header
        .array_meta()
        .map_err(|e| message(path, &e))?
        .ndim();
    if ndim != shape.len() {
        let reason = ShapeChangeRefusal::Ndim {
            from: ndim,
            to: shape.len(),
        };
        return Err(FrameErrorKind::ShapeChange { reason }.to_string());
    }
    Err(format!(
        "cannot set the shape in place: the new length of axis {axis} is {len}; lengths \
         cannot be negative"
    ))
}

/// The metalayer now and as `set_shape` would write it, refused as it would refuse.
fn dry(path: &Path, shape: &[u64]) -> Result<(Meta, Meta), String> {
    let file = frame::open(crate::output::source(path)).map_err(|e| message(path, &e))?;
    if file.is_truncated() {
        let frame_len = file.header.info.frame_len;
        let at = &file.header_path;
        return Err(messages::truncated(
            path,
            at,
            frame_len,
            file.file_len,
            Access::Write,
        ));
    }
    let old = file.header.array_meta().map_err(|e| message(path, &e))?;
    let new = frame::reshaped_meta(&file.header, shape).map_err(|e| message(path, &e))?;
    Ok((old, new))
}

/// The reason, without repeating the path the line starts with.
fn message(path: &Path, e: &FrameError) -> String {
    messages::frame_error(path, e, Access::Write)
}
