//! The vlmeta (attributes) of stores' nodes and of a TreeStore itself
//! (tests/data/stores/vlmeta/, from tests/data/stores/vlmeta.py): python-blosc2
//! 4.14.1's are read as python reads them; ours set and deleted on every kind of node
//! (a `.b2d` member, a `.b2z` member, one inside `embed.b2e`, an EmbedStore's) and on a
//! TreeStore are read back by us as python read the same changes made by our CLI
//! (`vlmeta/ours/`), and, with the venv there, by python, which then writes its own
//! beside ours, read back by us.

use std::path::{Path, PathBuf};
use std::process::Command;

use b2nd_meta::container::{self, Role, StoreWriter, TREE_VLMETA_KEY};
use b2nd_meta::vlmeta::VlmetaChange;
use serde_json::{json, Value};

use crate::common::reference;

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/stores/vlmeta")
}

/// The vlmeta of the frame of `key`, as a JSON map.
fn vlmeta_of(store: &container::Container, key: &str) -> Value {
    let info = store.node_info(key).unwrap();
    let trailer = info.trailer.as_ref().unwrap();
    let mut map = serde_json::Map::new();
    for name in trailer.names() {
        let value = info.vlmeta(name).unwrap();
        map.insert(name.to_owned(), serde_json::to_value(&value).unwrap());
    }
    Value::Object(map)
}

/// Our view in python's form (`vlmeta.py`'s `view`).
fn our_view(path: &Path) -> Value {
    let store = container::open(path).unwrap();
    let mut nodes = serde_json::Map::new();
    for entry in store.entries() {
        if entry.role == Role::Leaf {
            nodes.insert(entry.key.clone(), vlmeta_of(&store, &entry.key));
        }
    }
    let mut view = json!({ "class": store.kind.name(), "nodes": nodes });
    if store.kind.name() == "TreeStore" {
        view["store"] = vlmeta_of(&store, TREE_VLMETA_KEY);
    }
    view
}

fn views() -> Value {
    serde_json::from_str(&std::fs::read_to_string(here().join("views.json")).unwrap()).unwrap()
}

const STORES: [&str; 4] = ["dict.b2z", "nodes.b2e", "tree.b2d", "tree.b2z"];

/// A copy of a store (a file or a directory tree).
fn copy(src: &Path, dst: &Path) {
    if src.is_dir() {
        std::fs::create_dir_all(dst).unwrap();
        for entry in std::fs::read_dir(src).unwrap() {
            let entry = entry.unwrap();
            copy(&entry.path(), &dst.join(entry.file_name()));
        }
    } else {
        std::fs::copy(src, dst).unwrap();
    }
}

fn python(args: &[&Path], flag: &str) -> Option<std::process::Output> {
    let python = reference::python_or_skip()?;
    let out = Command::new(python)
        .arg(here().with_extension("py"))
        .arg(flag)
        .args(args)
        .env_remove("BLOSC_LOCKING")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out)
}

#[test]
fn pythons_node_and_tree_vlmeta_read_as_python_reads_them() {
    let views = views();
    assert_eq!(views["python-blosc2"], "4.14.1");
    for name in STORES {
        assert_eq!(our_view(&here().join(name)), views[name], "{name}");
    }
}

