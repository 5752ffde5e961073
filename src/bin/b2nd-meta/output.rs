//! The command's output: one line of text or of JSON on stdout (a closed stdout stops
//! the command quietly), one line on stderr for each failure, and arguments given as
//! `-` read from stdin.

use std::io::{self, Read, Write};

use b2nd_meta::frame::{Locking, Source, Target};

/// How a command ended: every path done (`Ok(true)`), some refused or failing, each
/// said on stderr (`Ok(false)`), or stopped before its end ([`Fatal`]).
pub type Outcome = Result<bool, Fatal>;

/// Why a command stopped before its end.
pub enum Fatal {
    /// stdout was closed by its reader: stop quietly.
    BrokenPipe,
    /// A failure to report on stderr: context and message.
    Error(String, String),
}

/// A [`Fatal::Error`] in `context`.
pub fn fatal(context: impl Into<String>, message: impl ToString) -> Fatal {
    Fatal::Error(context.into(), message.to_string())
}

/// Writes one line to stderr, as `b2nd-meta: <context>: <message>`, on one line
/// whatever the message holds: line breaks become spaces, other control characters
/// (an escape sequence in a file's name or key) are escaped. Errors writing to stderr
/// are ignored: there is no one left to tell.
pub fn say(context: &str, message: &str) {
    let mut line = String::new();
    for c in format!("b2nd-meta: {context}: {message}").chars() {
        match c {
            '\n' | '\r' => line.push(' '),
            // JSON's escape (`\u001b`), as `show`'s output writes it.
            c if c.is_control() => line.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => line.push(c),
        }
    }
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// After a second of waiting for a lock another process holds: which one, once.
/// The command's lock protocol options (`--lock-timeout`), set once by `main`.
static LOCKING: std::sync::OnceLock<Locking> = std::sync::OnceLock::new();

/// Sets the command's [`Locking`] (once, before any file is opened).
pub fn set_locking(locking: Locking) {
    let _ = LOCKING.set(locking);
}

/// The command's [`Locking`]: C-Blosc2's protocol when it is in use, a line on stderr
/// after a second of waiting, `--lock-timeout` when given.
pub fn locking() -> Locking {
    LOCKING
        .get()
        .copied()
        .unwrap_or(Locking::AUTO.on_wait(lock_notice))
}

/// `path` read under the command's locking; a URL (`http://`, `https://`, `s3://`)
/// read by range requests, with the `remote` feature.
pub fn source(path: &std::path::Path) -> Source {
    #[cfg(feature = "remote")]
    if let Some(url) = path.to_str().filter(|p| b2nd_meta::remote::is_url(p)) {
        return Source::remote(remote(url));
    }
    Source::path(path).locking(locking())
}

/// The command's `--budget`, set once by `main` before any URL is opened: also the
/// most a server that ignores `Range` may send.
static BUDGET: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// Sets the command's `--budget` (once, before any file is opened).
pub fn set_budget(budget: u64) {
    let _ = BUDGET.set(budget);
}

/// The one [`Remote`](b2nd_meta::remote::Remote) of `url` for the whole command: a
/// second open of the same URL (an error's explanation) reads what the first fetched.
/// `B2ND_META_TIMEOUT` (seconds a request may take) and `B2ND_META_RETRIES` bound it;
/// `--budget` the whole file a server that ignores `Range` sends.
#[cfg(feature = "remote")]
fn remote(url: &str) -> std::sync::Arc<b2nd_meta::remote::Remote> {
    use b2nd_meta::remote::{Remote, RemoteOptions};
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};
    static REMOTES: Mutex<BTreeMap<String, Arc<Remote>>> = Mutex::new(BTreeMap::new());
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse().ok());
    let mut options = RemoteOptions::default();
    if let Some(secs) = env("B2ND_META_TIMEOUT") {
        options.timeout = std::time::Duration::from_secs(secs);
    }
    if let Some(retries) = env("B2ND_META_RETRIES") {
        options.retries = u32::try_from(retries).unwrap_or(u32::MAX);
    }
    if let Some(budget) = BUDGET.get() {
        options.max_whole = *budget;
    }
    let mut remotes = REMOTES.lock().unwrap_or_else(|p| p.into_inner());
    let remote = remotes
        .entry(url.to_string())
        .or_insert_with(|| Arc::new(Remote::with_options(url, options)));
    Arc::clone(remote)
}

/// `path` edited under the command's locking.
pub fn target(path: &std::path::Path) -> Target<'static> {
    Target::path(path).locking(locking())
}

/// After a second of waiting for a lock another process holds: which one, once.
pub fn lock_notice(lock: &std::path::Path) {
    say(
        &lock.to_string_lossy(),
        "waiting for the lock another process holds on it (--lock-timeout SECONDS gives up)",
    );
}

/// A write to stdout that failed: quietly when its reader closed it.
pub fn stdout_error(e: io::Error) -> Fatal {
    match e.kind() {
        io::ErrorKind::BrokenPipe => Fatal::BrokenPipe,
        _ => fatal("stdout", e),
    }
}

/// A JSON write to stdout that failed: quietly when its reader closed it.
fn json_error(e: serde_json::Error) -> Fatal {
    match e.io_error_kind() {
        Some(io::ErrorKind::BrokenPipe) => Fatal::BrokenPipe,
        _ => fatal("stdout", e),
    }
}

/// Writes `text` and a newline to stdout.
pub fn emit(out: &mut impl Write, text: &str) -> Result<(), Fatal> {
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// Writes `value` as one line of JSON into `out` (a buffer of the caller's, flushed by
/// the caller).
pub fn json_line(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Fatal> {
    serde_json::to_writer(&mut *out, value).map_err(json_error)?;
    out.write_all(b"\n").map_err(stdout_error)
}

/// The argument, or stdin when it is `-`.
pub fn argument_or_stdin(arg: &str, context: &str) -> Result<String, Fatal> {
    if arg != "-" {
        return Ok(arg.to_owned());
    }
    let mut text = String::new();
    io::stdin()
        .lock()
        .read_to_string(&mut text)
        .map_err(|e| fatal(context, format!("cannot read stdin: {e}")))?;
    Ok(text)
}

/// Writes `value` as one line of JSON, streamed (a large metalayer's hex is never
/// held in memory as a whole).
pub fn emit_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), Fatal> {
    {
        let mut buffered = io::BufWriter::with_capacity(1 << 16, &mut *out);
        json_line(&mut buffered, value)?;
        buffered.flush().map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}
