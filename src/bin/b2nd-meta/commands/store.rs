//! `store put` and `store rm`: a DictStore or TreeStore (`.b2z`, `.b2d`) made and
//! changed as python-blosc2 makes it; a `.npy` (or stdin) imported first as `import`
//! imports it, into a file in the temporary directory removed once the node is in.

use std::path::{Path, PathBuf};

use b2nd_meta::container::{sniff, Sniffed, StoreWriter};
use b2nd_meta::io::Steps;

use super::import::{self, Import};
use crate::output::{say, Fatal};

pub const STORE_LONG: &str = "\
Make and change DictStores and TreeStores as python-blosc2 4.14.1 makes them, so that
blosc2.open reads the result as its own: a .b2z zip or a .b2d directory holding
embed.b2e and one .b2nd member per node (python's default threshold=0: no node is
embedded).

`store put` makes STORE when it is missing (a DictStore, or with --tree a TreeStore;
the suffix says .b2z or .b2d) and puts IN under KEY, replacing what KEY held. IN is a
contiguous .b2nd, copied as it is (its chunks are not recompressed), or a .npy file (-
for stdin) imported with import's options. `store rm` removes KEY.

Keys are checked as python checks them: they start with '/', hold no '//', no
trailing '/', none of ':', NUL, tab, CR, LF; in a TreeStore a key naming a group or
under a leaf is refused. A node embedded in embed.b2e (python's threshold > 0) is not
replaced nor removed here.

A crash leaves the old store or the new one: a .b2z is written whole beside itself and
renamed over itself (its members copied as they are, not recompressed); a .b2d changes
one member file at a time, staged and renamed.";

pub const STORE_EXAMPLES: &str = "\
Examples:
  b2nd-meta store put data.b2z /temps temps.npy     make data.b2z, put a node
  b2nd-meta store put data.b2z /dir/a a.b2nd        copy a .b2nd in as it is
  b2nd-meta store put --tree t.b2d /g/x x.npy       a TreeStore directory, a group /g
  b2nd-meta store rm data.b2z /temps                remove a node";

/// What `store put` was given.
pub struct Put {
    pub store: PathBuf,
    pub key: String,
    pub tree: bool,
    /// The input and import's options (its `output` is set here).
    pub import: Import,
}

/// Puts `frame` under `key` of `store`, made with it when missing.
fn put_frame(store: &Path, tree: bool, key: &str, frame: &Path) -> Result<(), String> {
    let steps = Steps::of_process();
    if store.symlink_metadata().is_err() {
        return StoreWriter::create_with_node_steps(store, tree, key, frame, steps)
            .map(drop)
            .map_err(|e| e.to_string());
    }
    let writer = StoreWriter::open_rw_with(store, steps).map_err(|e| e.to_string())?;
    if tree && !writer.is_tree() {
        return Err("--tree: this store is a DictStore, not a TreeStore".into());
    }
    writer.put(key, frame).map_err(|e| e.to_string())
}

fn is_frame(path: &Path) -> bool {
    path.as_os_str() != "-" && matches!(sniff(path), Ok(Sniffed::Frame))
}

/// `store put`.
pub fn put(mut args: Put) -> Result<bool, Fatal> {
    if let Err(line) = StoreWriter::check_key(&args.key) {
        say("store put", &line.to_string());
        return Ok(false);
    }
    let input = args.import.input.clone();
    let imported = !is_frame(&input);
    let frame = match imported {
        false => input,
        true => {
            // Imported where a crash's leftover is no store's business: the node is
            // copied from it, never renamed.
            let name = args.store.file_name().unwrap_or_default().to_string_lossy();
            let temp =
                std::env::temp_dir().join(format!(".{name}.put.{}.b2nd", std::process::id()));
            args.import.output = temp.clone();
            args.import.force = true;
            args.import.sparse = false;
            if !import::run(&args.import)? {
                let _ = std::fs::remove_file(&temp);
                return Ok(false);
            }
            temp
        }
    };
    let done = put_frame(&args.store, args.tree, &args.key, &frame);
    if imported {
        let _ = std::fs::remove_file(&frame);
    }
    match done {
        Ok(()) => Ok(true),
        Err(line) => {
            say("store put", &line);
            Ok(false)
        }
    }
}

/// `store rm`.
pub fn rm(store: &Path, key: &str) -> Result<bool, Fatal> {
    let done = StoreWriter::open_rw_with(store, Steps::of_process())
        .and_then(|w| w.remove(key))
        .map_err(|e| e.to_string());
    match done {
        Ok(()) => Ok(true),
        Err(line) => {
            say("store rm", &line);
            Ok(false)
        }
    }
}