/// Our changes on every node and on the store: `ours` = {"n": 1} set, one of python's
/// names deleted.
fn change(path: &Path, view: &mut Value) {
    let writer = StoreWriter::open_rw(path).unwrap();
    let set = VlmetaChange::set("ours", &std::collections::BTreeMap::from([("n", 1)])).unwrap();
    let keys: Vec<String> = view["nodes"].as_object().unwrap().keys().cloned().collect();
    for key in keys {
        let node = view["nodes"][&key].as_object_mut().unwrap();
        let gone = node.keys().next().unwrap().clone();
        node.remove(&gone);
        node.insert("ours".into(), json!({ "n": 1 }));
        let changes = [set.clone(), VlmetaChange::delete(&gone)];
        writer.update_node_vlmeta(&key, &changes).unwrap();
    }
    // An unknown key, and deleting a name that is not there, are refused.
    assert!(writer
        .update_node_vlmeta("/nothing", std::slice::from_ref(&set))
        .is_err());
    let first = view["nodes"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    assert!(writer
        .update_node_vlmeta(&first, &[VlmetaChange::delete("absent")])
        .is_err());
    match view["class"].as_str().unwrap() {
        "TreeStore" => {
            let changes = [set.clone(), VlmetaChange::delete("count")];
            writer.update_store_vlmeta(&changes).unwrap();
            let store = view["store"].as_object_mut().unwrap();
            store.remove("count");
            store.insert("ours".into(), json!({ "n": 1 }));
        }
        "EmbedStore" => {
            writer
                .update_store_vlmeta(std::slice::from_ref(&set))
                .unwrap();
            let map = [VlmetaChange::set("estore_metadata", &1).unwrap()];
            assert!(writer.update_store_vlmeta(&map).is_err());
        }
        _ => assert!(writer.update_store_vlmeta(&[set]).is_err()),
    }
}

#[test]
fn our_vlmeta_changes_read_back_by_us_and_by_python_which_writes_beside_them() {
    let views = views();
    let dir = std::env::temp_dir().join(format!("b2nd-meta-store-vlmeta-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut paths = Vec::new();
    let mut expected = Vec::new();
    for name in STORES {
        let path = dir.join(name);
        copy(&here().join(name), &path);
        let before = our_view(&path);
        let mut view = views[name].clone();
        change(&path, &mut view);
        assert_eq!(our_view(&path), view, "{name}");
        // python's view of the same changes made by our CLI (vlmeta.py).
        assert_eq!(views["ours"][name], view, "{name}");
        assert_eq!(our_view(&here().join("ours").join(name)), view, "{name}");
        // The data is untouched: every node reads the same values.
        let store = container::open(&path).unwrap();
        for entry in store.entries().iter().filter(|e| e.role == Role::Leaf) {
            let ours = b2nd_meta::array::Array::open_node(&store, &entry.key).unwrap();
            let old = container::open(here().join(name)).unwrap();
            let theirs = b2nd_meta::array::Array::open_node(&old, &entry.key).unwrap();
            let all = b2nd_meta::array::Selection::all();
            assert_eq!(
                ours.read_bytes(&all).unwrap(),
                theirs.read_bytes(&all).unwrap()
            );
        }
        assert_ne!(before, view);
        paths.push(path);
        expected.push(view);
    }
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    if let Some(out) = python(&refs, "--view") {
        let seen: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        for ((path, seen), view) in paths.iter().zip(&seen).zip(&expected) {
            assert_eq!(seen, view, "python's view of {}", path.display());
        }
        // python's turn, then ours to read it.
        for (path, view) in paths.iter().zip(&mut expected) {
            python(&[path], "--write").unwrap();
            for node in view["nodes"].as_object_mut().unwrap().values_mut() {
                node["py2"] = json!(2);
            }
            if view["class"] == "TreeStore" {
                view["store"]["py2"] = json!(2);
                view["store"].as_object_mut().unwrap().remove("first");
            }
            assert_eq!(&our_view(path), view, "after python: {}", path.display());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A TreeStore without vlmeta gets python's SChunk at /__vlmeta__ on the first write:
/// a `.b2f` member, or inside embed.b2e under a threshold.
#[test]
fn a_tree_without_vlmeta_gets_its_schunk_on_the_first_write() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-tree-vlmeta-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, threshold, embedded) in [
        ("a.b2d", 0, false),
        ("b.b2z", 0, false),
        ("c.b2z", 64, true),
    ] {
        let path = dir.join(name);
        let writer = StoreWriter::create(&path, true)
            .unwrap()
            .with_threshold(threshold);
        writer
            .update_store_vlmeta(&[VlmetaChange::set("k", "v").unwrap()])
            .unwrap();
        let store = container::open(&path).unwrap();
        assert!(store.entries().is_empty(), "{name}: {:?}", store.entries());
        assert_eq!(
            vlmeta_of(&store, TREE_VLMETA_KEY),
            json!({ "k": "v" }),
            "{name}"
        );
        let node = store.nodes().find(|n| n.key == TREE_VLMETA_KEY).unwrap();
        let inside = matches!(node.location, container::Location::Embedded { .. });
        assert_eq!(inside, embedded, "{name}");
        if let Some(out) = python(&[&path], "--view") {
            let seen: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(seen[0]["store"], json!({ "k": "v" }), "{name}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Our view, and an EmbedStore's own vlmeta (its frame's, the map left out).
fn state(path: &Path) -> Value {
    let mut view = our_view(path);
    if view["class"] == "EmbedStore" {
        let frame = b2nd_meta::frame::open(path).unwrap();
        let trailer = frame.trailer().unwrap();
        let names: Vec<&str> = trailer
            .names()
            .filter(|n| *n != "estore_metadata")
            .collect();
        view["store"] = json!(names);
    }
    view
}

/// Staging names under `dir`.
fn stagings(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        if b2nd_meta::io::is_staging_name(&name) {
            found.push(name);
        } else if e.path().is_dir() {
            found.extend(stagings(&e.path()));
        }
    }
    found
}

/// Each change stopped at every step, as a crash would stop it: the store reads as it
/// was or as the change leaves it, and the change run again completes, leaving no
/// staging behind.
#[test]
fn vlmeta_changes_stopped_at_every_step_leave_the_old_store_or_the_new() {
    use b2nd_meta::io::Steps;
    let dir = std::env::temp_dir().join(format!("b2nd-meta-vlmeta-stop-{}", std::process::id()));
    let set = [VlmetaChange::set("ours", "x").unwrap()];
    let cases = [
        ("tree.b2d", Some("/g/a")),
        ("tree.b2d", None),
        ("tree.b2z", Some("/b")),
        ("tree.b2z", None),
        ("dict.b2z", Some("/small")),
        ("nodes.b2e", Some("/b")),
        ("nodes.b2e", None),
    ];
    let mut total = 0;
    for (name, key) in cases {
        let path = dir.join(name);
        let reset = || {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            copy(&here().join(name), &path);
        };
        let run = |steps: Steps| {
            let writer = StoreWriter::open_rw_with(&path, steps)?;
            match key {
                Some(key) => writer.update_node_vlmeta(key, &set),
                None => writer.update_store_vlmeta(&set),
            }
        };
        reset();
        let old = state(&path);
        run(Steps::stop_after(u64::MAX)).unwrap();
        let new = state(&path);
        assert_ne!(old, new, "{name} {key:?}");
        for n in 0.. {
            reset();
            if run(Steps::stop_after(n)).is_ok() {
                assert_eq!(state(&path), new, "{name} {key:?}");
                total += n;
                break;
            }
            let now = state(&path);
            assert!(
                now == old || now == new,
                "{name} {key:?} stopped at {n}: {now}"
            );
            run(Steps::stop_after(u64::MAX)).unwrap();
            assert_eq!(state(&path), new, "{name} {key:?} again after {n}");
            assert!(
                stagings(&dir).is_empty(),
                "{name} {key:?}: {:?}",
                stagings(&dir)
            );
        }
    }
    assert!(total > 40, "{total}");
    std::fs::remove_dir_all(&dir).unwrap();
}
