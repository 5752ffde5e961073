//! Stores made and changed by us and by python-blosc2 4.14.1 in turns
//! (tests/data/stores/, from tests/data/stores/generate.py): DictStores and TreeStores
//! (.b2z, .b2d, with and without a threshold) and EmbedStores (.b2e). After every step
//! our read of the store is python's (keys, which are embedded, and every node's dtype,
//! shape and bytes), python opened every store our CLI made, and our library,
//! replaying each of our steps on the store before it, reaches python's view of the
//! store after it; with python-blosc2 4.14.1's venv there, python opens each store our
//! library made and gives that view too.

use std::path::{Path, PathBuf};
use std::process::Command;

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::container::{self, Location, Role, StoreWriter};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::reference;

fn stores() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/stores")
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(stores().join("manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Our view of `path` in the manifest's form: sorted keys (groups included, as
/// python's TreeStore lists them), those embedded, and per leaf its dtype, shape and
/// bytes' sha256.
fn our_view(path: &Path) -> Value {
    let store = container::open(path).unwrap();
    let mut embedded: Vec<String> = store
        .nodes()
        .filter(|n| matches!(n.location, Location::Embedded { .. }))
        .map(|n| n.key)
        .collect();
    embedded.sort();
    let mut keys = Vec::new();
    let mut nodes = serde_json::Map::new();
    for entry in store.entries() {
        keys.push(entry.key.clone());
        if entry.role != Role::Leaf {
            continue;
        }
        let info = store.entry_info(entry).unwrap();
        let array = info.array().unwrap();
        let read = Array::open_node(&store, &entry.key).unwrap();
        let bytes = read.read_bytes(&Selection::all()).unwrap();
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        nodes.insert(
            entry.key.clone(),
            serde_json::json!({
                "type": "NDArray",
                "dtype": array.dtype_str(),
                "shape": array.shape(),
                "sha256": digest,
            }),
        );
    }
    keys.sort();
    serde_json::json!({ "keys": keys, "embedded": embedded, "nodes": nodes })
}

/// Python's view of a step without what ours does not say (its class, its groups'
/// nodes).
fn python_view(step: &Value) -> Value {
    view_of(&step["python"])
}

/// A python view without its class and its groups' nodes.
fn view_of(py: &Value) -> Value {
    let nodes: serde_json::Map<String, Value> = py["nodes"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v["type"] == "NDArray")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    serde_json::json!({ "keys": py["keys"], "embedded": py["embedded"], "nodes": nodes })
}

fn steps(name: &str) -> (Value, Vec<Value>) {
    let m = manifest();
    let s = m["scenarios"][name].clone();
    let steps = s["steps"].as_array().unwrap().clone();
    (s, steps)
}

/// A copy of a snapshot (a file or a directory tree) in the temporary directory.
fn copy(src: &Path, dst: &Path) {
    let _ = std::fs::remove_dir_all(dst);
    let _ = std::fs::remove_file(dst);
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

/// Every snapshot: python opened it (the generator's view) and ours is python's.
fn reads_as_python(name: &str) {
    let (_, steps) = steps(name);
    for (i, step) in steps.iter().enumerate() {
        let path = stores().join(step["store"].as_str().unwrap());
        assert_eq!(
            our_view(&path),
            python_view(step),
            "{name} step {i}: {step}"
        );
    }
}

/// Each of our steps replayed with the library on the store before it: python's view
/// of our CLI's result, or a refusal where our CLI refused (the store unchanged). The
/// stores made are kept in `kept` (named after the scenario and step) for python to
/// open; their steps returned.
fn replays_as_python(name: &str, kept: &Path) -> Vec<(PathBuf, Value)> {
    let (scenario, steps) = steps(name);
    let suffix = scenario["suffix"].as_str().unwrap();
    let tree = scenario["tree"].as_bool().unwrap();
    let threshold = scenario["threshold"].as_u64().unwrap();
    let work = std::env::temp_dir().join(format!(
        "b2nd-meta-write-{name}-{}{suffix}",
        std::process::id()
    ));
    let mut made = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if step["actor"] != "us" {
            continue;
        }
        let _ = std::fs::remove_dir_all(&work);
        let _ = std::fs::remove_file(&work);
        let writer = match i {
            0 => StoreWriter::create(&work, tree).unwrap(),
            _ => {
                let before = stores().join(steps[i - 1]["store"].as_str().unwrap());
                copy(&before, &work);
                StoreWriter::open_rw(&work).unwrap()
            }
        };
        let writer = writer.with_threshold(threshold);
        let key = step["key"].as_str().unwrap();
        let done = match step["op"].as_str().unwrap() {
            "rm" => writer.remove(key),
            _ => {
                let input = step["input"].as_str().unwrap();
                if input.ends_with(".npy") {
                    continue; // imported by the CLI: the snapshot is the evidence
                }
                writer.put(key, stores().join("inputs").join(input))
            }
        };
        assert_eq!(
            done.is_ok(),
            step["ok"].as_bool().unwrap(),
            "{name} step {i}: {done:?}"
        );
        assert_eq!(
            our_view(&work),
            python_view(step),
            "{name} step {i}: {step}"
        );
        let keep = kept.join(format!("{name}_{i:02}{suffix}"));
        copy(&work, &keep);
        made.push((keep, step.clone()));
    }
    let _ = std::fs::remove_dir_all(&work);
    let _ = std::fs::remove_file(&work);
    made
}

const SCENARIOS: [&str; 8] = [
    "dict_zip",
    "dict_dir",
    "tree_zip",
    "tree_dir",
    "dict_zip_embed",
    "embed_file",
    "dict_dir_threshold",
    "tree_zip_threshold",
];

#[test]
fn python_reads_our_stores_and_we_read_its_changes() {
    for name in SCENARIOS {
        reads_as_python(name);
    }
}

/// python-blosc2 4.14.1's view of `paths` (`generate.py --view`), when its venv is
/// there.
fn python_views(paths: &[PathBuf]) -> Option<Vec<Value>> {
    python_says("--view", paths)
}

/// What `generate.py FLAG PATHS...` prints, when python-blosc2 4.14.1's venv is there.
fn python_says(flag: &str, paths: &[PathBuf]) -> Option<Vec<Value>> {
    let python = reference::python_or_skip()?;
    let out = Command::new(python)
        .arg(stores().join("generate.py"))
        .arg(flag)
        .args(paths)
        .env_remove("BLOSC_LOCKING")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn our_library_replays_our_cli_steps_to_pythons_view() {
    let kept = std::env::temp_dir().join(format!("b2nd-meta-write-kept-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&kept);
    std::fs::create_dir_all(&kept).unwrap();
    let made: Vec<(PathBuf, Value)> = SCENARIOS
        .iter()
        .flat_map(|name| replays_as_python(name, &kept))
        .collect();
    assert!(made.len() > 60, "{}", made.len());
    // python opens what the library made (each step's store, refusals included) and
    // sees what it saw of our CLI's result.
    let paths: Vec<PathBuf> = made.iter().map(|(path, _)| path.clone()).collect();
    if let Some(views) = python_views(&paths) {
        assert_eq!(views.len(), made.len());
        for (view, (path, step)) in views.iter().zip(&made) {
            assert_eq!(view, &step["python"], "{}", path.display());
        }
    }
    let _ = std::fs::remove_dir_all(&kept);
}

#[test]
fn every_step_was_opened_by_python_and_refusals_left_the_store_as_it_was() {
    for name in SCENARIOS {
        let (scenario, steps) = steps(name);
        let class = match (scenario["suffix"].as_str(), scenario["tree"] == true) {
            (Some(".b2e"), _) => "EmbedStore",
            (_, true) => "TreeStore",
            _ => "DictStore",
        };
        for (i, step) in steps.iter().enumerate() {
            assert_eq!(step["python"]["class"], class, "{name} step {i}");
            if step["ok"] == false {
                assert_eq!(step["python"], steps[i - 1]["python"], "{name} step {i}");
            }
        }
    }
}

/// The stored bytes of each chunk of the frame at `path` (`None` for a special one).
fn stored_chunks(path: &Path) -> Vec<Option<Vec<u8>>> {
    use b2nd_meta::chunk::ChunkHeader;
    use b2nd_meta::frame::{ChunkIndex, ChunkLocation};
    let bytes = std::fs::read(path).unwrap();
    let header = b2nd_meta::frame::parse_header(&bytes).unwrap();
    let index = ChunkIndex::parse(&bytes, &header).unwrap();
    index
        .locations
        .iter()
        .map(|l| match *l {
            ChunkLocation::Offset(at) => {
                let at = at as usize;
                let cbytes = ChunkHeader::parse(&bytes[at..]).unwrap().cbytes as usize;
                Some(bytes[at..at + cbytes].to_vec())
            }
            _ => None,
        })
        .collect()
}

/// An EmbedStore python made whose data spans several chunks, changed by our library
/// as python changed it (`/r3` put, `/r1` removed, `/r2` replaced): python's view of
/// its own result, ours and (live) python's of our library's; the full chunks of the
/// old data copied byte for byte, the bytes of `/r1` left in place as python leaves
/// them.
#[test]
fn an_embed_store_of_several_chunks_changed_as_python_changes_it() {
    let m = manifest()["embed_big"].clone();
    let start = stores().join("embed_big/python.b2e");
    assert_eq!(our_view(&start), view_of(&m["python"]));
    let work = std::env::temp_dir().join(format!("b2nd-meta-embed-big-{}.b2e", std::process::id()));
    std::fs::copy(&start, &work).unwrap();
    let inputs = stores().join("inputs");
    let writer = StoreWriter::open_rw(&work).unwrap();
    writer.put("/r3", inputs.join("embed_big_r3.b2nd")).unwrap();
    writer.remove("/r1").unwrap();
    writer.put("/r2", inputs.join("embed_big_r2.b2nd")).unwrap();
    assert_eq!(our_view(&work), view_of(&m["python_changed"]));
    assert_eq!(m["ours_changed"], m["python_changed"]);
    let (old, new) = (stored_chunks(&start), stored_chunks(&work));
    assert!(
        old.len() >= 3 && new.len() > old.len(),
        "{} {}",
        old.len(),
        new.len()
    );
    // Every chunk of the old data but its last, partial one, as it was.
    assert_eq!(old[..old.len() - 1], new[..old.len() - 1]);
    // A node removed leaves the map alone: the data only grows.
    let nbytes = |p: &Path| b2nd_meta::frame::open(p).unwrap().header.info.nbytes;
    let r3 = std::fs::metadata(inputs.join("embed_big_r3.b2nd"))
        .unwrap()
        .len();
    let r2 = std::fs::metadata(inputs.join("embed_big_r2.b2nd"))
        .unwrap()
        .len();
    assert_eq!(nbytes(&work) as u64, nbytes(&start) as u64 + r3 + r2);
    if let Some(views) = python_views(std::slice::from_ref(&work)) {
        assert_eq!(views[0], m["python_changed"]);
    }
    // Made anew here from the same nodes, in one step each.
    let _ = std::fs::remove_file(&work);
    StoreWriter::create_with_node(&work, false, "/r3", inputs.join("embed_big_r3.b2nd")).unwrap();
    assert!(StoreWriter::create(&work, false).is_err());
    assert!(StoreWriter::open_rw(&work)
        .unwrap()
        .put("/r3/..", inputs.join("embed_big_r2.b2nd"))
        .is_err());
    let view = our_view(&work);
    assert_eq!(view["keys"], serde_json::json!(["/r3"]));
    assert_eq!(view["nodes"]["/r3"], m["python_changed"]["nodes"]["/r3"]);
    std::fs::remove_file(&work).unwrap();
}

/// An EmbedStore is flat: no TreeStore is made as a .b2e; an array frame is not a
/// store to change.
#[test]
fn a_tree_is_not_made_as_an_embed_store() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-embed-tree-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let err = StoreWriter::create(dir.join("t.b2e"), true).unwrap_err();
    assert!(err.to_string().contains("flat"), "{err}");
    assert!(!dir.join("t.b2e").exists());
    let frame = stores().join("inputs/embed_big_r3.b2nd");
    assert!(StoreWriter::open_rw(&frame).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What is not an EmbedStore python writes is refused before anything is written, the
/// file left as it was: a map that is not a map, a chunk size python does not give, a
/// TreeStore's vlmeta key given as a node.
#[test]
fn an_embed_store_python_would_not_write_is_refused_untouched() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-embed-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let node = stores().join("inputs/embed_big_r3.b2nd");
    let path = dir.join("e.b2e");
    let refused = |path: &Path, why: &str| {
        let before = std::fs::read(path).unwrap();
        let err = StoreWriter::open_rw(path)
            .and_then(|w| w.put("/x", &node))
            .unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
        assert_eq!(std::fs::read(path).unwrap(), before);
    };
    // estore_metadata = 1 (python's _load_metadata would fail on it).
    std::fs::copy(stores().join("embed_big/python.b2e"), &path).unwrap();
    b2nd_meta::vlmeta::set_vlmeta(&path, "estore_metadata", &1).unwrap();
    let err = StoreWriter::open_rw(&path).and_then(|w| w.put("/x", &node));
    assert!(err.is_err(), "{err:?}");
    // A chunksize of 128 MiB in the header (the int32 at byte 58), past what is held
    // to be compressed again; its one chunk still reads.
    std::fs::copy(stores().join("embed_file/step_11.b2e"), &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let at = 58;
    assert_eq!(
        i32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()),
        8192
    );
    bytes[at..at + 4].copy_from_slice(&(1i32 << 27).to_be_bytes());
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(our_view(&path)["keys"], serde_json::json!(["/g/k3", "/k0"]));
    refused(&path, "chunksize");
    // A TreeStore's vlmeta is not a node.
    let tree = dir.join("t.b2z");
    std::fs::copy(stores().join("vlmeta/tree.b2z"), &tree).unwrap();
    let writer = StoreWriter::open_rw(&tree).unwrap();
    assert!(writer.put("/__vlmeta__", &node).is_err());
    assert!(writer.remove("/__vlmeta__").is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Nodes that are not arrays (python's SChunk and ObjectArray, `.b2f`; BatchArray and
/// ListArray, `.b2b`) put by our CLI into a DictStore zip, a TreeStore directory and an
/// EmbedStore: python opens each as the class of its file, holding what the file
/// holds; our library, doing the same, makes stores we read alike (and, live, python
/// sees them as it saw our CLI's).
#[test]
fn nodes_that_are_not_arrays_are_put_as_python_names_them() {
    let m = manifest()["other_kinds"].clone();
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/containers/blosc2-4.14.1");
    let files: Vec<String> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_owned())
        .collect();
    let dir = std::env::temp_dir().join(format!("b2nd-meta-other-kinds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut made = Vec::new();
    for (name, py) in m["stores"].as_object().unwrap() {
        // python saw each node as the class of its file, with the file's contents.
        for f in &files {
            let key = format!("/{}", f.split('.').next().unwrap());
            assert_eq!(py["nodes"][&key], m["sources"][f], "{name} {key}");
        }
        assert_eq!(
            py["embedded"].as_array().unwrap().len(),
            if name.ends_with(".b2e") { 5 } else { 1 }
        );
        let path = dir.join(name);
        let writer = StoreWriter::create(&path, name.starts_with("tree")).unwrap();
        for f in &files {
            writer
                .put(&format!("/{}", f.split('.').next().unwrap()), src.join(f))
                .unwrap();
        }
        let writer = writer.with_threshold(100_000);
        writer.put("/small/schunk", src.join(&files[0])).unwrap();
        // Our read: the same keys, kinds and embedded ones as python's view.
        let store = container::open(&path).unwrap();
        for f in &files {
            let key = format!("/{}", f.split('.').next().unwrap());
            let kind = store.node_info(&key).unwrap().kind;
            assert_eq!(kind.name(), py["nodes"][&key]["type"], "{name} {key}");
        }
        let mut embedded: Vec<String> = store
            .nodes()
            .filter(|n| matches!(n.location, Location::Embedded { .. }))
            .map(|n| n.key)
            .collect();
        embedded.sort();
        assert_eq!(serde_json::json!(embedded), py["embedded"], "{name}");
        // Members named as python names them, our library's bytes the CLI's.
        let ours = stores().join("other_kinds").join(name);
        if path.is_dir() {
            for member in [
                "schunk.b2f",
                "objectarray.b2f",
                "batcharray.b2b",
                "listarray.b2b",
                "embed.b2e",
            ] {
                let read = |p: &Path| std::fs::read(p.join(member)).unwrap();
                assert_eq!(read(&path), read(&ours), "{name} {member}");
            }
        } else {
            assert_eq!(
                std::fs::read(&path).unwrap(),
                std::fs::read(&ours).unwrap(),
                "{name}"
            );
        }
        made.push((path, py.clone()));
    }
    let paths: Vec<PathBuf> = made.iter().map(|(p, _)| p.clone()).collect();
    if let Some(views) = python_views(&paths) {
        for (view, (path, py)) in views.iter().zip(&made) {
            assert_eq!(view, py, "{}", path.display());
        }
    }
    // A kind python does not keep as a store's node is refused.
    let lazy = src.join("lazyexpr.b2nd");
    let err = StoreWriter::create(dir.join("x.b2z"), false)
        .unwrap()
        .put("/l", lazy)
        .unwrap_err();
    assert!(err.to_string().contains("this is a"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A remote reference (python's entry for a `C2Array`: `{"urlbase", "path"}` in the
/// embed map) put into a `.b2z`, a `.b2d` and a `.b2e`, over a node and beside one;
/// removed, and replaced by a node: we list it as python does, and python (live)
/// lists the keys and the entries we wrote.
#[test]
fn a_remote_reference_is_put_as_python_puts_a_c2array() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-refs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let frame = stores().join("inputs/embed_big_r3.b2nd");
    let (urlbase, path) = ("https://cat2.cloud/demo", "@public/examples/ds-1d.b2nd");
    let mut made = Vec::new();
    for name in ["r.b2z", "r.b2d", "r.b2e", "t.b2z"] {
        let store = dir.join(name);
        let writer = StoreWriter::create(&store, name.starts_with('t')).unwrap();
        writer.put("/a", &frame).unwrap();
        writer.put("/c", &frame).unwrap();
        writer.put_reference("/a", urlbase, path).unwrap();
        writer
            .put_reference("/g/b", urlbase, "@public/other.b2nd")
            .unwrap();
        writer.put_reference("/c", urlbase, path).unwrap();
        writer.put("/c", &frame).unwrap();
        writer.put_reference("/gone", urlbase, path).unwrap();
        writer.remove("/gone").unwrap();
        let opened = container::open(&store).unwrap();
        let mut nodes: Vec<(String, Location)> =
            opened.nodes().map(|n| (n.key, n.location)).collect();
        nodes.sort_by(|a, b| a.0.cmp(&b.0));
        let remote = |p: &str| Location::Remote {
            urlbase: urlbase.into(),
            path: p.into(),
        };
        assert_eq!(nodes.len(), 3, "{name}: {nodes:?}");
        assert_eq!(nodes[0], ("/a".into(), remote(path)), "{name}");
        assert!(
            !matches!(nodes[1].1, Location::Remote { .. }),
            "{name}: {:?}",
            nodes[1]
        );
        assert_eq!(
            nodes[2],
            ("/g/b".into(), remote("@public/other.b2nd")),
            "{name}"
        );
        made.push(store);
    }
    if let Some(seen) = python_says("--references", &made) {
        for (store, seen) in made.iter().zip(seen) {
            let tree = store
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with('t');
            let keys = match tree {
                true => serde_json::json!(["/a", "/c", "/g", "/g/b"]),
                false => serde_json::json!(["/a", "/c", "/g/b"]),
            };
            assert_eq!(seen["keys"], keys, "{}", store.display());
            assert_eq!(
                seen["references"],
                serde_json::json!({
                    "/a": {"urlbase": urlbase, "path": path},
                    "/g/b": {"urlbase": urlbase, "path": "@public/other.b2nd"},
                }),
                "{}",
                store.display()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Values put by `NewArray::put_typed` into a store of each kind read back as they
/// were given, by us and (live) by python-blosc2; the frame's staging file is gone; a
/// key python refuses is refused before anything is written.
#[test]
fn values_put_into_each_kind_of_store_read_back_as_given() {
    use b2nd_meta::array::write::NewArray;
    let dir = std::env::temp_dir().join(format!("b2nd-meta-put-values-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let values: Vec<f64> = (0..60).map(|i| f64::from(i) * 0.5 - 3.0).collect();
    let new = NewArray::new(&[3, 4, 5], "<f8").unwrap().chunks(&[2, 4, 5]);
    let mut paths = Vec::new();
    for (name, tree) in [("d.b2z", false), ("t.b2d", true), ("e.b2e", false)] {
        let path = dir.join(name);
        let store = StoreWriter::create(&path, tree).unwrap();
        new.put_typed(&store, "/v", &values).unwrap();
        new.put_typed(&store, "/w", &values[..60]).unwrap();
        assert!(
            new.put_typed(&store, "no-slash", &values).is_err(),
            "{name}"
        );
        let read = Array::open_node(&container::open(&path).unwrap(), "/v").unwrap();
        assert_eq!(read.shape(), [3, 4, 5], "{name}");
        assert_eq!(
            read.read::<f64>(&Selection::all()).unwrap(),
            values,
            "{name}"
        );
        paths.push(path);
    }
    let staged = format!(".b2nd-meta-put.{}.", std::process::id());
    let left = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&staged))
        .count();
    assert_eq!(left, 0);
    if let Some(views) = python_views(&paths) {
        for (view, path) in views.iter().zip(&paths) {
            assert_eq!(view_of(view), our_view(path), "{}", path.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
