//! `gs://` URLs against gcp-storage-emulator 2026.7.19 (from pip: `.ci/servers`),
//! started here on 127.0.0.1 (`STORAGE_EMULATOR_HOST`, as Google's client libraries
//! find an emulator): the objects uploaded through its JSON API, then read by the
//! command line with range GETs of the media download, values against python's; a
//! missing object is one line with the URL and 404. The emulator checks no token: the
//! bearer token is only seen sent (src/remote/gcs.rs). Without the emulator: a loud skip
//! locally, a failure in CI (`CI=true`).

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::{arrays, fixture, python};

/// The emulator: `B2ND_GCS_EMULATOR`, else `.ci/servers`'s place.
fn emulator() -> Option<PathBuf> {
    let path =
        std::env::var_os("B2ND_GCS_EMULATOR")
            .map(PathBuf::from)
            .or_else(|| {
                let cache = std::env::var_os("XDG_CACHE_HOME")
                    .map(PathBuf::from)
                    .or_else(|| Some(PathBuf::from(std::env::var_os("HOME")?).join(".cache")))?;
                Some(cache.join(
                    "b2nd-meta/venvs/gcp-storage-emulator-2026.7.19/bin/gcp-storage-emulator",
                ))
            })?;
    path.exists().then_some(path)
}

/// The emulator, stopped when dropped.
struct Gcs {
    child: Child,
    port: u16,
}

impl Drop for Gcs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gcs() -> Option<Gcs> {
    let Some(server) = emulator() else {
        let why = "gcp-storage-emulator is not installed: `bash .ci/servers` installs it (tests/remote/gcs.rs)";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("\n!!! SKIPPED: {why}\n");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(server)
        .args(["start", "--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--in-memory", "--default-bucket", "data", "-q"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let gcs = Gcs { child, port };
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "gcp-storage-emulator did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Some(gcs)
}

/// Uploads `body` as object `name` of bucket `data` (the JSON API's media upload).
fn upload(gcs: &Gcs, name: &str, body: &[u8]) {
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
fn run(gcs: &Gcs, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
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
