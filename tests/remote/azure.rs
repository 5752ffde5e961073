//! `az://` URLs against Azurite's Blob service (3.35.0, from npm: `.ci/servers`),
//! started here on 127.0.0.1 with its well-known development account: the blobs put
//! with Shared Key PUTs signed here, then read by the command line with Shared Key
//! range GETs (`AZURE_STORAGE_ENDPOINT`, `AZURE_STORAGE_ACCOUNT`, `AZURE_STORAGE_KEY`),
//! values against python's. Azurite checks every signature: a wrong key is a 403.
//! Without Azurite: a loud skip locally, a failure in CI (`CI=true`).

use std::process::Command;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::spawned::{free_port, installed, start, Spawned};
use crate::{arrays, fixture, python};

/// Azurite's development account and its key (its documentation's).
const ACCOUNT: &str = "devstoreaccount1";
const KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// Azurite's Blob service, stopped and its files removed when dropped.
struct Azurite(Spawned);

impl Azurite {
    fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}/{ACCOUNT}", self.0.port)
    }
}

/// Azurite on a free port of 127.0.0.1, answering (`B2ND_AZURITE_BLOB`, else
/// `.ci/servers`'s place); `None` (said loudly) when it is not installed and this is
/// not CI.
fn azurite() -> Option<Azurite> {
    let server = installed(
        "B2ND_AZURITE_BLOB",
        "b2nd-meta/azurite-3.35.0/node_modules/.bin/azurite-blob",
        "azurite",
        "tests/remote/azure.rs",
    )?;
    let dir = std::env::temp_dir().join(format!("b2nd-meta-azurite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut command = Command::new(server);
    command
        .args(["--blobHost", "127.0.0.1", "--blobPort", &port.to_string()])
        .args(["--location", dir.to_str().unwrap(), "--silent"]);
    Some(Azurite(start(command, port, Some(dir), "azurite")))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            match i <= group.len() {
                true => out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char),
                false => out.push('='),
            }
        }
    }
    out
}

fn unbase64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let (mut out, mut n, mut bits) = (Vec::new(), 0u32, 0);
    for c in text.trim_end_matches('=').bytes() {
        n = n << 6 | ALPHABET.iter().position(|&a| a == c).unwrap() as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    out
}

/// A Shared Key PUT of `body` to `path` (`/container?restype=container`, or
/// `/container/blob`), as Azure's "Authorize with Shared Key" says.
fn put(azurite: &Azurite, path: &str, body: &[u8]) {
    let date = httpdate();
    let (resource, query) = path.split_once('?').unwrap_or((path, ""));
    let blob = query.is_empty();
    let length = match body.len() {
        0 => String::new(),
        n => n.to_string(),
    };
    let mut headers = format!("x-ms-date:{date}\nx-ms-version:2021-08-06\n");
    if blob {
        headers = format!("x-ms-blob-type:BlockBlob\n{headers}");
    }
    let mut canonical = format!("/{ACCOUNT}/{ACCOUNT}{resource}");
    if let Some((k, v)) = query.split_once('=') {
        canonical.push_str(&format!("\n{k}:{v}"));
    }
    let content_type = if blob { "application/octet-stream" } else { "" };
    let to_sign = format!("PUT\n\n\n{length}\n\n{content_type}\n\n\n\n\n\n\n{headers}{canonical}");
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&unbase64(KEY)).unwrap();
    mac.update(to_sign.as_bytes());
    let signature = base64(&mac.finalize().into_bytes());
    let url = format!("{}{path}", azurite.endpoint());
    let mut request = ureq::put(&url)
        .header("x-ms-date", &date)
        .header("x-ms-version", "2021-08-06")
        .header("Authorization", format!("SharedKey {ACCOUNT}:{signature}"));
    if blob {
        request = request
            .header("x-ms-blob-type", "BlockBlob")
            .header("Content-Type", content_type);
    }
    let response = request.send(body).unwrap();
    assert!(
        response.status().is_success(),
        "PUT {url}: {}",
        response.status()
    );
}

/// Now as HTTP writes dates (the tool's own is tested in src/remote/azure.rs).
fn httpdate() -> String {
    let out = Command::new("date")
        .args(["-u", "+%a, %d %b %Y %H:%M:%S GMT"])
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Runs the tool with the Azure variables for `azurite` (`key`: the account key):
/// exit code, stdout, stderr.
fn run(azurite: &Azurite, key: &str, args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args(args)
        .env("AZURE_STORAGE_ENDPOINT", azurite.endpoint())
        .env("AZURE_STORAGE_ACCOUNT", ACCOUNT)
        .env("AZURE_STORAGE_KEY", key)
        .env_remove("AZURE_STORAGE_ACCOUNT_NAME")
        .env_remove("AZURE_STORAGE_ACCOUNT_KEY")
        .output()
        .unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn azure_blobs_read_as_the_files_do() {
    let Some(azurite) = azurite() else { return };
    put(&azurite, "/data?restype=container", b"");
    for name in ["edge_many_chunks.b2nd", "store_tree.b2z"] {
        let bytes = std::fs::read(arrays().join(name)).unwrap();
        put(&azurite, &format!("/data/run%201/{name}"), &bytes);
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
        let url = format!("az://data/run 1/{name}");
        let spec = slice["spec"].as_str().unwrap();
        let mut args = vec!["export", &url, "-o", "-", "--slice", spec];
        if let Some(key) = key {
            args.extend(["--key", key]);
        }
        let (code, npy, err) = run(&azurite, KEY, &args);
        assert_eq!(code, Some(0), "{id} [{spec}]: {err}");
        assert!(npy.ends_with(&python(&fixture, slice)), "{id} [{spec}]");
    }
    // A missing blob, a wrong key: one line with the URL and the status.
    let wrong = base64(&[7; 64]);
    for (url, key, status) in [
        ("az://data/run 1/missing.b2nd", KEY, "404"),
        (
            "az://data/run 1/edge_many_chunks.b2nd",
            wrong.as_str(),
            "403",
        ),
    ] {
        let (code, _, err) = run(&azurite, key, &["show", url]);
        assert_ne!(code, Some(0));
        assert!(
            err.starts_with(&format!("b2nd-meta: {url}: "))
                && err.contains(status)
                && err.lines().count() == 1,
            "{err}"
        );
    }
}
