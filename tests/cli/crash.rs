//! Every writing command stopped at every step of its write (each write, sync, length
//! set, rename and removal; a write also half done): `B2ND_META_CRASH_AFTER=n` makes the
//! binary (built with `repo-tests`) abort at its `n`-th step, leaving what `kill -9`
//! would. After each stop the path holds the old state or the new one, complete (every
//! value, metalayer and vlmeta entry read back), and the same command run again
//! completes and leaves no staging behind: nothing a crash leaves trips a later command.
//!
//! Writers: import (a new contiguous and a new sparse frame, each replacing one),
//! export (new, and replacing a file), write, resize and append (contiguous and
//! sparse), set-shape, set-meta, set-vlmeta and del-vlmeta (on a frame with data, a
//! sparse one, and one without data, which is replaced whole); store put and rm on every
//! store kind, and set-vlmeta and del-vlmeta --key on a store's nodes and on the store.

use std::path::{Path, PathBuf};
use std::process::Command;

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::io::is_staging_name;
use b2nd_meta::{container, frame};

use super::{temp_path, BIN};
use crate::common::data_path;
use crate::common::scratch::sha256_hex;

/// A directory of its own for one case.
struct Case(PathBuf);

impl Case {
    fn new(tag: &str) -> Case {
        let dir = temp_path(&format!("crash-{tag}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Case(dir)
    }
}

impl Drop for Case {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Copies a file or a sparse frame's directory.
fn copy(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let _ = std::fs::remove_file(to);
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// What a frame holds, as one digest: its metalayers, its vlmeta and every value; or
/// what a plain file holds; or that nothing is there.
fn state(path: &Path) -> String {
    if !path.exists() {
        return "absent".into();
    }
    if path
        .extension()
        .is_some_and(|e| e == "b2z" || e == "b2d" || e == "b2e")
    {
        return store_state(path);
    }
    let Ok(f) = frame::open(path) else {
        return format!("file {}", sha256_hex(&std::fs::read(path).unwrap()));
    };
    let mut summary = format!("{:?}", f.header.metalayers);
    let trailer = f
        .trailer()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // What the vlmeta holds, not where: a write that runs again moves the trailer.
    let vlmeta: Vec<(&str, &[u8])> = trailer
        .vlmetalayers
        .iter()
        .map(|m| (m.name.as_str(), m.content.as_slice()))
        .collect();
    summary += &format!("{vlmeta:?}");
    let array = Array::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut values = vec![0u8; array.len() as usize * array.itemsize()];
    array
        .read_into(&Selection::all(), &mut values)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    format!(
        "frame {}",
        sha256_hex(&[summary.as_bytes(), &values].concat())
    )
}

/// What a store holds, as one digest: its kind, its keys, every leaf's values and
/// vlmeta, a TreeStore's vlmeta (its `/__vlmeta__` node) and an EmbedStore's own.
fn store_state(path: &Path) -> String {
    let store = container::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut summary = format!("{:?}", store.kind);
    let vlmeta = |info: &container::NodeInfo| -> String {
        let trailer = info.trailer.as_ref().unwrap();
        let names = trailer.names().filter(|n| *n != "estore_metadata");
        names
            .map(|n| format!("{n}={:?};", info.vlmeta(n)))
            .collect()
    };
    if let Ok(info) = store.node_info(container::TREE_VLMETA_KEY) {
        summary += &vlmeta(&info);
    }
    if store.kind == container::Kind::EmbedStore {
        let frame = frame::open(path).unwrap();
        let trailer = frame.trailer().unwrap();
        summary += &format!("{:?}", trailer.names().collect::<Vec<_>>());
    }
    for entry in store.entries() {
        summary += &entry.key;
        if entry.role != container::Role::Leaf {
            continue;
        }
        let info = store
            .node_info(&entry.key)
            .unwrap_or_else(|e| panic!("{}#{}: {e}", path.display(), entry.key));
        let values = match info.kind {
            container::Kind::NDArray => Array::open_node(&store, &entry.key)
                .unwrap_or_else(|e| panic!("{}#{}: {e}", path.display(), entry.key))
                .read_bytes(&Selection::all())
                .unwrap(),
            // An SChunk and the others: their data's bytes.
            _ => {
                let mut data = info.frame.data_reader().unwrap();
                let n = data.nbytes() as usize;
                data.read_range(0, n).unwrap()
            }
        };
        summary += info.kind.name();
        summary += &vlmeta(&info);
        summary += &sha256_hex(&values);
    }
    format!("store {}", sha256_hex(summary.as_bytes()))
}

/// Copies a directory tree (a `.b2d`).
fn copy_tree(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let _ = std::fs::remove_file(to);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        match e.path().is_dir() {
            true => copy_tree(&e.path(), &to.join(e.file_name())),
            false => drop(std::fs::copy(e.path(), to.join(e.file_name())).unwrap()),
        }
    }
}

/// A store of tests/data/stores (a snapshot python read) as `name`, and `in.npy`.
fn with_store(snapshot: &'static str, name: &'static str) -> impl Fn(&Path) {
    move |dir: &Path| {
        with_npy(dir);
        let from = data_path(&format!("stores/{snapshot}"));
        match from.is_dir() {
            true => copy_tree(&from, &dir.join(name)),
            false => copy(&from, &dir.join(name)),
        }
    }
}

/// Nothing at `name` yet, and `in.npy`.
fn without(name: &'static str) -> impl Fn(&Path) {
    move |dir: &Path| {
        let _ = std::fs::remove_dir_all(dir.join(name));
        let _ = std::fs::remove_file(dir.join(name));
        with_npy(dir);
    }
}

/// Staging names in `dir` (and in a sparse frame's directory inside it).
fn stagings(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        if is_staging_name(&name) {
            found.push(name);
        } else if e.path().is_dir() {
            found.extend(stagings(&e.path()));
        }
    }
    found
}

fn run(args: &[String], crash_after: Option<u64>) -> Option<i32> {
    let mut cmd = Command::new(BIN);
    cmd.args(args).env_remove("BLOSC_LOCKING");
    if let Some(n) = crash_after {
        cmd.env("B2ND_META_CRASH_AFTER", n.to_string());
    }
    cmd.output().unwrap().status.code()
}

/// Runs `args` (with `{}` for the case's directory) on a state `prepare` makes, stopped
/// at every step in turn; returns how many stops there were.
fn every_stop(tag: &str, target: &str, prepare: &dyn Fn(&Path), args: &[&str]) -> u64 {
    let case = Case::new(tag);
    let dir = &case.0;
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("{}", dir.to_str().unwrap()))
        .collect();
    let out = dir.join(target);
    prepare(dir);
    let old = state(&out);
    assert_eq!(run(&args, None), Some(0), "{tag}: {args:?}");
    let new = state(&out);
    assert_ne!(old, new, "{tag}: the command changes nothing");
    assert!(stagings(dir).is_empty(), "{tag}: {:?}", stagings(dir));
    for n in 0..400 {
        prepare(dir);
        let code = run(&args, Some(n));
        if code == Some(0) {
            assert_eq!(state(&out), new, "{tag}: not stopped at {n}");
            assert!(n > 1, "{tag}: only {n} steps");
            return n;
        }
        // Aborted (no exit code): a signal, as kill -9 is.
        assert_eq!(code, None, "{tag}: step {n} exited instead of stopping");
        let now = state(&out);
        assert!(
            now == old || now == new,
            "{tag}: stopped at step {n}: {now}"
        );
        // The same command again completes (or, its result there already, refuses to
        // replace it without --force), and no staging is left behind. An append whose
        // result is there already appends again: from the old state it gives the new.
        let again = run(&args, None);
        assert!(
            again == Some(0) || (again == Some(1) && now == new),
            "{tag}: again after step {n}: {again:?}"
        );
        if !(args[0] == "append" && now == new) {
            assert_eq!(state(&out), new, "{tag}: again after step {n}");
        }
        assert!(
            stagings(dir).is_empty(),
            "{tag}: after step {n}: {:?}",
            stagings(dir)
        );
    }
    panic!("{tag}: more than 400 steps");
}

fn with_npy(dir: &Path) {
    std::fs::copy(data_path("npy/v1_f8.npy"), dir.join("in.npy")).unwrap();
}

fn with(base: &'static str, name: &'static str) -> impl Fn(&Path) {
    move |dir: &Path| {
        with_npy(dir);
        copy(
            &data_path(&format!("vlmeta_write/base/{base}")),
            &dir.join(name),
        );
    }
}

/// python-blosc2's frame with the user metalayer `user` = `{"answer": 42}`.
fn with_user_meta(dir: &Path) {
    std::fs::copy(data_path("frame/usermeta.b2nd"), dir.join("a.b2nd")).unwrap();
}

/// A `.npy` of `shape`'s int32 values 100, 101, ...
fn npy_i4(path: &Path, shape: &[usize]) {
    crate::common::npy::write_i4(path, shape, |i| 100 + i);
}

/// python-blosc2's 6x10 int32 array (`base`, as `name`), and rows to write: `row.npy`
/// (10 values) and `rows.npy` (2x10).
fn with_rows(base: &'static str, name: &'static str) -> impl Fn(&Path) {
    move |dir: &Path| {
        with(base, name)(dir);
        npy_i4(&dir.join("row.npy"), &[10]);
        npy_i4(&dir.join("rows.npy"), &[2, 10]);
    }
}

/// A writer: its name, the path it changes, how its directory starts, its arguments.
type Writer<'a> = (&'a str, &'a str, Box<dyn Fn(&Path)>, Vec<&'a str>);

