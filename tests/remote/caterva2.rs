//! Caterva2 (`caterva2[server]==2026.9.2`, from pip: `.ci/servers`), started here on
//! 127.0.0.1 with logins on: a dataset of its public root and of a user's personal
//! root read through `GET /api/fetch/ROOT/PATH` by range (Caterva2 has no HEAD), the
//! personal one after `POST /auth/jwt/login`; values against python's. Without the
//! server: a loud skip locally, a failure in CI (`CI=true`).

use std::process::Command;
use std::sync::Arc;

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::frame::Source;
use b2nd_meta::remote::{Remote, RemoteOptions, RemoteStats};

use crate::spawned::{free_port, installed, not_installed, start, Spawned};
use crate::{arrays, fixture, python};

const USER: &str = "reader@example.com";
const PASSWORD: &str = "b2nd-meta-test";

/// A server with `USER`, the fixtures `names` in its public root and in `USER`'s
/// personal one; `None` (said loudly) when it is not installed and this is not CI.
fn caterva2(names: &[&str]) -> Option<Spawned> {
    // Its venv's bin directory: `B2ND_CATERVA2_BIN`, else `.ci/servers`'s place.
    let server = installed(
        "B2ND_CATERVA2_BIN",
        "b2nd-meta/venvs/caterva2-2026.9.2/bin",
        "caterva2",
        "tests/remote/caterva2.rs",
    )?;
    if !server.join("cat2-server").exists() {
        return not_installed("caterva2", "tests/remote/caterva2.rs");
    }
    let bin = server;
    // One directory per server: the tests run at once.
    static SERVERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = SERVERS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("b2nd-meta-caterva2-{}-{n}", std::process::id()));
    let state = dir.join("state");
    std::fs::create_dir_all(state.join("public")).unwrap();
    let conf = dir.join("caterva2-server.toml");
    std::fs::write(&conf, "[server]\nlogin = true\nregister = false\n").unwrap();
    let admin = Command::new(bin.join("cat2-admin"))
        .args([
            "--conf",
            conf.to_str().unwrap(),
            "--statedir",
            state.to_str().unwrap(),
        ])
        .args(["adduser", USER, PASSWORD])
        .env("CATERVA2_SECRET", "b2nd-meta")
        .current_dir(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&admin.stdout).into_owned();
    // "User reader@example.com with id <uuid> has been added."
    let id = said
        .split("with id ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next());
    let id = id.unwrap_or_else(|| panic!("cat2-admin adduser: {said}"));
    let personal = state.join("personal").join(id);
    std::fs::create_dir_all(&personal).unwrap();
    for name in names {
        let bytes = std::fs::read(arrays().join(name)).unwrap();
        std::fs::write(state.join("public").join(name), &bytes).unwrap();
        std::fs::write(personal.join(name), &bytes).unwrap();
    }
    let port = free_port();
    let mut command = Command::new(bin.join("cat2-server"));
    command
        .args([
            "--conf",
            conf.to_str().unwrap(),
            "--statedir",
            state.to_str().unwrap(),
        ])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env("CATERVA2_SECRET", "b2nd-meta")
        .current_dir(&dir);
    Some(start(command, port, Some(dir), "caterva2"))
}

