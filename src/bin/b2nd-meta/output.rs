//! The command's output: one line of text or of JSON on stdout (a closed stdout stops
//! the command quietly), one line on stderr for each failure, and arguments given as
//! `-` read from stdin.

use std::io::{self, Read, Write};

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