/// One line a writer: what it starts from, what it runs.
#[test]
fn every_writer_stopped_at_every_step_leaves_the_old_state_or_the_new() {
    let clean = |dir: &Path| {
        let _ = std::fs::remove_dir_all(dir.join("out.b2nd"));
        let _ = std::fs::remove_file(dir.join("out.b2nd"));
        with_npy(dir);
    };
    let cases: Vec<Writer> = vec![
        (
            "import",
            "out.b2nd",
            Box::new(clean),
            vec!["import", "{}/in.npy", "{}/out.b2nd", "--chunks", "3,10"],
        ),
        (
            "import-sparse",
            "out.b2nd",
            Box::new(clean),
            vec![
                "import",
                "{}/in.npy",
                "{}/out.b2nd",
                "--sparse",
                "--chunks",
                "3,10",
            ],
        ),
        (
            "import-force",
            "a.b2nd",
            Box::new(with("4.14.1.b2nd", "a.b2nd")),
            vec![
                "import",
                "{}/in.npy",
                "{}/a.b2nd",
                "--force",
                "--chunks",
                "3,10",
            ],
        ),
        (
            "import-force-sparse",
            "a.b2nd",
            Box::new(with("4.14.1_sparse.b2nd", "a.b2nd")),
            vec![
                "import",
                "{}/in.npy",
                "{}/a.b2nd",
                "--force",
                "--sparse",
                "--chunks",
                "3,10",
            ],
        ),
        (
            "export",
            "x.npy",
            Box::new(with("4.14.1.b2nd", "a.b2nd")),
            vec!["export", "{}/a.b2nd", "-o", "{}/x.npy", "--force"],
        ),
        (
            "export-over",
            "in.npy",
            Box::new(with("4.14.1.b2nd", "a.b2nd")),
            vec!["export", "{}/a.b2nd", "-o", "{}/in.npy", "--force"],
        ),
        (
            "write",
            "a.b2nd",
            Box::new(with_rows("4.14.1.b2nd", "a.b2nd")),
            vec!["write", "{}/a.b2nd", "--slice", "1:5", "{}/row.npy"],
        ),
        (
            "write-sparse",
            "a.b2nd",
            Box::new(with_rows("4.14.1_sparse.b2nd", "a.b2nd")),
            vec!["write", "{}/a.b2nd", "--slice", "::2", "{}/row.npy"],
        ),
        (
            "resize",
            "a.b2nd",
            Box::new(with_rows("4.14.1.b2nd", "a.b2nd")),
            vec!["resize", "{}/a.b2nd", "4,13"],
        ),
        (
            "resize-sparse",
            "a.b2nd",
            Box::new(with_rows("4.14.1_sparse.b2nd", "a.b2nd")),
            vec!["resize", "{}/a.b2nd", "8,7"],
        ),
        (
            "resize-empty",
            "a.b2nd",
            Box::new(with_rows("4.14.1.b2nd", "a.b2nd")),
            vec!["resize", "{}/a.b2nd", "0,10"],
        ),
        (
            "resize-empty-sparse",
            "a.b2nd",
            Box::new(with_rows("4.14.1_sparse.b2nd", "a.b2nd")),
            vec!["resize", "{}/a.b2nd", "0,10"],
        ),
        (
            "append",
            "a.b2nd",
            Box::new(with_rows("4.14.1.b2nd", "a.b2nd")),
            vec!["append", "{}/a.b2nd", "{}/rows.npy"],
        ),
        (
            "append-sparse",
            "a.b2nd",
            Box::new(with_rows("4.14.1_sparse.b2nd", "a.b2nd")),
            vec!["append", "{}/a.b2nd", "{}/rows.npy"],
        ),
        (
            "set-shape",
            "a.b2nd",
            Box::new(with("4.14.1.b2nd", "a.b2nd")),
            vec!["set-shape", "{}/a.b2nd", "5,9"],
        ),
        (
            "set-meta",
            "a.b2nd",
            Box::new(with_user_meta),
            vec!["set-meta", "{}/a.b2nd", "user", r#"{"answer": 43}"#],
        ),
        (
            "set-vlmeta",
            "a.b2nd",
            Box::new(with("4.14.1.b2nd", "a.b2nd")),
            vec!["set-vlmeta", "{}/a.b2nd", "note", "\"new\""],
        ),
        (
            "set-vlmeta-sparse",
            "a.b2nd",
            Box::new(with("4.14.1_sparse.b2nd", "a.b2nd")),
            vec!["set-vlmeta", "{}/a.b2nd", "note", "[1,2,3]"],
        ),
        (
            "set-vlmeta-no-data",
            "a.b2nd",
            Box::new(with("4.14.1_empty.b2nd", "a.b2nd")),
            vec!["set-vlmeta", "{}/a.b2nd", "note", "1"],
        ),
        (
            "del-vlmeta",
            "a.b2nd",
            Box::new(with("4.14.1.b2nd", "a.b2nd")),
            vec!["del-vlmeta", "{}/a.b2nd", "existing"],
        ),
        (
            "del-vlmeta-no-data",
            "a.b2nd",
            Box::new(with("4.14.1_empty.b2nd", "a.b2nd")),
            vec!["del-vlmeta", "{}/a.b2nd", "existing"],
        ),
    ];
    let mut total = 0;
    for (tag, target, prepare, args) in &cases {
        let steps = every_stop(tag, target, &**prepare, args);
        eprintln!("{tag}: stopped at each of {steps} steps");
        total += steps;
    }
    assert!(total > 100, "{total}");
}

/// `store put` and `store rm` on each kind (.b2z and .b2d, DictStore and TreeStore):
/// a new store, a node added, a node replaced, a node removed.
#[test]
fn store_put_and_rm_stopped_at_every_step_leave_the_old_store_or_the_new() {
    let big = data_path("containers/blosc2-4.14.1/dict.b2d/dir1/big.b2nd");
    let big = big.to_str().unwrap();
    let cases: Vec<Writer> = vec![
        (
            "store-put-new-zip",
            "s.b2z",
            Box::new(without("s.b2z")),
            vec![
                "store",
                "put",
                "{}/s.b2z",
                "/a",
                "{}/in.npy",
                "--chunks",
                "3,10",
            ],
        ),
        (
            "store-put-new-tree-dir",
            "t.b2d",
            Box::new(without("t.b2d")),
            vec!["store", "put", "--tree", "{}/t.b2d", "/g/a", "{}/in.npy"],
        ),
        (
            "store-put-zip",
            "s.b2z",
            Box::new(with_store("dict_zip/step_13.b2z", "s.b2z")),
            vec!["store", "put", "{}/s.b2z", "/g/k9", big],
        ),
        (
            "store-put-replace-tree-zip",
            "t.b2z",
            Box::new(with_store("tree_zip/step_17.b2z", "t.b2z")),
            vec!["store", "put", "{}/t.b2z", "/g/k3", "{}/in.npy"],
        ),
        (
            "store-put-replace-dir",
            "s.b2d",
            Box::new(with_store("dict_dir/step_15.b2d", "s.b2d")),
            vec!["store", "put", "{}/s.b2d", "/g/k2", big],
        ),
        (
            "store-put-tree-dir",
            "t.b2d",
            Box::new(with_store("tree_dir/step_16.b2d", "t.b2d")),
            vec!["store", "put", "{}/t.b2d", "/h/new", "{}/in.npy"],
        ),
        (
            "store-rm-tree-zip",
            "t.b2z",
            Box::new(with_store("tree_zip/step_17.b2z", "t.b2z")),
            vec!["store", "rm", "{}/t.b2z", "/g/k3"],
        ),
        (
            "store-rm-dict-zip",
            "s.b2z",
            Box::new(with_store("dict_zip/step_13.b2z", "s.b2z")),
            vec!["store", "rm", "{}/s.b2z", "/g/k2"],
        ),
        (
            "store-rm-dir",
            "s.b2d",
            Box::new(with_store("dict_dir/step_15.b2d", "s.b2d")),
            vec!["store", "rm", "{}/s.b2d", "/g/k2"],
        ),
        (
            "store-rm-tree-dir",
            "t.b2d",
            Box::new(with_store("tree_dir/step_16.b2d", "t.b2d")),
            vec!["store", "rm", "{}/t.b2d", "/k0"],
        ),
    ];
    let mut total = 0;
    for (tag, target, prepare, args) in &cases {
        let steps = every_stop(tag, target, &**prepare, args);
        eprintln!("{tag}: stopped at each of {steps} steps");
        total += steps;
    }
    assert!(total > 100, "{total}");
}

/// `store put` and `store rm` on an EmbedStore (.b2e: made, a node added, replaced,
/// removed, on a store of several chunks too) and on nodes inside a store's embed.b2e
/// (--threshold): put there in a .b2z and a .b2d, moved out of it and into it, removed
/// from it.
#[test]
fn embedded_nodes_put_and_removed_stopped_at_every_step_leave_the_old_store_or_the_new() {
    let big = data_path("stores/inputs/embed_big_r3.b2nd");
    let big = big.to_str().unwrap();
    let schunk = data_path("containers/blosc2-4.14.1/schunk.b2f");
    let schunk = schunk.to_str().unwrap();
    let cases: Vec<Writer> = vec![
        (
            "store-put-new-b2e",
            "e.b2e",
            Box::new(without("e.b2e")),
            vec!["store", "put", "{}/e.b2e", "/a", "{}/in.npy"],
        ),
        (
            "store-put-b2e",
            "e.b2e",
            Box::new(with_store("embed_file/step_11.b2e", "e.b2e")),
            vec!["store", "put", "{}/e.b2e", "/g/new", big],
        ),
        (
            "store-put-replace-b2e-chunks",
            "e.b2e",
            Box::new(with_store("embed_big/python.b2e", "e.b2e")),
            vec!["store", "put", "{}/e.b2e", "/r1", "{}/in.npy"],
        ),
        (
            "store-rm-b2e",
            "e.b2e",
            Box::new(with_store("embed_file/step_11.b2e", "e.b2e")),
            vec!["store", "rm", "{}/e.b2e", "/k0"],
        ),
        (
            "store-put-new-embedded-dir",
            "s.b2d",
            Box::new(without("s.b2d")),
            vec![
                "store",
                "put",
                "--threshold",
                "1000",
                "{}/s.b2d",
                "/g/a",
                "{}/in.npy",
            ],
        ),
        (
            "store-put-embedded-zip",
            "s.b2z",
            Box::new(with_store("dict_zip/step_13.b2z", "s.b2z")),
            vec![
                "store",
                "put",
                "--threshold",
                "1000",
                "{}/s.b2z",
                "/g/k2",
                "{}/in.npy",
            ],
        ),
        (
            "store-put-into-embed-dir",
            "s.b2d",
            Box::new(with_store("dict_dir_threshold/step_12.b2d", "s.b2d")),
            vec![
                "store",
                "put",
                "--threshold",
                "1000",
                "{}/s.b2d",
                "/h/deep/k4",
                "{}/in.npy",
            ],
        ),
        (
            "store-put-out-of-embed-dir",
            "s.b2d",
            Box::new(with_store("dict_dir_threshold/step_13.b2d", "s.b2d")),
            vec!["store", "put", "{}/s.b2d", "/k0", big],
        ),
        (
            "store-rm-embedded-dir",
            "s.b2d",
            Box::new(with_store("dict_dir_threshold/step_13.b2d", "s.b2d")),
            vec!["store", "rm", "{}/s.b2d", "/k1"],
        ),
        (
            "store-put-schunk-dir",
            "s.b2d",
            Box::new(with_store("dict_dir_threshold/step_13.b2d", "s.b2d")),
            vec!["store", "put", "{}/s.b2d", "/k0", schunk],
        ),
        (
            "set-vlmeta-key-tree-zip",
            "t.b2z",
            Box::new(with_store("vlmeta/tree.b2z", "t.b2z")),
            vec!["set-vlmeta", "--key", "/g/a", "{}/t.b2z", "ours", "1"],
        ),
        (
            "set-vlmeta-key-embedded-zip",
            "s.b2z",
            Box::new(with_store("vlmeta/dict.b2z", "s.b2z")),
            vec!["set-vlmeta", "--key", "/small", "{}/s.b2z", "ours", "1"],
        ),
        (
            "set-vlmeta-store-tree-dir",
            "t.b2d",
            Box::new(with_store("vlmeta/tree.b2d", "t.b2d")),
            vec!["set-vlmeta", "--key", "/", "{}/t.b2d", "ours", "1"],
        ),
        (
            "del-vlmeta-key-b2e",
            "e.b2e",
            Box::new(with_store("vlmeta/nodes.b2e", "e.b2e")),
            vec!["del-vlmeta", "--key", "/a", "{}/e.b2e", "units"],
        ),
        (
            "store-rm-embedded-tree-zip",
            "t.b2z",
            Box::new(with_store("tree_zip_threshold/step_12.b2z", "t.b2z")),
            vec!["store", "rm", "{}/t.b2z", "/k1"],
        ),
    ];
    let mut total = 0;
    for (tag, target, prepare, args) in &cases {
        let steps = every_stop(tag, target, &**prepare, args);
        eprintln!("{tag}: stopped at each of {steps} steps");
        total += steps;
    }
    assert!(total > 100, "{total}");
}
