//! `store put` and `store rm`: a DictStore or TreeStore (`.b2z`, `.b2d`) or an
//! EmbedStore (`.b2e`) made and changed as python-blosc2 makes it; a `.npy` (or stdin) imported first as `import`
//! imports it, into a file in the temporary directory removed once the node is in.

use std::path::{Path, PathBuf};

use b2nd_meta::container::{sniff, Sniffed, StoreWriter};
use b2nd_meta::io::Steps;

use super::import::{self, Import};
use crate::output::{say, Fatal};

pub const STORE_LONG: &str = "\
Make and change stores as python-blosc2 4.14.1 makes them, so that blosc2.open reads
the result as its own: a DictStore or TreeStore, a .b2z zip or a .b2d directory
holding embed.b2e and one .b2nd member per node; an EmbedStore, a .b2e frame holding
every node's frame in its data.

`store put` makes STORE when it is missing (a DictStore, or with --tree a TreeStore;
the suffix says .b2z, .b2d or .b2e) and puts IN under KEY, replacing what KEY held. IN
is a contiguous frame copied as it is (its chunks are not recompressed: an NDArray
.b2nd, an SChunk or ObjectArray .b2f, a BatchArray or ListArray .b2b, each a member of
that suffix), or a .npy file (- for stdin) imported with import's options. With --threshold BYTES, a node
whose array holds fewer bytes goes inside embed.b2e, as python's threshold puts it
(default 0: none). `store rm` removes KEY, wherever it is.

Keys are checked as python checks them: they start with '/', hold no '//', no
trailing '/', none of ':', NUL, tab, CR, LF; in a TreeStore a key naming a group or
under a leaf is refused. A node removed from an EmbedStore leaves its bytes behind,
unreachable, as python leaves them.

A crash leaves the old store or the new one: a .b2z and a .b2e are written whole beside
themselves and renamed over themselves (members and full chunks copied as they are); a
.b2d changes one file at a time, staged and renamed. With BLOSC_LOCKING set, or when
its .b2lock exists, the EmbedStore's lock (a .b2d's embed.b2e's) is held throughout, as
python-blosc2 holds it.";

pub const STORE_EXAMPLES: &str = "\
Examples:
  b2nd-meta store put data.b2z /temps temps.npy     make data.b2z, put a node
  b2nd-meta store put data.b2z /dir/a a.b2nd        copy a .b2nd in as it is
  b2nd-meta store put --tree t.b2d /g/x x.npy       a TreeStore directory, a group /g
  b2nd-meta store put nodes.b2e /a a.npy            an EmbedStore
  b2nd-meta store rm data.b2z /temps                remove a node";

/// What `store put` was given.
pub struct Put {
    pub store: PathBuf,
    pub key: String,
    pub tree: bool,
    /// Nodes of fewer bytes go inside embed.b2e.
    pub threshold: u64,
    /// The input and import's options (its `output` is set here).
    pub import: Import,
}

/// Puts `frame` under `key` of `store`, made with it when missing.
fn put_frame(args: &Put, frame: &Path) -> Result<(), String> {
    let (store, tree, key) = (&args.store, args.tree, &args.key);
    let steps = Steps::of_process();
    if store.symlink_metadata().is_err() {
        return StoreWriter::create_with_node_steps(store, tree, key, frame, steps, args.threshold)
            .map(drop)
            .map_err(|e| e.to_string());
    }
    let writer = StoreWriter::open_rw_with(store, steps)
        .map_err(|e| e.to_string())?
        .with_threshold(args.threshold);
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
    let done = put_frame(&args, &frame);
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
