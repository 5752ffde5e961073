//! Arrays, slices and store nodes read over HTTP range requests (the `remote` feature)
//! from a server the test starts on 127.0.0.1 (`server.rs`), against python-blosc2
//! 4.14.1's values (tests/data/arrays/blosc2-4.14.1/manifest.json); what a read costs
//! in requests and bytes; and each way a server fails: a missing file, a 403, a 5xx
//! retried, a server that ignores `Range`, a file that changes mid-read, a refused
//! connection, a server that never answers.

mod azure;
mod caterva2;
mod cli;
mod gcs;
mod s3;
mod server;
mod spawned;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use b2nd_meta::array::{Array, ArrayError, Selection};
use b2nd_meta::frame::Source;
use b2nd_meta::remote::{Remote, RemoteOptions, RemoteStats};
use serde_json::Value;
use server::Server;

pub fn arrays() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/arrays/blosc2-4.14.1")
}

fn fixtures() -> Vec<Value> {
    let text = std::fs::read_to_string(arrays().join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    manifest["fixtures"].as_array().unwrap().clone()
}

fn fixture(id: &str) -> Value {
    fixtures().into_iter().find(|f| f["id"] == id).unwrap()
}

/// Python's values of `slice` of `fixture`.
fn python(fixture: &Value, slice: &Value) -> Vec<u8> {
    let values = std::fs::read(arrays().join(fixture["values"].as_str().unwrap())).unwrap();
    let at = slice["offset"].as_u64().unwrap() as usize;
    values[at..at + slice["nbytes"].as_u64().unwrap() as usize].to_vec()
}

fn open(source: Source, fixture: &Value) -> Result<Array, ArrayError> {
    match fixture["key"].as_str() {
        Some(key) => Array::open_key(source, key),
        None => Array::open(source),
    }
}

/// Options that make every fetch visible: 1 KiB head and tail, no read-ahead.
fn small(retries: u32) -> RemoteOptions {
    RemoteOptions {
        prefetch: 1024,
        read_ahead: 0,
        retries,
        backoff: Duration::from_millis(1),
        ..RemoteOptions::default()
    }
}

#[test]
fn every_slice_of_every_file_and_store_node_over_http_is_pythons() {
    let server = Server::serving(arrays());
    let mut checked = 0;
    for fixture in fixtures() {
        let (id, path) = (
            fixture["id"].as_str().unwrap(),
            fixture["path"].as_str().unwrap(),
        );
        if arrays().join(path).is_dir() {
            continue; // a .b2d store: a directory, not a file a URL names
        }
        // Small fetches too, so that reads cross the head, the tail and the ranges held.
        for options in [RemoteOptions::default(), small(0)] {
            let remote = Arc::new(Remote::with_options(&server.url(path), options));
            let array =
                open(Source::remote(remote), &fixture).unwrap_or_else(|e| panic!("{id}: {e}"));
            for slice in fixture["slices"].as_array().unwrap() {
                let spec = slice["spec"].as_str().unwrap();
                let sel: Selection = spec.parse().unwrap();
                let got = array
                    .read_bytes(&sel)
                    .unwrap_or_else(|e| panic!("{id} [{spec}]: {e}"));
                assert!(
                    got == python(&fixture, slice),
                    "{id} [{spec}]: values differ"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} slices");
}

/// Where the chunk index of the frame at `path` (under the fixtures) starts, as the
/// local frame reader finds it: the index and the trailer run from there to the end.
fn index_at(path: &str) -> u64 {
    let path = arrays().join(path);
    let frame = b2nd_meta::frame::open(&path).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    match b2nd_meta::frame::ChunkIndex::read(&file, &frame.header).unwrap() {
        // No data: the trailer follows the header.
        index if index.offset == 0 => u64::from(frame.header.info.header_len),
        index => index.offset,
    }
}

#[test]
fn an_open_is_two_requests_and_a_small_file_is_read_by_them_once() {
    let server = Server::serving(arrays());
    let fixture = fixture("edge_many_chunks");
    let url = server.url("edge_many_chunks.b2nd");
    let size = std::fs::metadata(arrays().join("edge_many_chunks.b2nd"))
        .unwrap()
        .len();
    let remote = Arc::new(Remote::new(&url));
    // One thread: the order of the requests is the order of the reads.
    let array = Array::open(Source::remote(remote.clone()))
        .unwrap()
        .with_threads(1);
    for slice in fixture["slices"].as_array().unwrap() {
        let sel: Selection = slice["spec"].as_str().unwrap().parse().unwrap();
        assert_eq!(array.read_bytes(&sel).unwrap(), python(&fixture, slice));
    }
    // 19,375 bytes: the 8 KiB head, then the chunk index and the trailer exactly (where
    // the header places them), then the gap between (the slices' chunks) in one
    // request; each byte once.
    let tail = index_at("edge_many_chunks.b2nd");
    let ranges = [
        "bytes=0-8191".to_string(),
        format!("bytes={tail}-{}", size - 1),
        format!("bytes=8192-{}", tail - 1),
    ];
    assert_eq!(server.ranges(), ranges);
    assert_eq!(
        remote.stats(),
        RemoteStats {
            requests: 3,
            bytes: size
        }
    );
    assert_eq!(server.counts(), (3, size));
}

#[test]
fn an_open_fetches_the_head_and_exactly_the_index_and_trailer() {
    let server = Server::serving(arrays());
    let mut checked = 0;
    for fixture in fixtures() {
        let path = fixture["path"].as_str().unwrap();
        let local = arrays().join(path);
        if fixture["key"].is_string() || local.is_dir() || !path.ends_with(".b2nd") {
            continue;
        }
        let size = std::fs::metadata(&local).unwrap().len();
        let remote = Arc::new(Remote::with_options(&server.url(path), small(0)));
        Array::open(Source::remote(remote.clone())).unwrap();
        let tail = index_at(path).max(1024);
        let (requests, bytes) = match tail < size {
            true => (2, 1024 + size - tail),
            false => (1, size.min(1024)),
        };
        let want = RemoteStats { requests, bytes };
        assert_eq!(remote.stats(), want, "{path}: {:?}", server.ranges());
        checked += 1;
    }
    assert!(checked > 20, "{checked} files");
}

#[test]
fn one_element_costs_its_chunk_not_the_file() {
    let server = Server::serving(arrays());
    let fixture = fixture("edge_many_chunks");
    let url = server.url("edge_many_chunks.b2nd");
    let remote = Arc::new(Remote::with_options(&url, small(0)));
    let array = Array::open(Source::remote(remote.clone()))
        .unwrap()
        .with_threads(1);
    let opened = remote.stats();
    let size = std::fs::metadata(arrays().join("edge_many_chunks.b2nd"))
        .unwrap()
        .len();
    let tail = size - index_at("edge_many_chunks.b2nd");
    assert_eq!(
        opened,
        RemoteStats {
            requests: 2,
            bytes: 1024 + tail
        }
    );
    // One element of a chunk in the middle of the file (python's value, from its full
    // read: 60 x 50 int32); then the same again, from what is held.
    let one: Selection = "30, 25".parse().unwrap();
    let all = python(&fixture, &fixture["slices"][0]);
    let want = &all[4 * (30 * 50 + 25)..][..4];
    assert_eq!(array.read_bytes(&one).unwrap(), want);
    let read = remote.stats();
    assert_eq!(array.read_bytes(&one).unwrap(), want);
    assert_eq!(remote.stats(), read);
    // The chunk's header with its block offsets (56 bytes, as python reads them),
    // then the one block that holds the element (48 bytes): 104 of the file's 19,375.
    let (requests, bytes) = (read.requests - opened.requests, read.bytes - opened.bytes);
    assert_eq!(
        (requests, bytes),
        (2, 56 + 48),
        "ranges {:?}",
        server.ranges()
    );
    assert_eq!(server.counts(), (read.requests, read.bytes));
}

#[test]
fn a_server_that_ignores_range_is_read_once_within_the_cap() {
    let server = Server::serving(arrays());
    server.ignore_ranges(true);
    let fixture = fixture("edge_many_chunks");
    let url = server.url("edge_many_chunks.b2nd");
    let size = std::fs::metadata(arrays().join("edge_many_chunks.b2nd"))
        .unwrap()
        .len();
    let remote = Arc::new(Remote::with_options(&url, small(0)));
    let array = Array::open(Source::remote(remote.clone())).unwrap();
    let all = &fixture["slices"][0];
    assert_eq!(
        array.read_bytes(&"...".parse().unwrap()).unwrap(),
        python(&fixture, all)
    );
    assert_eq!(
        remote.stats(),
        RemoteStats {
            requests: 1,
            bytes: size
        }
    );
    // More than the cap: refused, saying why.
    let capped = RemoteOptions {
        max_whole: 10_000,
        ..small(0)
    };
    let err =
        Array::open(Source::remote(Arc::new(Remote::with_options(&url, capped)))).unwrap_err();
    let line = err.to_string();
    assert!(
        line.starts_with(&url) && line.contains("ignores Range") && line.contains("10000 bytes"),
        "{line}"
    );
}

#[test]
fn a_whole_file_sent_chunked_is_read_no_further_than_the_cap() {
    // No Content-Length: the cap is met while reading, and the body read no further.
    let server = Server::serving(arrays());
    server.ignore_ranges(true);
    server.chunked(true);
    let fixture = fixture("edge_many_chunks");
    let url = server.url("edge_many_chunks.b2nd");
    let array = Array::open(Source::remote(Arc::new(Remote::with_options(
        &url,
        small(0),
    ))));
    let all = &fixture["slices"][0];
    assert_eq!(
        array.unwrap().read_bytes(&"...".parse().unwrap()).unwrap(),
        python(&fixture, all)
    );
    let capped = RemoteOptions {
        max_whole: 10_000,
        ..small(0)
    };
    let remote = Arc::new(Remote::with_options(&url, capped));
    let err = Array::open(Source::remote(remote.clone()))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(&url) && err.contains("ignores Range") && err.contains("10000 bytes"),
        "{err}"
    );
    // A body refused is not counted as received.
    assert_eq!(remote.stats().bytes, 0, "{err}");
}

#[test]
fn a_file_that_changes_mid_read_is_an_error_not_mixed_bytes() {
    let server = Server::serving(arrays());
    let name = "changing.b2nd";
    let bytes = std::fs::read(arrays().join("edge_many_chunks.b2nd")).unwrap();
    server.put(name, bytes.clone());
    let url = server.url(name);
    let array = Array::open(Source::remote(Arc::new(Remote::with_options(
        &url,
        small(0),
    ))))
    .unwrap();
    // Same size, one byte of a chunk changed: only the ETag tells.
    let mut changed = bytes;
    changed[5000] ^= 1;
    server.put(name, changed);
    let err = array
        .read_bytes(&"...".parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("changed while it was read"), "{err}");
    assert!(err.starts_with(&url), "{err}");
}

#[test]
fn statuses_are_one_line_naming_the_url() {
    let server = Server::serving(arrays());
    server.fail("forbidden.b2nd", 403);
    server.fail("broken.b2nd", 500);
    for (name, status) in [
        ("missing.b2nd", "404 Not Found"),
        ("forbidden.b2nd", "403 Forbidden"),
        ("broken.b2nd", "500 Internal Server Error"),
    ] {
        let url = server.url(name);
        let remote = Arc::new(Remote::with_options(&url, small(2)));
        let err = Array::open(Source::remote(remote.clone()))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&url) && err.contains(status) && !err.contains('\n'),
            "{err}"
        );
        // A 5xx is tried again (twice), a 4xx not.
        let tries = if status.starts_with('5') { 3 } else { 1 };
        assert_eq!(remote.stats().requests, tries, "{name}");
    }
    let err = b2nd_meta::container::open(Source::url(&server.url("missing.b2z"))).unwrap_err();
    assert!(err.to_string().contains("404 Not Found"), "{err}");
}

#[test]
fn a_refused_connection_and_a_silent_server_fail_within_bounds() {
    let refused = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/a.b2nd", refused.local_addr().unwrap());
    drop(refused);
    let remote = Arc::new(Remote::with_options(&url, small(1)));
    let err = Array::open(Source::remote(remote.clone()))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with(&url), "{err}");
    assert_eq!(remote.stats().requests, 2);
    // Accepted by the kernel, never answered: the timeout ends each try.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/a.b2nd", silent.local_addr().unwrap());
    let options = RemoteOptions {
        timeout: Duration::from_millis(200),
        ..small(1)
    };
    let remote = Arc::new(Remote::with_options(&url, options));
    let err = Array::open(Source::remote(remote.clone()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("timed out"), "{err}");
    assert_eq!(remote.stats().requests, 2);
}

#[test]
fn a_b2z_bundle_is_read_through_its_zip_directory() {
    let server = Server::serving(arrays());
    let url = server.url("store_tree.b2z");
    let size = std::fs::metadata(arrays().join("store_tree.b2z"))
        .unwrap()
        .len();
    // A 1,531-byte bundle: a 256-byte head and tail, so that the members are fetched.
    let options = RemoteOptions {
        prefetch: 256,
        ..small(0)
    };
    let remote = Arc::new(Remote::with_options(&url, options));
    let store = b2nd_meta::container::open(Source::remote(remote.clone())).unwrap();
    let local = b2nd_meta::container::open(arrays().join("store_tree.b2z")).unwrap();
    let keys = |c: &b2nd_meta::container::Container| -> Vec<String> {
        c.entries().iter().map(|e| e.key.clone()).collect()
    };
    assert_eq!(keys(&store), keys(&local));
    let fixture = fixture("store_tree_b2z_g_h_big");
    let array = Array::open_node(&store, "/g/h/big").unwrap();
    let all = &fixture["slices"][0];
    assert_eq!(
        array.read_bytes(&"...".parse().unwrap()).unwrap(),
        python(&fixture, all)
    );
    // The listing reads every member's header and trailer: here every byte of the
    // small bundle, each once, in 4 requests (head, tail with the zip directory, the
    // two gaps).
    let stats = remote.stats();
    assert_eq!(
        stats,
        RemoteStats {
            requests: 4,
            bytes: size
        },
        "{:?}",
        server.ranges()
    );
}

#[test]
fn a_long_value_is_one_request_not_one_per_doubling() {
    // A 64 KiB vlmeta value in the trailer of a 71,749-byte frame: fetched with the
    // trailer when the frame opens, not in 1, 2, 4 ... KiB pieces.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/values/big");
    let server = Server::serving(&dir);
    let remote = Arc::new(Remote::new(&server.url("big.b2nd")));
    let frame = b2nd_meta::frame::open(Source::remote(remote.clone())).unwrap();
    let local = b2nd_meta::frame::open(dir.join("big.b2nd")).unwrap();
    assert_eq!(frame.vlmeta_names().unwrap(), local.vlmeta_names().unwrap());
    let value = frame.vlmeta_bytes("big").unwrap();
    assert!(value.len() > 65_536 && value == local.vlmeta_bytes("big").unwrap());
    // The head, then the index and the trailer with the value: 2 requests.
    assert_eq!(remote.stats().requests, 2, "{:?}", server.ranges());
}

#[test]
fn threads_reading_at_once_fetch_each_byte_once() {
    let server = Server::serving(arrays());
    let fixture = fixture("edge_many_chunks");
    let size = std::fs::metadata(arrays().join("edge_many_chunks.b2nd"))
        .unwrap()
        .len();
    for _ in 0..5 {
        let options = RemoteOptions {
            read_ahead: 0,
            ..small(0)
        };
        let remote = Arc::new(Remote::with_options(
            &server.url("edge_many_chunks.b2nd"),
            options,
        ));
        let array = Array::open(Source::remote(remote.clone()))
            .unwrap()
            .with_threads(4);
        let all = &fixture["slices"][0];
        assert_eq!(
            array.read_bytes(&"...".parse().unwrap()).unwrap(),
            python(&fixture, all)
        );
        // However the threads' fetches interleave, no byte comes twice.
        assert!(remote.stats().bytes <= size, "{:?}", remote.stats());
    }
}
