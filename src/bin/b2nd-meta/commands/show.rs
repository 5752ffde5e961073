//! `show PATH...`: what each path holds, one JSON line (or a summary for a person) per
//! frame; stores, bundles and the object kinds are listed by `show_store`, directories
//! looked into by `scan`. Each path is opened once: its header and trailer are read
//! under one shared lock. Everything the command decodes (vlmeta values, store chunks)
//! is spent from one budget.

use std::io::Write;
use std::path::{Path, PathBuf};

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::container::{self, ContainerError, ContainerErrorKind};
use b2nd_meta::frame::{self, FrameError, FrameErrorKind, FrameFile, Trailer};

use super::{scan, show_store, stdin};
use crate::output::{emit, emit_json, say, Outcome};
use crate::progress::Progress;
use crate::render::human;
use crate::render::messages::{self, Access};
use crate::render::report::{MetalayerReport, Options, RawContent, Report};

/// What `show` was asked: its paths (or the nodes `keys` of one store), how to print,
/// and the budget everything it decodes is spent from.
pub struct Request<'a> {
    pub paths: &'a [PathBuf],
    pub keys: &'a [String],
    pub human: bool,
    pub full_hex: bool,
    pub recursive: bool,
    pub budget: &'a DecodeBudget,
}

/// Shows every path (or the nodes `keys` of one store), a directory's frames, stores and
/// bundles in it; `Ok(false)` when any of them failed (each said on stderr).
pub fn run(out: &mut impl Write, req: &Request) -> Outcome {
    let (human, budget) = (req.human, req.budget);
    if !req.keys.is_empty() {
        return show_store::show_keys(out, req.paths, req.keys, human, budget);
    }
    let options = if req.full_hex {
        Options::FULL_HEX
    } else {
        Options::SHOW
    };
    let mut all_ok = true;
    let mut last_store = None;
    let mut progress = Progress::new();
    for path in req.paths {
        all_ok &= if path.as_os_str() == "-" {
            match stdin::copy()? {
                Some(copy) => show_path(out, copy.path(), Path::new("-"), human, options, budget)?,
                None => false,
            }
        } else if scan::is_plain_dir(path) {
            let mut show = |found: &Path| show_one(out, found, human, options, &mut None, budget);
            scan::scan(path, req.recursive, &mut progress, &mut show)?
        } else {
            show_one(out, path, human, options, &mut last_store, budget)?
        };
    }
    Ok(all_ok)
}

/// Shows what `path` holds: a frame, or a store's listing (`last_store`: the last store
/// shown, for the hint when a later path looks like one of its keys).
fn show_one<'p>(
    out: &mut impl Write,
    path: &'p Path,
    human: bool,
    options: Options,
    last_store: &mut Option<&'p Path>,
    budget: &DecodeBudget,
) -> Outcome {
    match container::open(crate::output::source(path).budget(budget.clone())) {
        Ok(c) if show_store::is_listed(&c) => {
            *last_store = Some(path);
            show_store::show(out, path, &c, None, human)
        }
        Ok(c) => match &c.info {
            Some(info) => {
                let trailer = info.trailer.as_ref();
                show_frame(out, &info.frame, trailer, path, human, options, budget)
            }
            None => show_path(out, path, path, human, options, budget),
        },
        Err(e) => match lock_timeout(&e) {
            // A lock held past --lock-timeout: said once, not waited for again.
            Some(e) => {
                let message = messages::frame_error(path, e, Access::Read);
                say(&path.to_string_lossy(), &message);
                Ok(false)
            }
            // Said as a frame's error, in the voice of every command that takes a
            // frame: the frame is opened again, on this path only.
            None => {
                let shown = show_path(out, path, path, human, options, budget)?;
                if let Some(store) = last_store.filter(|_| !shown) {
                    show_store::hint_key(store, path);
                }
                Ok(shown)
            }
        },
    }
}

/// The frame error of a lock waited for past the timeout, when `e` is one.
fn lock_timeout(e: &ContainerError) -> Option<&FrameError> {
    match e.kind() {
        ContainerErrorKind::Frame(f) if matches!(f.kind(), FrameErrorKind::LockTimeout { .. }) => {
            Some(f)
        }
        _ => None,
    }
}

/// Shows the frame at `path`, naming it `shown` (`-` for stdin) in the output.
pub fn show_path(
    out: &mut impl Write,
    path: &Path,
    shown: &Path,
    human: bool,
    options: Options,
    budget: &DecodeBudget,
) -> Outcome {
    match frame::open_with_trailer(crate::output::source(path)) {
        Ok((file, trailer)) => {
            show_frame(out, &file, trailer.as_ref(), shown, human, options, budget)
        }
        Err(e) => {
            let context = shown.to_string_lossy();
            let line = messages::not_a_frame(path)
                .unwrap_or_else(|| messages::frame_error(path, &e, Access::Read));
            say(&context, &line);
            Ok(false)
        }
    }
}

/// Shows `file` and its `trailer`, naming it `shown`; `Ok(false)` when its array
/// metalayer does not decode or the file is cut short (each said on stderr).
fn show_frame(
    out: &mut impl Write,
    file: &FrameFile,
    trailer: Result<&Trailer, &FrameError>,
    shown: &Path,
    human: bool,
    options: Options,
    budget: &DecodeBudget,
) -> Outcome {
    let context = shown.to_string_lossy().into_owned();
    let facts = Report::of(shown, file, trailer, options, budget);
    if human {
        emit(out, &human::render(&facts))?;
    } else {
        emit_json(out, &facts)?;
    }
    let mut ok = true;
    for (name, layer) in &facts.metalayers.0 {
        // A user metalayer need not be msgpack: its "error" is information, not a failure.
        if let MetalayerReport::Raw(RawContent {
            error: Some(e),
            array: true,
            ..
        }) = layer
        {
            say(
                &context,
                &format!("metalayer {name:?} does not decode: {e}"),
            );
            ok = false;
        }
    }
    if file.is_truncated() {
        let frame_len = file.header.info.frame_len;
        let (holder, file_len) = (&file.header_path, file.file_len);
        // The frame's path: the file holding the header, or a sparse frame's directory.
        let path = match file.header.info.kind {
            frame::FrameKind::Sparse => holder.parent().unwrap_or(holder),
            _ => holder,
        };
        let line = messages::truncated(path, holder, frame_len, file_len, Access::Read);
        say(&context, &line);
        ok = false;
    }
    Ok(ok)
}
