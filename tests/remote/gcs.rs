//! `gs://` URLs against gcp-storage-emulator 2026.7.19 (from pip: `.ci/servers`),
//! started here on 127.0.0.1 (`STORAGE_EMULATOR_HOST`, as Google's client libraries
//! find an emulator): the objects uploaded through its JSON API, then read by the
//! command line with range GETs of the media download, values against python's; a
//! missing object is one line with the URL and 404. The emulator checks no token: the
//! bearer token is only seen sent (src/remote/gcs.rs). Without the emulator: a loud skip
//! locally, a failure in CI (`CI=true`).

use std::process::Command;

use crate::spawned::{free_port, installed, start, Spawned};
use crate::{arrays, fixture, python};

/// The emulator on a free port of 127.0.0.1 with a bucket `data`, answering
/// (`B2ND_GCS_EMULATOR`, else `.ci/servers`'s place); `None` (said loudly) when it is
/// not installed and this is not CI.
fn gcs() -> Option<Spawned> {
    let server = installed(
        "B2ND_GCS_EMULATOR",
        "b2nd-meta/venvs/gcp-storage-emulator-2026.7.19/bin/gcp-storage-emulator",
        "gcp-storage-emulator",
        "tests/remote/gcs.rs",
    )?;
    let port = free_port();
    let mut command = Command::new(server);
    command
        .args(["start", "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--in-memory", "--default-bucket", "data", "-q"]);
    Some(start(command, port, None, "gcp-storage-emulator"))
}

/// Uploads `body` as object `name` of bucket `data` (the JSON API's media upload).
fn upload(gcs: &Spawned, name: &str, body: &[u8]) {
    let url = format!(
        "http://127.0.0.1:{}/upload/storage/v1/b/data/o?uploadType=media&name={}",
        gcs.port,
        name.replace(' ', "%20").replace('/', "%2F")
    );
    let response = ureq::post(&url).send(body).unwrap();
    assert!(
        response.status().is_success(),
        "POST {url}: {}",
        response.status()
    );
}

/// Runs the tool with `STORAGE_EMULATOR_HOST` set to `gcs`: exit code, stdout, stderr.
fn run(gcs: &Spawned, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args(args)
        .env("STORAGE_EMULATOR_HOST", format!("127.0.0.1:{}", gcs.port))
        .env("GOOGLE_OAUTH_ACCESS_TOKEN", "a-token")
        .output()
        .unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn gcs_objects_read_as_the_files_do() {
    let Some(gcs) = gcs() else { return };
    for name in ["edge_many_chunks.b2nd", "store_tree.b2z"] {
        let bytes = std::fs::read(arrays().join(name)).unwrap();
        upload(&gcs, &format!("run 1/{name}"), &bytes);
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
        let url = format!("gs://data/run 1/{name}");
        let spec = slice["spec"].as_str().unwrap();
        let mut args = vec!["export", &url, "-o", "-", "--slice", spec];
        if let Some(key) = key {
            args.extend(["--key", key]);
        }
        let (code, npy, err) = run(&gcs, &args);
        assert_eq!(code, Some(0), "{id} [{spec}]: {err}");
        assert!(npy.ends_with(&python(&fixture, slice)), "{id} [{spec}]");
    }
    let url = "gs://data/run 1/missing.b2nd";
    let (code, _, err) = run(&gcs, &["show", url]);
    assert_ne!(code, Some(0));
    assert!(
        err.starts_with(&format!("b2nd-meta: {url}: "))
            && err.contains("404")
            && err.lines().count() == 1,
        "{err}"
    );
}
