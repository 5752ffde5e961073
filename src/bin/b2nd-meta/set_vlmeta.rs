//! `set-vlmeta` and `del-vlmeta`: set or delete a variable-length metalayer (python's
//! `arr.vlmeta[NAME] = value`, `del arr.vlmeta[NAME]`), crash-consistently.

use std::io::Write;
use std::path::Path;

use b2nd_meta::value::Value;
use b2nd_meta::vlmeta::{self, VlmetaChange, VlmetaOptions, VlmetaPlan};
use serde_json::json;

use crate::messages::{self, Access};
use crate::{argument_or_stdin, emit_json, report, Fatal};

pub const SET_VLMETA_LONG: &str = "\
Set the variable-length metalayer (vlmeta) NAME of a Blosc2 frame to a value given as
JSON, in the mapping `show` prints ({\"$bin\": ...}, {\"$complex\": ...}, {\"$set\": ...},
{\"$ndarray\": ...}, {\"$ext\": ...} read back): python-blosc2's arr.vlmeta[NAME] = value.
The value is packed as python-blosc2 packs it (msgpack) and stored as one Blosc2 chunk
(LZ4, or as it is when that does not pay) that python-blosc2 and C-Blosc2 read.

The new trailer is written past the live one and the header's frame_len flipped to it in
one small write, so a crash leaves the old vlmeta or the new one; chunks, the offsets
index and the metalayers are never written. At most 16 entries, names of at most 31
bytes. With BLOSC_LOCKING set, or when the frame's .b2lock sidecar exists, C-Blosc2's
lock protocol is followed. --dry-run prints what would change, as JSON, and writes
nothing. - reads the JSON from stdin.";

pub const SET_VLMETA_EXAMPLES: &str = "\
Examples:
  b2nd-meta set-vlmeta array.b2nd units '\"m/s\"'
  b2nd-meta set-vlmeta --dry-run array.b2nd attrs '{\"scale\": 0.5, \"tags\": [\"a\", \"b\"]}'
  echo '[1, 2, 3]' | b2nd-meta set-vlmeta sparse_dir.b2nd mylist -";

pub const DEL_VLMETA_LONG: &str = "\
Delete the variable-length metalayer (vlmeta) NAME of a Blosc2 frame: python-blosc2's
del arr.vlmeta[NAME]. An unknown NAME is refused. Written as set-vlmeta writes
(crash-consistent, lock protocol); --dry-run prints what would change and writes nothing.";

pub const DEL_VLMETA_EXAMPLES: &str = "\
Examples:
  b2nd-meta del-vlmeta array.b2nd units
  b2nd-meta del-vlmeta --dry-run array.b2nd units";

/// `set-vlmeta`: `Ok(false)` when refused, after one line on stderr.
pub fn set(
    out: &mut impl Write,
    path: &Path,
    name: &str,
    json: &str,
    dry_run: bool,
) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let json = argument_or_stdin(json, &context)?;
    let value: Value = match serde_json::from_str(&json) {
        Ok(value) => value,
        Err(e) => {
            report(
                &context,
                &format!("the new value is not JSON of the mapping: {e}"),
            );
            return Ok(false);
        }
    };
    let change = match VlmetaChange::set_value(name, &value) {
        Ok(change) => change,
        Err(e) => {
            report(&context, &format!("cannot encode the new value: {e}"));
            return Ok(false);
        }
    };
    write(out, path, &[change], dry_run)
}

/// `del-vlmeta`: `Ok(false)` when refused, after one line on stderr.
pub fn del(out: &mut impl Write, path: &Path, name: &str, dry_run: bool) -> Result<bool, Fatal> {
    write(out, path, &[VlmetaChange::delete(name)], dry_run)
}

fn write(
    out: &mut impl Write,
    path: &Path,
    changes: &[VlmetaChange],
    dry_run: bool,
) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let options = VlmetaOptions::default().dry_run(dry_run);
    match vlmeta::update_vlmeta_with(path, changes, options) {
        Ok(plan) if dry_run => {
            emit_json(out, &plan_json(&plan))?;
            Ok(true)
        }
        Ok(_) => Ok(true),
        Err(e) => {
            let line = messages::frame_error(path, &e, Access::Write);
            report(&context, &line);
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
