//! `s3://` URLs against moto's S3 server (5.2.5, from pip: `.ci/servers`), started here
//! on 127.0.0.1: the objects put unsigned, then read by the command line with signed
//! range GETs (`AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, ...), values against python's.
//! moto does not check signatures: SigV4 itself is checked against AWS's documented
//! example (src/remote/s3.rs). Without moto: a loud skip locally, a failure in CI
//! (`CI=true`).

use std::process::Command;

use crate::spawned::{free_port, installed, start, Spawned};
use crate::{arrays, fixture, python};

/// moto's S3 server on a free port of 127.0.0.1, answering (`B2ND_MOTO_SERVER`, else
/// `.ci/servers`'s place); `None` (said loudly) when it is not installed and this is
/// not CI.
fn moto() -> Option<Spawned> {
    let server = installed(
        "B2ND_MOTO_SERVER",
        "b2nd-meta/venvs/moto-5.2.5/bin/moto_server",
        "moto",
        "tests/remote/s3.rs",
    )?;
    let port = free_port();
    let mut command = Command::new(server);
    command.args(["-H", "127.0.0.1", "-p", &port.to_string()]);
    Some(start(command, port, None, "moto"))
}

/// An unsigned PUT (moto takes them): a bucket, or an object's bytes.
fn put(moto: &Spawned, path: &str, body: &[u8]) {
    let url = format!("http://127.0.0.1:{}/{path}", moto.port);
    let response = ureq::put(&url).send(body).unwrap();
    assert!(
        response.status().is_success(),
        "PUT {url}: {}",
        response.status()
    );
}

/// Runs the tool with the S3 variables for `moto`: exit code, stdout, stderr.
fn run(moto: &Spawned, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args(args)
        .env(
            "AWS_ENDPOINT_URL",
            format!("http://127.0.0.1:{}", moto.port),
        )
        .env("AWS_ACCESS_KEY_ID", "testing")
        .env("AWS_SECRET_ACCESS_KEY", "testing")
        .env("AWS_REGION", "us-east-1")
        .env_remove("AWS_ENDPOINT_URL_S3")
        .env_remove("AWS_SESSION_TOKEN")
        .output()
        .unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn s3_objects_read_as_the_files_do() {
    let Some(moto) = moto() else { return };
    put(&moto, "data", b"");
    for name in ["edge_many_chunks.b2nd", "store_tree.b2z"] {
        put(
            &moto,
            &format!("data/run%201/{name}"),
            &std::fs::read(arrays().join(name)).unwrap(),
        );
    }
    for (id, name, key, slice) in [
        ("edge_many_chunks", "edge_many_chunks.b2nd", None, 4),
        ("edge_many_chunks", "edge_many_chunks.b2nd", None, 0),
        (
            "store_tree_b2z_g_h_big",
            "store_tree.b2z",
            Some("/g/h/big"),
            4,
        ),
    ] {
        let fixture = fixture(id);
        let slice = &fixture["slices"][slice];
        // A key with a space: S3's encoding of the path, signed as sent.
        let url = format!("s3://data/run 1/{name}");
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
        let (code, npy, err) = run(&moto, &args);
        assert_eq!(code, Some(0), "{id}: {err}");
        assert!(npy.ends_with(&python(&fixture, slice)), "{id}");
    }
    let (code, _, err) = run(&moto, &["show", "s3://data/run 1/missing.b2nd"]);
    assert_ne!(code, Some(0));
    assert!(
        err.starts_with("b2nd-meta: s3://data/run 1/missing.b2nd: ")
            && err.contains("404 Not Found"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
