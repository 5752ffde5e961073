//! `store put` and `store rm` from the shell: a store made, listed by `show`, read back
//! by `export --key`; what python refuses refused (exit 1, a line saying why, the store
//! unchanged). python's view of what these make: tests/containers/write.rs.

use super::{run, temp_path};
use crate::common::data_path;

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
    let embed = run([
        "store",
        "put",
        dir.join("e.b2e").to_str().unwrap(),
        "/a",
        b2nd,
    ]);
    assert!(
        embed.code == Some(1) && embed.stderr.contains(".b2e"),
        "{}",
        embed.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
