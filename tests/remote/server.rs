//! A range-serving HTTP/1.1 server on 127.0.0.1, started by the test: the files of a
//! directory (or put by the test), single ranges (`bytes=A-B`, `A-`, `-N`) as RFC 9110
//! says, an ETag per content; it counts requests and body bytes, and can be told to
//! ignore `Range`, to answer a status instead, or to change a file between requests.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Shared {
    root: Option<PathBuf>,
    files: Mutex<BTreeMap<String, Vec<u8>>>,
    statuses: Mutex<BTreeMap<String, u16>>,
    ignore_ranges: AtomicBool,
    chunked: AtomicBool,
    requests: AtomicU64,
    bytes: AtomicU64,
    ranges: Mutex<Vec<String>>,
}

pub struct Server {
    port: u16,
    shared: Arc<Shared>,
}

impl Server {
    /// Serves the files under `root` (and those put later).
    pub fn serving(root: impl Into<PathBuf>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            root: Some(root.into()),
            ..Shared::default()
        });
        let serving = Arc::clone(&shared);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&serving);
                std::thread::spawn(move || {
                    let _ = answer(stream, &shared);
                });
            }
        });
        Server { port, shared }
    }

    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }

    /// `name` holds `bytes` from now on (a new ETag).
    pub fn put(&self, name: &str, bytes: Vec<u8>) {
        self.shared.files.lock().unwrap().insert(name.into(), bytes);
    }

    /// `name` answers `status` (and no body but its reason).
    pub fn fail(&self, name: &str, status: u16) {
        self.shared
            .statuses
            .lock()
            .unwrap()
            .insert(name.into(), status);
    }

    /// Whether `Range` is ignored: every GET a 200 with the whole file.
    pub fn ignore_ranges(&self, ignore: bool) {
        self.shared.ignore_ranges.store(ignore, Ordering::SeqCst);
    }

    /// Whether a whole file is sent chunked (`Transfer-Encoding: chunked`, no
    /// `Content-Length`: its length unknown until its end).
    pub fn chunked(&self, chunked: bool) {
        self.shared.chunked.store(chunked, Ordering::SeqCst);
    }

    /// Requests and body bytes served so far; the ranges asked.
    pub fn counts(&self) -> (u64, u64) {
        let s = &self.shared;
        (
            s.requests.load(Ordering::SeqCst),
            s.bytes.load(Ordering::SeqCst),
        )
    }

    pub fn ranges(&self) -> Vec<String> {
        self.shared.ranges.lock().unwrap().clone()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        206 => "Partial Content",
        403 => "Forbidden",
        404 => "Not Found",
        416 => "Range Not Satisfiable",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Other",
    }
}

/// One request on `stream`, answered, and the connection closed.
fn answer(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let name = line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .trim_start_matches('/')
        .to_string();
    let mut range = None;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':')
            && k.trim().eq_ignore_ascii_case("range")
        {
            range = Some(v.trim().to_string());
        }
    }
    shared.requests.fetch_add(1, Ordering::SeqCst);
    shared
        .ranges
        .lock()
        .unwrap()
        .push(range.clone().unwrap_or_default());
    let status = shared.statuses.lock().unwrap().get(&name).copied();
    let file = shared
        .files
        .lock()
        .unwrap()
        .get(&name)
        .cloned()
        .or_else(|| {
            let root = shared.root.as_ref()?;
            std::fs::read(root.join(&name)).ok()
        });
    let mut out = stream;
    let (status, file) = match (status, file) {
        (Some(status), _) => return reply(&mut out, shared, status, &[], &[]),
        (None, None) => return reply(&mut out, shared, 404, &[], &[]),
        (None, Some(file)) => (200, file),
    };
    let total = file.len() as u64;
    let etag = format!("\"{}-{:x}\"", total, fnv(&file));
    let mut headers = vec![("ETag".to_string(), etag)];
    let range = range.filter(|_| !shared.ignore_ranges.load(Ordering::SeqCst));
    let Some(spec) = range.as_deref().and_then(|r| r.strip_prefix("bytes=")) else {
        if shared.chunked.load(Ordering::SeqCst) {
            return reply_chunked(&mut out, shared, &headers, &file);
        }
        return reply(&mut out, shared, status, &headers, &file);
    };
    let (a, b) = spec.split_once('-').unwrap_or((spec, ""));
    let (start, end) = match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(a), Ok(b)) => (a, b.min(total.saturating_sub(1))),
        (Ok(a), Err(_)) => (a, total.saturating_sub(1)),
        (Err(_), Ok(n)) => (total.saturating_sub(n), total.saturating_sub(1)),
        _ => return reply(&mut out, shared, 416, &headers, &[]),
    };
    if start >= total || end < start {
        headers.push(("Content-Range".into(), format!("bytes */{total}")));
        return reply(&mut out, shared, 416, &headers, &[]);
    }
    headers.push((
        "Content-Range".into(),
        format!("bytes {start}-{end}/{total}"),
    ));
    let body = &file[start as usize..=end as usize];
    reply(&mut out, shared, 206, &headers, body)
}

fn reply(
    out: &mut TcpStream,
    shared: &Shared,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    // Counted before it is sent: the client may have it all, and the test go on,
    // before this thread would count it after.
    shared.bytes.fetch_add(body.len() as u64, Ordering::SeqCst);
    out.write_all(head.as_bytes())?;
    out.write_all(body)?;
    out.flush()
}

/// A 200 with `body` in chunks of 1 KiB, counted as they go: a client that stops
/// reading sees the connection cut, and the count stops near where it did.
fn reply_chunked(
    out: &mut TcpStream,
    shared: &Shared,
    headers: &[(String, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = String::from("HTTP/1.1 200 OK\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    out.write_all(head.as_bytes())?;
    for piece in body.chunks(1024) {
        out.write_all(format!("{:x}\r\n", piece.len()).as_bytes())?;
        out.write_all(piece)?;
        out.write_all(b"\r\n")?;
        shared.bytes.fetch_add(piece.len() as u64, Ordering::SeqCst);
    }
    out.write_all(b"0\r\n\r\n")?;
    out.flush()
}

/// FNV-1a: the ETag of a content.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100000001b3)
    })
}
