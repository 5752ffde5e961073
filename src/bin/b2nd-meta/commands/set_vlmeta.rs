//! `set-vlmeta` and `del-vlmeta`: set or delete a variable-length metalayer (python's
//! `arr.vlmeta[NAME] = value`, `del arr.vlmeta[NAME]`), crash-consistently: of a frame,
//! or with `--key` of a store's node (or, `/`, of the store itself) through
//! `StoreWriter`.

use std::io::Write;
use std::path::Path;

use b2nd_meta::container::StoreWriter;
use b2nd_meta::io::Steps;
use b2nd_meta::value::Value;
use b2nd_meta::vlmeta::{self, VlmetaChange, VlmetaOptions, VlmetaPlan};
use serde_json::json;

use crate::output::{argument_or_stdin, emit_json, say, Fatal};
use crate::render::messages::{self, Access};

/// `set-vlmeta`: `Ok(false)` when refused, after one line on stderr.
pub fn set(
    out: &mut impl Write,
    path: &Path,
    key: Option<&str>,
    name: &str,
    json: &str,
    dry_run: bool,
) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let json = argument_or_stdin(json, &context)?;
    let value: Value = match serde_json::from_str(&json) {
        Ok(value) => value,
        Err(e) => {
            say(
                &context,
                &match messages::json_hint(&json) {
                    Some(hint) => format!("the new value is not JSON: {hint}"),
                    None => format!("the new value is not JSON of the mapping: {e}"),
                },
            );
            return Ok(false);
        }
    };
    let change = match VlmetaChange::set_value(name, &value) {
        Ok(change) => change,
        Err(e) => {
            say(&context, &format!("cannot encode the new value: {e}"));
            return Ok(false);
        }
    };
    write(out, path, key, &[change], dry_run)
}

/// `del-vlmeta`: `Ok(false)` when refused, after one line on stderr.
pub fn del(
    out: &mut impl Write,
    path: &Path,
    key: Option<&str>,
    name: &str,
    dry_run: bool,
) -> Result<bool, Fatal> {
    write(out, path, key, &[VlmetaChange::delete(name)], dry_run)
}

/// The change to node `key` of the store at `path` (`/`: the store's own vlmeta).
fn write_in_store(path: &Path, key: &str, changes: &[VlmetaChange]) -> Result<bool, Fatal> {
    let done = StoreWriter::open_rw_with(path, Steps::of_process()).and_then(|w| {
        let w = w.with_locking(crate::output::locking());
        match key {
            "/" => w.update_store_vlmeta(changes),
            _ => w.update_node_vlmeta(key, changes),
        }
    });
    match done {
        Ok(()) => Ok(true),
        Err(e) => {
            say(&path.to_string_lossy(), &e.to_string());
            Ok(false)
        }
    }
}

fn write(
    out: &mut impl Write,
    path: &Path,
    key: Option<&str>,
    changes: &[VlmetaChange],
    dry_run: bool,
) -> Result<bool, Fatal> {
    if let Some(key) = key {
        return write_in_store(path, key, changes);
    }
    let context = path.to_string_lossy().into_owned();
    let options = VlmetaOptions::default()
        .dry_run(dry_run)
        .locking(crate::output::locking());
    match vlmeta::update_vlmeta_with(path, changes, options) {
        Ok(plan) if dry_run => {
            emit_json(out, &plan_json(&plan))?;
            Ok(true)
        }
        Ok(_) => Ok(true),
        Err(e) => {
            let line = messages::frame_error(path, &e, Access::Write);
            say(&context, &line);
            Ok(false)
        }
    }
}

/// What a dry run prints.
fn plan_json(plan: &VlmetaPlan) -> serde_json::Value {
    json!({
        "added": plan.added,
        "replaced": plan.replaced,
        "deleted": plan.deleted,
        "names": plan.names,
        "changed": plan.changed,
        "trailer": {
            "old": {"offset": plan.old_trailer.0, "len": plan.old_trailer.1},
            "new": {"offset": plan.new_trailer.0, "len": plan.new_trailer.1},
        },
    })
}
