//! One ranged GET, retried within bounds: what the answer says (the bytes, the file's
//! size from `Content-Range`, its ETag or Last-Modified), or an error naming the status.

use std::format;
use std::io;
use std::string::{String, ToString};
use std::sync::atomic::{AtomicU64, Ordering};
use std::vec::Vec;

use super::RemoteOptions;
use super::{azure, gcs, s3};

/// Where the bytes come from, as a GET is built.
#[derive(Debug, Clone)]
pub(super) enum Endpoint {
    /// `http://` or `https://` (a Caterva2 `/api/fetch/...` too): the URL as given,
    /// with a cookie when a login gave one.
    Http { url: String, cookie: Option<String> },
    /// `s3://bucket/key`, signed when credentials are set.
    S3(s3::Object),
    /// `az://container/blob`, signed when an account key is set.
    Azure(azure::Blob),
    /// `gs://bucket/object`, with a bearer token when one is set.
    Gcs(gcs::Object),
}

/// What a ranged GET answered.
pub(super) struct Answer {
    /// The bytes, from where asked (206), or the whole file (200: Range ignored).
    pub(super) bytes: Vec<u8>,
    /// Whether the server sent the whole file (it ignores `Range`).
    pub(super) whole: bool,
    /// The file's size, from `Content-Range` (or the whole body's length).
    pub(super) size: u64,
    /// Where the bytes start in the file, from `Content-Range` (0 for a whole file).
    pub(super) start: u64,
    /// ETag, or Last-Modified when there is none: what pins the version read.
    pub(super) version: Option<String>,
}

/// A GET of `range` (`bytes=A-B` or `bytes=-N`), retried as `options` say on
/// connection failures and 5xx; a body of more than `cap` bytes is refused.
pub(super) fn get(
    agent: &ureq::Agent,
    endpoint: &Endpoint,
    range: &str,
    cap: u64,
    options: &RemoteOptions,
    requests: &AtomicU64,
) -> io::Result<Answer> {
    let mut attempt = 0;
    loop {
        requests.fetch_add(1, Ordering::Relaxed);
        match get_once(agent, endpoint, range, cap) {
            Err(Failure::Retry(_)) if attempt < options.retries => {
                attempt += 1;
                std::thread::sleep(options.backoff * (1 << attempt.min(6)) / 2);
            }
            Err(Failure::Retry(e) | Failure::Final(e)) => return Err(e),
            Ok(answer) => return Ok(answer),
        }
    }
}

/// The error of a server that serves no byte ranges of a URL (a 416 with
/// `Accept-Ranges: none`): [`super::Remote::refuses_ranges`] says so afterwards.
#[derive(Debug)]
pub(super) struct RangesRefused(String);

impl core::fmt::Display for RangesRefused {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RangesRefused {}

/// Whether `e` says the server serves no byte ranges.
pub(super) fn refused(e: &io::Error) -> bool {
    e.get_ref()
        .is_some_and(|inner| inner.downcast_ref::<RangesRefused>().is_some())
}

enum Failure {
    /// Worth another try: a connection refused or cut, a timeout, a 5xx.
    Retry(io::Error),
    Final(io::Error),
}

fn get_once(
    agent: &ureq::Agent,
    endpoint: &Endpoint,
    range: &str,
    cap: u64,
) -> Result<Answer, Failure> {
    let request = match endpoint {
        Endpoint::Http { url, cookie } => {
            // No range: the whole answer (a Caterva2 `/api/info` or `/api/chunk`).
            let request = match range {
                "" => agent.get(url),
                range => agent.get(url).header("Range", range),
            };
            match cookie {
                Some(cookie) => request.header("Cookie", cookie),
                None => request,
            }
        }
        Endpoint::S3(object) => {
            let mut request = agent.get(&object.url).header("Range", range);
            if let Some(creds) = &object.credentials {
                let signed = s3::sign(creds, &object.host, &object.path, range, &s3::amz_now());
                for (name, value) in signed {
                    request = request.header(name, value);
                }
            }
            request
        }
        Endpoint::Azure(blob) => {
            let mut request = agent.get(&blob.url).header("Range", range);
            for (name, value) in azure::sign(blob, range, &azure::http_date()) {
                request = request.header(name, value);
            }
            request
        }
        Endpoint::Gcs(object) => {
            let request = agent.get(&object.url).header("Range", range);
            match &object.token {
                Some(token) => request.header("Authorization", format!("Bearer {token}")),
                None => request,
            }
        }
    };
    let mut response = request.call().map_err(transport)?;
    let status = response.status();
    if !(status.as_u16() == 200 || status.as_u16() == 206) {
        let line = status_line(status.as_u16(), status.canonical_reason());
        let kind = match status.as_u16() {
            404 | 410 => io::ErrorKind::NotFound,
            401 | 403 => io::ErrorKind::PermissionDenied,
            _ => io::ErrorKind::Other,
        };
        // 416 with `Accept-Ranges: none`: this URL is served whole or not at all (a
        // Caterva2 dataset computed or held inside a container).
        let none = response
            .headers()
            .get("accept-ranges")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("none"));
        if status.as_u16() == 416 && none {
            let refused = RangesRefused(format!("{line} (Accept-Ranges: none)"));
            return Err(Failure::Final(io::Error::new(
                io::ErrorKind::Unsupported,
                refused,
            )));
        }
        let e = io::Error::new(kind, line);
        return Err(if status.is_server_error() {
            Failure::Retry(e)
        } else {
            Failure::Final(e)
        });
    }
    let header = |name: &str| {
        let value = response.headers().get(name)?;
        value.to_str().ok().map(str::to_string)
    };
    let version = header("etag").or_else(|| header("last-modified"));
    let content_range = header("content-range");
    let whole = status.as_u16() == 200;
    let too_long = || {
        let what = match range {
            "" => "the answer is",
            _ => "the server ignores Range and sends the whole file,",
        };
        Failure::Final(io::Error::other(format!(
            "{what} more than the {cap} bytes allowed (RemoteOptions::max_whole, the \
             command's --budget)"
        )))
    };
    // A whole file is read up to `cap` bytes (refused before any when its length says
    // more), a range up to the length asked: never a byte past either.
    let limit = match asked(range) {
        Some(asked) if !whole => asked,
        _ => cap,
    };
    if whole && response.body().content_length().is_some_and(|n| n > cap) {
        return Err(too_long());
    }
    let bytes = response
        .body_mut()
        .with_config()
        .limit(limit)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) if whole => too_long(),
            ureq::Error::BodyExceedsLimit(_) => Failure::Final(io::Error::other(format!(
                "asked for {limit} bytes ({range}), the server sent more"
            ))),
            e => transport(e),
        })?;
    let (start, size) = if whole {
        (0, bytes.len() as u64)
    } else {
        content_range
            .as_deref()
            .and_then(start_and_total)
            .ok_or_else(|| {
                Failure::Final(io::Error::other(format!(
                    "206 without a Content-Range giving where and the size: {content_range:?}"
                )))
            })?
    };
    Ok(Answer {
        bytes,
        whole,
        size,
        start,
        version,
    })
}

