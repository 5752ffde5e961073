//! Reads a slice of an array over HTTP by range requests (the `remote` feature):
//! `cargo run --example remote_read --features remote`. To stay self-contained it
//! serves a python-blosc2 file from this repository on 127.0.0.1 with a few lines of
//! std (`Range: bytes=a-b` answered with 206), then reads it as any URL is read, and
//! prints how many requests and bytes the read took.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;

use b2nd_meta::array::Array;
use b2nd_meta::frame::Source;
use b2nd_meta::remote::Remote;
use b2nd_meta::AnyError;

/// Serves `body` to every GET, the range asked or all of it; forever, on its own thread.
fn serve(body: Vec<u8>) -> std::io::Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let url = format!("http://{}/ndim3_f4.b2nd", listener.local_addr()?);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut range = None;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                let lower = line.to_ascii_lowercase();
                if let Some(spec) = lower.strip_prefix("range: bytes=") {
                    let (a, b) = spec.trim().split_once('-').unwrap_or(("0", ""));
                    let a: usize = a.parse().unwrap_or(0);
                    let b: usize = b.parse().unwrap_or(body.len() - 1);
                    range = Some((a.min(body.len()), (b + 1).min(body.len())));
                }
                line.clear();
            }
            let (a, b) = range.unwrap_or((0, body.len()));
            let status = if range.is_some() {
                "206 Partial Content"
            } else {
                "200 OK"
            };
            let head = format!(
                "HTTP/1.1 {status}\r\nContent-Length: {}\r\nContent-Range: bytes {a}-{}/{}\r\nConnection: close\r\n\r\n",
                b - a,
                b.saturating_sub(1),
                body.len()
            );
            let mut out = &stream;
            let _ = out.write_all(head.as_bytes());
            let _ = out.write_all(&body[a..b]);
        }
    });
    Ok(url)
}

fn main() -> Result<(), AnyError> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd"
    );
    let url = serve(std::fs::read(path)?)?;

    // Any URL reads this way: http(s)://, s3://, a Caterva2 server's /api/fetch/...
    let remote = Arc::new(Remote::new(&url));
    let array = Array::open(Source::remote(remote.clone()))?;
    let plane: Vec<f32> = array.read(&"2, 1:5, ::2".parse()?)?;
    let stats = remote.stats();
    println!(
        "{url}: shape {:?}, arr[2, 1:5, ::2] = {plane:?}; {} requests, {} bytes",
        array.shape(),
        stats.requests,
        stats.bytes
    );
    // The same values as the file read from disk.
    let local: Vec<f32> = Array::open(path)?.read(&"2, 1:5, ::2".parse()?)?;
    assert_eq!(plane, local);
    assert!(stats.bytes <= std::fs::metadata(path)?.len());
    Ok(())
}