#[test]
fn caterva2_datasets_public_and_personal_read_as_the_files_do() {
    let names = ["edge_many_chunks.b2nd", "store_tree.b2z"];
    let Some(server) = caterva2(&names) else {
        return;
    };
    let url = |root: &str, name: &str| {
        format!("http://127.0.0.1:{}/api/fetch/{root}/{name}", server.port)
    };
    let login = Some((USER.to_string(), PASSWORD.to_string()));
    let fixture = fixture("edge_many_chunks");
    for (root, login) in [("@public", None), ("@personal", login.clone())] {
        let options = RemoteOptions {
            login,
            ..RemoteOptions::default()
        };
        let remote = Arc::new(Remote::with_options(&url(root, names[0]), options));
        let array = Array::open(Source::remote(remote.clone()))
            .unwrap()
            .with_threads(1);
        for slice in fixture["slices"].as_array().unwrap() {
            let sel: Selection = slice["spec"].as_str().unwrap().parse().unwrap();
            assert_eq!(
                array.read_bytes(&sel).unwrap(),
                python(&fixture, slice),
                "{root}"
            );
        }
        // The 19,375-byte file: its head and tail (no HEAD), then the gap between
        // them, each byte once.
        let stats = remote.stats();
        assert_eq!(
            stats,
            RemoteStats {
                requests: 3,
                bytes: 19_375
            },
            "{root}"
        );
    }
    // A TreeStore bundle's node, through the zip directory.
    let node = fixture_node(&url("@public", names[1]));
    let want = crate::fixture("store_tree_b2z_g_h_big");
    assert_eq!(node, python(&want, &want["slices"][0]));
    // The personal root without a login: the status, one line naming the URL.
    let personal = url("@personal", names[0]);
    let options = RemoteOptions {
        login: None,
        ..RemoteOptions::default()
    };
    let err = Array::open(Source::remote(Arc::new(Remote::with_options(
        &personal, options,
    ))));
    let err = err.unwrap_err().to_string();
    assert!(
        err.starts_with(&personal) && err.contains("401 Unauthorized") && !err.contains('\n'),
        "{err}"
    );
    // A wrong password: the login's status.
    let options = RemoteOptions {
        login: Some((USER.into(), "wrong".into())),
        ..RemoteOptions::default()
    };
    let err = Array::open(Source::remote(Arc::new(Remote::with_options(
        &personal, options,
    ))));
    assert!(err.unwrap_err().to_string().contains("/auth/jwt/login"));
    // The command line logs in from CATERVA2_USER and CATERVA2_PASSWORD.
    let out = Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args([
            "export",
            &personal,
            "-o",
            "-",
            "--slice",
            fixture["slices"][4]["spec"].as_str().unwrap(),
        ])
        .env("CATERVA2_USER", USER)
        .env("CATERVA2_PASSWORD", PASSWORD)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out
        .stdout
        .ends_with(&python(&fixture, &fixture["slices"][4])));
}

/// All of node `/g/h/big` of the bundle at `url`.
fn fixture_node(url: &str) -> Vec<u8> {
    let store = b2nd_meta::container::open(Source::url(url)).unwrap();
    let array = Array::open_node(&store, "/g/h/big").unwrap();
    array.read_bytes(&"...".parse().unwrap()).unwrap()
}

#[test]
fn a_dataset_served_without_ranges_is_read_by_api_chunk() {
    // Caterva2 answers a range of a TreeStore leaf held in the store's embed.b2e (no
    // window of the file to seek to) with a 416 and `Accept-Ranges: none`; the array
    // is then read from /api/info and /api/chunk, each chunk once.
    let names = ["store_tree.b2z"];
    let Some(server) = caterva2(&names) else {
        return;
    };
    let login = Some((USER.to_string(), PASSWORD.to_string()));
    for (id, key, nchunks) in [
        ("store_tree_b2z_g_leaf", "g/leaf", 4),
        ("store_tree_b2z_g_h_big", "g/h/big", 6),
    ] {
        let fixture = fixture(id);
        for (root, login) in [("@public", None), ("@personal", login.clone())] {
            let url = format!(
                "http://127.0.0.1:{}/api/fetch/{root}/store_tree.b2z/{key}",
                server.port
            );
            let options = RemoteOptions {
                login,
                ..RemoteOptions::default()
            };
            let remote = Arc::new(Remote::with_options(&url, options));
            let array = Array::open(Source::remote(remote.clone()))
                .unwrap_or_else(|e| panic!("{url}: {e}"));
            assert!(remote.refuses_ranges(), "{url}");
            // The refused range, then /api/info.
            assert_eq!(remote.stats().requests, 2, "{url}");
            for slice in fixture["slices"].as_array().unwrap() {
                let spec = slice["spec"].as_str().unwrap();
                let sel: Selection = spec.parse().unwrap();
                let got = array
                    .read_bytes(&sel)
                    .unwrap_or_else(|e| panic!("{url} [{spec}]: {e}"));
                assert!(got == python(&fixture, slice), "{url} [{spec}]");
            }
            // Each chunk fetched once, however many slices and threads read it.
            let requests = remote.stats().requests;
            assert_eq!(requests, 2 + nchunks, "{url}: one request a chunk");
        }
    }
    // The personal root without a login: /api/info's status, one line naming it.
    let url = format!(
        "http://127.0.0.1:{}/api/fetch/@personal/store_tree.b2z/g/leaf",
        server.port
    );
    let options = RemoteOptions {
        login: None,
        ..RemoteOptions::default()
    };
    let err = Array::open(Source::remote(Arc::new(Remote::with_options(
        &url, options,
    ))));
    let err = err.unwrap_err().to_string();
    assert!(err.starts_with(&url) && !err.contains('\n'), "{err}");
}
