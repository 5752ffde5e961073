//! `show` on stores, bundles and the object kinds: the container's own record, then one
//! JSON line per entry with its `"key"`; `--human` draws a tree (key, kind, shape,
//! dtype, chunks) with attrs indented; `show PATH --key KEY` shows one node.

use std::borrow::Cow;
use std::io::Write;
use std::path::{Path, PathBuf};

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::container::{self, Container, Entry, Kind};

use crate::output::{emit, emit_json, fatal, json_line, say, stdout_error, Fatal};
use crate::render::listing::{self, Line, NodeJson, Record};

/// Whether `show` lists `c` as a container (a store or bundle, or a frame of a kind
/// python-blosc2 names), rather than print it as a plain NDArray or SChunk frame.
pub fn is_listed(c: &Container) -> bool {
    !matches!(c.kind, Kind::NDArray | Kind::SChunk)
}

/// `show PATH --key KEY...`: the nodes `keys` of the one store or bundle `paths` holds,
/// one line each; `Ok(false)` when PATH is not a store or a key is not in it (each said
/// on stderr).
pub fn show_keys(
    out: &mut impl Write,
    paths: &[PathBuf],
    keys: &[String],
    human: bool,
    budget: &DecodeBudget,
) -> Result<bool, Fatal> {
    let [path] = paths else {
        return Err(fatal(
            "show",
            format!(
                "--key names a node of one store or bundle: expected one PATH, found {}",
                paths.len()
            ),
        ));
    };
    let context = path.to_string_lossy().into_owned();
    let c = match container::open(crate::output::source(path).budget(budget.clone())) {
        Ok(c) if is_store(&c.kind) => c,
        Ok(c) => {
            say(
                &context,
                &format!(
                    "this {} holds no nodes: --key names a node of a store or bundle \
                     (.b2e, .b2d, .b2z)",
                    c.kind.name()
                ),
            );
            return Ok(false);
        }
        Err(e) => {
            say(&context, &e.to_string());
            return Ok(false);
        }
    };
    let mut all_ok = true;
    for key in keys {
        all_ok &= show(out, path, &c, Some(key), human)?;
    }
    Ok(all_ok)
}

/// After `path` failed to show following the store `store`: when `path` looks like one
/// of its keys, says how to show it (`show STORE KEY` is not a form: `path` is a path).
pub fn hint_key(store: &Path, path: &Path) {
    let key = path.to_string_lossy();
    if key.starts_with('/') && !path.exists() {
        say(
            &key,
            &format!(
                "to show the node {key} of {}, run: b2nd-meta show {} --key {key}",
                store.display(),
                store.display()
            ),
        );
    }
}

/// Whether `kind` is a store or bundle, whose nodes `--key` names.
pub fn is_store(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::EmbedStore | Kind::DictStore | Kind::TreeStore | Kind::CTable | Kind::RemoteStore
    )
}

/// The key of `c`'s node `key`: as given, or with the leading `/` it was given
/// without (`temps` for `/temps`) when only that one is in `c`.
pub fn node_key<'k>(c: &Container, key: &'k str) -> Cow<'k, str> {
    if !key.starts_with('/') && c.find(key).is_none() {
        let rooted = format!("/{key}");
        if c.find(&rooted).is_some() {
            return Cow::Owned(rooted);
        }
    }
    Cow::Borrowed(key)
}

/// Shows `c` (or its node `key`); `Ok(false)` when any entry did not read (each one
/// also said on stderr).
pub fn show(
    out: &mut impl Write,
    path: &Path,
    c: &Container,
    key: Option<&str>,
    human: bool,
) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    if let Some(key) = key {
        let Some(entry) = c.find(&node_key(c, key)) else {
            say(
                &context,
                &format!("no node {key:?} in this {}", c.kind.name()),
            );
            return Ok(false);
        };
        let one = std::slice::from_ref(&entry);
        return show_entries(out, &context, c, one, human, None);
    }
    if !is_store(&c.kind) {
        // A single frame of a kind python names: its report, with the kind.
        let Some(info) = &c.info else {
            return Ok(true);
        };
        return match human {
            true => emit(out, &listing::frame_text(&context, info, c.budget())),
            false => emit_json(out, &NodeJson::of(info, c.budget())),
        }
        .map(|()| true);
    }
    let detail = (c.kind == Kind::CTable)
        .then(|| c.node_info("/_meta").ok())
        .flatten()
        .map(|m| listing::vlmeta_value(&m, c.budget()));
    if human {
        let root = c.find("/__vlmeta__").and_then(|r| c.node_info(&r.key).ok());
        emit(
            out,
            &listing::store_text(&context, c, root.as_ref(), detail.as_ref()),
        )?;
    } else {
        emit_json(out, &Record::of(context.clone(), c, detail))?;
    }
    let tree = (c.kind == Kind::TreeStore).then_some(1);
    show_entries(out, &context, c, c.entries(), human, tree)
}

fn show_entries(
    out: &mut impl Write,
    context: &str,
    c: &Container,
    entries: &[Entry],
    human: bool,
    tree: Option<usize>,
) -> Result<bool, Fatal> {
    // One buffer for every line: a store's listing is one output, written in 64 KiB
    // writes rather than one write (and one buffer) per line.
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut ok = true;
    for entry in entries {
        let info = c.entry_info(entry);
        if let Err(e) = &info {
            say(context, &format!("node {:?}: {e}", entry.key));
            ok = false;
        }
        if human {
            let line = listing::tree_line(entry, &info, tree, c.budget());
            writeln!(buffered, "{line}").map_err(stdout_error)?;
        } else {
            json_line(&mut buffered, &Line::of(entry, &info, c.budget()))?;
        }
    }
    buffered.flush().map_err(stdout_error)?;
    Ok(ok)
}