/// `404 Not Found`.
fn status_line(code: u16, reason: Option<&str>) -> String {
    match reason {
        Some(reason) => format!("{code} {reason}"),
        None => code.to_string(),
    }
}

/// A failure before any status: retried.
fn transport(e: ureq::Error) -> Failure {
    match e {
        ureq::Error::Io(e) => Failure::Retry(e),
        ureq::Error::Timeout(t) => Failure::Retry(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("timed out ({t})"),
        )),
        ureq::Error::ConnectionFailed | ureq::Error::HostNotFound => Failure::Retry(
            io::Error::new(io::ErrorKind::ConnectionRefused, e.to_string()),
        ),
        e => Failure::Final(io::Error::other(e.to_string())),
    }
}

/// How many bytes `bytes=A-B` asks for (`None` for other forms).
fn asked(range: &str) -> Option<u64> {
    let (a, b) = range.strip_prefix("bytes=")?.split_once('-')?;
    let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
    b.checked_sub(a)?.checked_add(1)
}

/// `A` and `TOTAL` of `bytes A-B/TOTAL`.
fn start_and_total(content_range: &str) -> Option<(u64, u64)> {
    let (range, total) = content_range
        .trim()
        .strip_prefix("bytes ")?
        .rsplit_once('/')?;
    let (start, _) = range.split_once('-')?;
    Some((start.trim().parse().ok()?, total.trim().parse().ok()?))
}

/// Logs in to a Caterva2 server (`POST /auth/jwt/login` on the URL's server, as its
/// web client does) and gives the `c2subauth` cookie to send with each GET.
pub(super) fn caterva2_login(
    agent: &ureq::Agent,
    url: &str,
    user: &str,
    password: &str,
) -> io::Result<String> {
    let base = url.split_once("/api/").map_or(url, |(base, _)| base);
    let login = format!("{base}/auth/jwt/login");
    let form = [("username", user), ("password", password)];
    let response = agent
        .post(&login)
        .send_form(form)
        .map_err(|e| io::Error::other(format!("{login}: {e}")))?;
    let status = response.status();
    if !status.is_success() {
        let line = status_line(status.as_u16(), status.canonical_reason());
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("login at {login}: {line}"),
        ));
    }
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|v| v.trim_start().starts_with("c2subauth="))
        .map(|v| v.trim().to_string())
        .ok_or_else(|| io::Error::other(format!("login at {login}: no c2subauth cookie")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_range_totals() {
        for (header, total) in [
            ("bytes 0-99/1340824", Some((0, 1_340_824))),
            ("bytes 5-9/10", Some((5, 10))),
            ("bytes 0-9/*", None),
            ("items 0-9/10", None),
        ] {
            assert_eq!(start_and_total(header), total, "{header}");
        }
        assert_eq!(status_line(404, Some("Not Found")), "404 Not Found");
        for (range, n) in [
            ("bytes=0-8191", Some(8192)),
            ("bytes=5-5", Some(1)),
            ("bytes=-25", None),
            ("bytes=9-3", None),
        ] {
            assert_eq!(asked(range), n, "{range}");
        }
    }
}
