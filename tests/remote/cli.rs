//! `b2nd-meta show URL` and `export URL [--key] [--slice]`: what a path gives, from a URL.

use std::process::Command;

use crate::server::Server;
use crate::{arrays, fixture, python};

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

/// Runs the tool: exit code, stdout, stderr.
fn run(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn show_url_prints_what_show_path_prints() {
    let server = Server::serving(arrays());
    for name in ["edge_many_chunks.b2nd", "store_tree.b2z", "store_embed.b2e"] {
        let path = arrays().join(name);
        let url = server.url(name);
        let (code, local, err) = run(&["show", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let (code, remote, err) = run(&["show", &url]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let local = String::from_utf8(local)
            .unwrap()
            .replace(path.to_str().unwrap(), &url);
        assert_eq!(String::from_utf8(remote).unwrap(), local, "{name}");
    }
}

#[test]
fn export_url_slices_and_nodes_are_pythons() {
    let server = Server::serving(arrays());
    for (id, name, key, slice) in [
        ("edge_many_chunks", "edge_many_chunks.b2nd", None, 4),
        (
            "store_tree_b2z_g_h_big",
            "store_tree.b2z",
            Some("/g/h/big"),
            4,
        ),
        ("store_embed_b2e_big", "store_embed.b2e", Some("/big"), 0),
    ] {
        let fixture = fixture(id);
        let slice = &fixture["slices"][slice];
        let url = server.url(name);
        let mut args = vec![
            "export",
            &url,
            "-o",
            "-",
            "--slice",
            slice["spec"].as_str().unwrap(),
        ];
        if let Some(key) = key {
            args.extend(["--key", key]);
        }
        let (code, npy, err) = run(&args);
        assert_eq!(code, Some(0), "{id}: {err}");
        let want = python(&fixture, slice);
        assert!(
            npy.ends_with(&want) && npy.starts_with(b"\x93NUMPY"),
            "{id}"
        );
    }
}

#[test]
fn a_missing_url_is_one_line_with_the_status() {
    let server = Server::serving(arrays());
    let url = server.url("missing.b2nd");
    for args in [vec!["show", &url], vec!["export", &url, "-o", "-"]] {
        let (code, _, err) = run(&args);
        assert_ne!(code, Some(0));
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("b2nd-meta: {url}: ")) && err.contains("404 Not Found"),
            "{err}"
        );
    }
}

#[test]
fn export_url_to_a_file() {
    let server = Server::serving(arrays());
    let fixture = fixture("edge_many_chunks");
    let out = std::env::temp_dir().join(format!("b2nd-meta-remote-{}.npy", std::process::id()));
    let url = server.url("edge_many_chunks.b2nd");
    let (code, _, err) = run(&[
        "export",
        &url,
        "--slice",
        "1:-1, 1:-1",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let npy = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    assert!(npy.ends_with(&python(&fixture, &fixture["slices"][4])));
}

#[test]
fn a_server_that_ignores_range_is_read_within_the_budget() {
    let server = Server::serving(arrays());
    server.ignore_ranges(true);
    let url = server.url("edge_many_chunks.b2nd");
    let size = std::fs::metadata(arrays().join("edge_many_chunks.b2nd"))
        .unwrap()
        .len();
    // The whole file (19,375 bytes) in one answer, within the budget: read.
    let (code, _, err) = run(&["show", &url, "--budget", "1M"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(server.counts(), (1, size));
    // Past it: one line naming the URL and why, its body read no further than its
    // Content-Length said (nothing).
    let (code, _, err) = run(&["show", &url, "--budget", "10000"]);
    assert_ne!(code, Some(0));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("b2nd-meta: {url}: ")) && err.contains("ignores Range"),
        "{err}"
    );
}

#[test]
fn retries_and_the_timeout_are_set_by_the_environment() {
    let server = Server::serving(arrays());
    server.fail("broken.b2nd", 503);
    let url = server.url("broken.b2nd");
    // A 5xx tried once more per retry, then one line with the last status.
    for (retries, requests) in [("0", 1), ("2", 3)] {
        let before = server.counts().0;
        let out = Command::new(BIN)
            .args(["show", &url])
            .env("B2ND_META_RETRIES", retries)
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(server.counts().0 - before, requests, "{retries}: {err}");
        assert!(
            err.starts_with(&format!("b2nd-meta: {url}: ")) && err.lines().count() == 1,
            "{err}"
        );
    }
    // Accepted, never answered: B2ND_META_TIMEOUT seconds, then one line.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/a.b2nd", silent.local_addr().unwrap());
    let out = Command::new(BIN)
        .args(["show", &url])
        .env("B2ND_META_TIMEOUT", "1")
        .env("B2ND_META_RETRIES", "0")
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("b2nd-meta: {url}: ")) && err.contains("timed out"),
        "{err}"
    );
}
