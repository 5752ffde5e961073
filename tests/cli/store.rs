//! `store put` and `store rm` from the shell: a store made, listed by `show`, read back
//! by `export --key`; what python refuses refused (exit 1, a line saying why, the store
//! unchanged). python's view of what these make: tests/containers/write.rs.

use std::process::Command;

use super::{run, temp_path, BIN};
use crate::common::{data_path, reference};

#[test]
fn a_store_made_and_changed_from_the_shell_is_listed_and_read_back() {
    let dir = temp_path("store-shell");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = dir.join("s.b2z");
    let s = store.to_str().unwrap();
    let npy = data_path("npy/v1_f8.npy");
    let b2nd = data_path("arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    run(["store", "put", s, "/a", npy.to_str().unwrap()]).assert_ok();
    run(["store", "put", s, "/dir/b", b2nd.to_str().unwrap()]).assert_ok();
    let keys = |s: &str| -> Vec<String> {
        run(["show", "--json", s]).json_lines()[1..]
            .iter()
            .map(|l| l["key"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(keys(s), ["/a", "/dir/b"]);
    let out = dir.join("b.npy");
    run(["export", s, "--key", "/dir/b", "-o", out.to_str().unwrap()]).assert_ok();
    let exported = std::fs::read(&out).unwrap();
    let direct = dir.join("direct.npy");
    run([
        "export",
        b2nd.to_str().unwrap(),
        "-o",
        direct.to_str().unwrap(),
    ])
    .assert_ok();
    assert_eq!(exported, std::fs::read(&direct).unwrap());
    let before = std::fs::read(&store).unwrap();
    for key in ["dir", "/a//b", "/a:b", "/"] {
        let refused = run(["store", "put", s, key, npy.to_str().unwrap()]);
        assert_eq!(refused.code, Some(1), "{key}: {}", refused.stderr);
        assert!(
            refused.stderr.contains("python-blosc2"),
            "{}",
            refused.stderr
        );
    }
    assert_eq!(run(["store", "rm", s, "/nothing"]).code, Some(1));
    assert_eq!(std::fs::read(&store).unwrap(), before);
    run(["store", "rm", s, "/a"]).assert_ok();
    assert_eq!(keys(s), ["/dir/b"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tree_refuses_a_leaf_over_a_group_and_a_dictstore_is_not_made_a_tree() {
    let dir = temp_path("store-tree");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let b2nd = data_path("arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    let b2nd = b2nd.to_str().unwrap();
    let tree = dir.join("t.b2d");
    let t = tree.to_str().unwrap();
    run(["store", "put", "--tree", t, "/g/a", b2nd]).assert_ok();
    let over = run(["store", "put", t, "/g", b2nd]);
    assert!(
        over.code == Some(1) && over.stderr.contains("group"),
        "{}",
        over.stderr
    );
    let under = run(["store", "put", t, "/g/a/x", b2nd]);
    assert!(
        under.code == Some(1) && under.stderr.contains("under the leaf"),
        "{}",
        under.stderr
    );
    let dict = dir.join("d.b2z");
    run(["store", "put", dict.to_str().unwrap(), "/a", b2nd]).assert_ok();
    let tree_flag = run(["store", "put", "--tree", dict.to_str().unwrap(), "/b", b2nd]);
    assert_eq!(tree_flag.code, Some(1), "{}", tree_flag.stderr);
    // An EmbedStore is flat: made without --tree, refused with it.
    let e = dir.join("e.b2e");
    let e = e.to_str().unwrap();
    let flat = run(["store", "put", "--tree", e, "/a", b2nd]);
    assert!(
        flat.code == Some(1) && flat.stderr.contains("flat"),
        "{}",
        flat.stderr
    );
    run(["store", "put", e, "/a", b2nd]).assert_ok();
    let other = run([
        "store",
        "put",
        dir.join("x.zip").to_str().unwrap(),
        "/a",
        b2nd,
    ]);
    assert!(
        other.code == Some(1) && other.stderr.contains(".b2e"),
        "{}",
        other.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--threshold`: a node whose array holds fewer bytes goes inside embed.b2e (python's
/// threshold); put again without it, it moves out to a member of its own; removed, it
/// is gone from both. An EmbedStore holds every node inside itself.
#[test]
fn a_threshold_puts_small_nodes_inside_embed_b2e_and_moves_them_out_again() {
    let dir = temp_path("store-threshold");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let npy = data_path("npy/v1_f8.npy");
    let npy = npy.to_str().unwrap();
    let place = |s: &str, key: &str| -> String {
        run(["show", "--json", s]).json_lines()[1..]
            .iter()
            .find(|l| l["key"] == key)
            .map_or("absent".into(), |l| {
                l["location"]["in"].as_str().unwrap().to_owned()
            })
    };
    for name in ["d.b2d", "d.b2z", "t.b2z"] {
        let store = dir.join(name);
        let s = store.to_str().unwrap();
        let mut args = vec!["store", "put", "--threshold", "100000", s, "/g/a", npy];
        if name.starts_with('t') {
            args.insert(2, "--tree");
        }
        run(args).assert_ok();
        assert_eq!(place(s, "/g/a"), "embedded", "{name}");
        run(["store", "put", "--threshold", "16", s, "/g/b", npy]).assert_ok();
        assert_ne!(place(s, "/g/b"), "embedded", "{name}");
        run(["store", "put", s, "/g/a", npy]).assert_ok();
        assert_ne!(place(s, "/g/a"), "embedded", "{name}");
        run(["store", "put", "--threshold", "100000", s, "/g/b", npy]).assert_ok();
        assert_eq!(place(s, "/g/b"), "embedded", "{name}");
        run(["store", "rm", s, "/g/b"]).assert_ok();
        assert_eq!(place(s, "/g/b"), "absent", "{name}");
        assert_eq!(run(["store", "rm", s, "/g/b"]).code, Some(1), "{name}");
    }
    let e = dir.join("e.b2e");
    let e = e.to_str().unwrap();
    run(["store", "put", e, "/a", npy]).assert_ok();
    run(["store", "put", e, "/a", npy]).assert_ok();
    assert_eq!(place(e, "/a"), "embedded");
    run(["store", "rm", e, "/a"]).assert_ok();
    assert_eq!(place(e, "/a"), "absent");
    let _ = std::fs::remove_dir_all(&dir);
}

/// python-blosc2 4.14.1 with locking (tests/data/stores/lock_check.py): our `store put`
/// waits while python holds a `.b2d`'s or a `.b2e`'s lock, and a locked python handle
/// opened before our put and rm sees both, then writes beside them.
#[test]
fn python_blosc2_4_14_1_recorded_our_store_writes_under_its_lock() {
    let text = std::fs::read_to_string(data_path("stores/lock_check.json")).unwrap();
    let recorded: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(recorded["python_blosc2"], "4.14.1");
    for case in ["dict_dir", "embed_file"] {
        assert_eq!(recorded[case]["ok"], true, "{case}: {}", recorded[case]);
    }
}

#[test]
fn python_blosc2_4_14_1_live_store_locks_when_its_venv_exists() {
    let Some(python) = reference::python_or_skip() else {
        return;
    };
    let out = Command::new(&python)
        .arg(data_path("stores/lock_check.py"))
        .arg(BIN)
        .env_remove("BLOSC_LOCKING")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let live: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for case in ["dict_dir", "embed_file"] {
        assert_eq!(live[case]["ok"], true, "{case}: {}", live[case]);
    }
}

/// `set-vlmeta --key` and `del-vlmeta --key` on a store's nodes wherever they are (a
/// .b2z member, inside embed.b2e, an EmbedStore's, a .b2d member) and, with `/`, on a
/// TreeStore itself: `show --key` reads the new vlmeta (python reading it:
/// tests/containers/store_vlmeta.rs).
#[test]
fn set_and_del_vlmeta_with_a_key_change_a_stores_nodes_and_the_store() {
    let dir = temp_path("store-vlmeta");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let copy = |name: &str| -> String {
        let from = data_path(&format!("stores/vlmeta/{name}"));
        let to = dir.join(name);
        if from.is_dir() {
            for e in walk(&from) {
                let rel = e.strip_prefix(&from).unwrap();
                std::fs::create_dir_all(to.join(rel).parent().unwrap()).unwrap();
                std::fs::copy(&e, to.join(rel)).unwrap();
            }
        } else {
            std::fs::copy(&from, &to).unwrap();
        }
        to.to_str().unwrap().to_owned()
    };
    let vlmeta = |s: &str, key: &str| -> serde_json::Value {
        run(["show", "--json", s, "--key", key]).json_lines()[0]["vlmeta"].clone()
    };
    for (name, key) in [
        ("dict.b2z", "/small"),
        ("dict.b2z", "/big"),
        ("nodes.b2e", "/a"),
        ("tree.b2d", "/g/a"),
    ] {
        let s = copy(name);
        run(["set-vlmeta", "--key", key, &s, "ours", "[1, 2]"]).assert_ok();
        assert_eq!(
            vlmeta(&s, key)["ours"],
            serde_json::json!([1, 2]),
            "{name} {key}"
        );
        run(["del-vlmeta", "--key", key, &s, "ours"]).assert_ok();
        assert!(vlmeta(&s, key).get("ours").is_none(), "{name} {key}");
        let gone = run(["del-vlmeta", "--key", key, &s, "ours"]);
        assert_eq!(gone.code, Some(1), "{name} {key}: {}", gone.stderr);
        std::fs::remove_file(&s).ok();
        std::fs::remove_dir_all(&s).ok();
    }
    let s = copy("tree.b2d");
    run(["set-vlmeta", "--key", "/", &s, "author", "\"me\""]).assert_ok();
    assert_eq!(vlmeta(&s, "/__vlmeta__")["author"], "me");
    let dry = run(["set-vlmeta", "--dry-run", "--key", "/", &s, "a", "1"]);
    assert_eq!(dry.code, Some(2), "{}", dry.stderr);
    let d = copy("dict.b2z");
    let none = run(["set-vlmeta", "--key", "/", &d, "a", "1"]);
    assert!(
        none.code == Some(1) && none.stderr.contains("DictStore"),
        "{}",
        none.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        match p.is_dir() {
            true => found.extend(walk(&p)),
            false => found.push(p),
        }
    }
    found
}
