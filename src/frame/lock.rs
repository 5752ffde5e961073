//! C-Blosc2 3.3's frame lock protocol (`blosc/frame.c`: `frame_lock`,
//! `frame_lock_read_seq`), which python-blosc2 4.x uses with `locking=True` or the
//! `BLOSC_LOCKING` environment variable.
//!
//! A sidecar file, `<path>.b2lock` beside a contiguous frame or `<dir>/.b2lock` inside a
//! sparse frame's directory, opened `O_CREAT|O_RDWR` with mode 0666. Writers hold
//! `flock(LOCK_EX)` on it, readers `flock(LOCK_SH)`; a writer adds one to the unsigned
//! 64-bit generation counter at byte 8 (native endianness; a shorter file reads as 0),
//! so that locked handles elsewhere notice the change at their next locked access
//! (python's `refresh()`) even when the frame's length did not change.
//!
//! When we take part ([`LockWhen::Auto`], what every call of this crate uses unless told
//! otherwise): writers when `BLOSC_LOCKING` asks for locking as C reads it (set, not
//! empty, not `"0"`: C-Blosc2 processes in the same environment lock too, and create
//! the sidecar as we then do), and readers and writers whenever the sidecar already
//! exists (someone uses the protocol on this frame; taking part costs one `open` and
//! one `flock`). Without either, no sidecar is created: a file appearing beside a
//! frame the user only asked us to tag would be a surprise, and no locked C handle
//! exists to protect. Readers never create the sidecar. [`LockWhen::Always`] is
//! python's `locking=True`; [`LockWhen::Never`] ignores the protocol.
//!
//! A lock another process holds is waited for as long as it takes, or until the
//! [`Locking::timeout`] ([`FrameErrorKind::LockTimeout`]); after about a second of
//! waiting, [`Locking::on_wait`] is told which lock (the command line says so on
//! stderr). Each call says how it locks: a reader through its
//! [`Source::locking`](super::Source::locking), an edit through its
//! [`Target::locking`](super::Target::locking), a new array through
//! `NewArray::locking`, a vlmeta change through `VlmetaOptions::locking`;
//! [`Locking::AUTO`] where it says nothing.
//!
//! Our writes also keep their own exclusive lock on the frame file itself, as before
//! ([`open_locked`]): a vlmeta write to a frame without data replaces that file by a
//! rename, so a writer that waited on the old file's lock checks, once it holds it,
//! that the path still names that file, and starts over on the new one otherwise.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::{FrameError, FrameErrorKind};
use super::header::FrameKind;
use crate::io::{read_full_at, write_all_at};

/// Where the generation counter lives in the sidecar (`FRAME_LOCK_SEQ_OFFSET`).
pub const LOCK_SEQ_OFFSET: u64 = 8;

/// When a call takes part in the lock protocol (see [`lock_frame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum LockWhen {
    /// When `BLOSC_LOCKING` asks for it (writers create the sidecar then), or when the
    /// sidecar exists.
    #[default]
    Auto,
    /// Always; writers create the sidecar (python's `locking=True`).
    Always,
    /// Never: the sidecar is ignored.
    Never,
}

/// How a call locks a frame: when it takes part in C-Blosc2's lock protocol, how long
/// it waits for a lock another process holds, and whom it tells that it waits.
///
/// ```
/// use b2nd_meta::frame::{LockWhen, Locking};
/// use std::time::Duration;
///
/// let locking = Locking::ALWAYS.timeout(Duration::from_secs(2));
/// assert_eq!((locking.when, locking.timeout), (LockWhen::Always, Some(Duration::from_secs(2))));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Locking {
    /// When to take part.
    pub when: LockWhen,
    /// How long to wait for a lock held elsewhere before giving up
    /// ([`FrameErrorKind::LockTimeout`]); `None`: as long as it takes.
    pub timeout: Option<Duration>,
    /// Told once, after about a second of waiting, which lock file (or frame file, for
    /// this crate's own writers' lock) is waited for.
    pub on_wait: Option<fn(&Path)>,
}

impl Locking {
    /// [`LockWhen::Auto`], waiting as long as it takes.
    pub const AUTO: Locking = Locking::when(LockWhen::Auto);
    /// [`LockWhen::Always`] (python's `locking=True`), waiting as long as it takes.
    pub const ALWAYS: Locking = Locking::when(LockWhen::Always);
    /// [`LockWhen::Never`].
    pub const NEVER: Locking = Locking::when(LockWhen::Never);

    const fn when(when: LockWhen) -> Locking {
        Locking {
            when,
            timeout: None,
            on_wait: None,
        }
    }

    /// The same, giving up after `timeout` of waiting.
    pub fn timeout(mut self, timeout: Duration) -> Locking {
        self.timeout = Some(timeout);
        self
    }

    /// The same, telling `on_wait` after about a second of waiting.
    pub fn on_wait(mut self, on_wait: fn(&Path)) -> Locking {
        self.on_wait = Some(on_wait);
        self
    }
}

/// The same when, timeout, and whom it tells (the same function, by address).
impl PartialEq for Locking {
    fn eq(&self, other: &Locking) -> bool {
        let told = |l: &Locking| l.on_wait.map(|f| f as usize);
        (self.when, self.timeout, told(self)) == (other.when, other.timeout, told(other))
    }
}

impl Eq for Locking {}

impl Default for Locking {
    /// [`Locking::AUTO`].
    fn default() -> Self {
        Locking::AUTO
    }
}

/// How often a lock held elsewhere is tried again: from 1 ms, doubling, to 100 ms.
const RETRY_FIRST: Duration = Duration::from_millis(1);
const RETRY_MAX: Duration = Duration::from_millis(100);
/// How long a wait lasts before [`Locking::on_wait`] is told.
const NOTICE_AFTER: Duration = Duration::from_secs(1);

/// Why a lock was not taken.
pub(crate) enum LockWait {
    Io(io::Error),
    TimedOut(Duration),
}

impl LockWait {
    /// As a frame error about the lock at `path`.
    pub(crate) fn into_error(self, path: &Path) -> FrameError {
        match self {
            LockWait::Io(e) => FrameError::io(Some(path))(e),
            LockWait::TimedOut(waited) => {
                FrameError::new(FrameErrorKind::LockTimeout { waited }).in_file(path)
            }
        }
    }
}

/// Takes `file`'s lock (exclusive or shared) as `locking` says to wait: tried again
/// with backoff while another process holds it, `on_wait` told after about a second
/// (then, without a timeout, blocking until it is free), given up at the timeout.
#[clippy::msrv = "1.89"]
pub(crate) fn wait_for_lock(
    file: &File,
    exclusive: bool,
    path: &Path,
    locking: &Locking,
) -> Result<(), LockWait> {
    let start = Instant::now();
    let mut retry = RETRY_FIRST;
    let mut told = false;
    loop {
        let tried = match exclusive {
            true => file.try_lock(),
            false => file.try_lock_shared(),
        };
        match tried {
            Ok(()) => return Ok(()),
            Err(TryLockError::Error(e)) => return Err(LockWait::Io(e)),
            Err(TryLockError::WouldBlock) => {}
        }
        let waited = start.elapsed();
        if locking.timeout.is_some_and(|t| waited >= t) {
            return Err(LockWait::TimedOut(waited));
        }
        if !told && waited >= NOTICE_AFTER {
            told = true;
            if let Some(on_wait) = locking.on_wait {
                on_wait(path);
            }
            if locking.timeout.is_none() {
                let blocked = match exclusive {
                    true => file.lock(),
                    false => file.lock_shared(),
                };
                return blocked.map_err(LockWait::Io);
            }
        }
        let left = locking.timeout.map_or(retry, |t| t.saturating_sub(waited));
        std::thread::sleep(retry.min(left).max(RETRY_FIRST));
        retry = (retry * 2).min(RETRY_MAX);
    }
}

/// A lock held on a frame's sidecar; dropping it releases the lock.
#[derive(Debug)]
pub struct FrameLock {
    file: File,
    generation: u64,
}

impl FrameLock {
    /// The generation counter after taking the lock (bumped already for a writer).
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

/// The sidecar of the frame at `path` (what the user named: the file, or the sparse
/// frame's directory), spelled as C spells it: the path with `.b2lock` or `/.b2lock`
/// appended.
///
/// ```
/// use b2nd_meta::frame::{lock_path, FrameKind};
/// use std::path::Path;
///
/// assert_eq!(lock_path(Path::new("a.b2nd"), FrameKind::Contiguous), Path::new("a.b2nd.b2lock"));
/// assert_eq!(lock_path(Path::new("d.b2nd"), FrameKind::Sparse), Path::new("d.b2nd/.b2lock"));
/// ```
pub fn lock_path(path: &Path, kind: FrameKind) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(match kind {
        FrameKind::Sparse => "/.b2lock",
        _ => ".b2lock",
    });
    PathBuf::from(s)
}

/// Whether `BLOSC_LOCKING` asks for locking, as C's `frame_locking_requested` reads it.
///
/// ```
/// // Set, not empty and not "0".
/// let asked = std::env::var_os("BLOSC_LOCKING").is_some_and(|v| !v.is_empty() && v != "0");
/// assert_eq!(b2nd_meta::frame::locking_requested(), asked);
/// ```
pub fn locking_requested() -> bool {
    std::env::var_os("BLOSC_LOCKING").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Takes the sidecar lock of the frame at `path` when `locking` says so: exclusive
/// (bumping the generation counter) for a writer, shared for a reader. `None` when
/// this call does not take part.
///
/// C-Blosc2 3.3's protocol (`frame_lock` in `blosc/frame.c`), which python-blosc2 4.x
/// follows with `locking=True` or `BLOSC_LOCKING`: the sidecar [`lock_path`], opened
/// `O_CREAT|O_RDWR` mode 0666; writers hold `flock(LOCK_EX)`, readers `flock(LOCK_SH)`;
/// a writer adds one to the native-endian `u64` at byte 8 ([`LOCK_SEQ_OFFSET`]; a shorter
/// file reads as 0), so locked handles elsewhere re-read the frame at their next locked
/// access even when its length did not change.
///
/// With [`LockWhen::Auto`] (every call of this crate): writers take part when
/// `BLOSC_LOCKING` asks ([`locking_requested`]; the sidecar is then created, as C
/// creates it), readers and writers whenever the sidecar exists. No sidecar is created
/// otherwise: a file appearing beside a frame the user only tagged would be a surprise,
/// and without one no locked C handle exists to protect. Readers never create it.
///
/// `flock` locks conflict between open files even within one process: while you hold
/// the exclusive lock, this crate's calls on the same frame (which take it too) wait.
///
/// ```
/// use b2nd_meta::frame::{lock_frame, FrameErrorKind, FrameKind, Locking};
/// use std::time::Duration;
///
/// let dir = std::env::temp_dir().join(format!("b2nd-meta-lock-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("a.b2nd");
/// assert!(lock_frame(&path, FrameKind::Contiguous, true, Locking::NEVER)?.is_none());
/// let first = lock_frame(&path, FrameKind::Contiguous, true, Locking::ALWAYS)?.unwrap();
/// assert_eq!(first.generation(), 1);
/// // Held: another lock waits for it, here at most 50 ms.
/// let wait = Locking::AUTO.timeout(Duration::from_millis(50));
/// let err = lock_frame(&path, FrameKind::Contiguous, false, wait).unwrap_err();
/// assert!(matches!(err.kind(), FrameErrorKind::LockTimeout { .. }));
/// drop(first);
/// // The sidecar exists now: Auto takes part, readers included.
/// let reader = lock_frame(&path, FrameKind::Contiguous, false, Locking::AUTO)?.unwrap();
/// assert_eq!(reader.generation(), 1);
/// # drop(reader);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
// `File::lock` is stable since Rust 1.89; the crate's rust-version follows it.
#[clippy::msrv = "1.89"]
pub fn lock_frame(
    path: &Path,
    kind: FrameKind,
    exclusive: bool,
    locking: Locking,
) -> Result<Option<FrameLock>, FrameError> {
    let create = match locking.when {
        LockWhen::Never => return Ok(None),
        LockWhen::Always => exclusive,
        LockWhen::Auto => exclusive && locking_requested(),
    };
    let sidecar = lock_path(path, kind);
    let io = |e| FrameError::io(Some(&sidecar))(e);
    let mut options = OpenOptions::new();
    options.read(true).write(exclusive).create(create);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
    let file = match options.open(&sidecar) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound && !create => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    wait_for_lock(&file, exclusive, &sidecar, &locking).map_err(|e| e.into_error(&sidecar))?;
    let mut generation = read_seq(&file).map_err(io)?;
    if exclusive {
        generation = generation.wrapping_add(1);
        write_seq(&file, generation).map_err(io)?;
    }
    Ok(Some(FrameLock { file, generation }))
}

/// How many times [`open_locked`] starts over before giving up: each one means a writer
/// replaced the file meanwhile.
const REOPENS: usize = 1000;

/// Opens the file at `path` (read-write for a `writer`) and takes our own lock on it
/// (exclusive for a writer, shared otherwise), waiting as `locking` says. Once the
/// lock is held, `path` must still name the file locked: a vlmeta write to a frame
/// without data replaces the file by a rename (`trailer/replace.rs`), and a writer that
/// waited on the old file would otherwise write into a file no path names any more, its
/// change lost. Then it starts over on the file the path names now.
pub(crate) fn open_locked(
    path: &Path,
    writer: bool,
    locking: &Locking,
) -> Result<File, FrameError> {
    let io = |e| FrameError::io(Some(path))(e);
    for _ in 0..REOPENS {
        let file = OpenOptions::new()
            .read(true)
            .write(writer)
            .open(path)
            .map_err(io)?;
        wait_for_lock(&file, writer, path, locking).map_err(|e| e.into_error(path))?;
        if same_file(&file, path).map_err(io)? {
            return Ok(file);
        }
        // Closing releases the lock.
    }
    Err(io(io::Error::other(
        "the file was replaced 1000 times while waiting for its lock",
    )))
}

/// Whether `path` names the open `file` (the same device and inode).
#[cfg(unix)]
pub(crate) fn same_file(file: &File, path: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let (held, named) = (file.metadata()?, std::fs::metadata(path)?);
    Ok(held.dev() == named.dev() && held.ino() == named.ino())
}

/// Elsewhere a file held open cannot be renamed over, so the path names it still.
#[cfg(not(unix))]
pub(crate) fn same_file(_file: &File, _path: &Path) -> io::Result<bool> {
    Ok(true)
}

/// The counter; a file too short to hold it reads as 0, as in C.
fn read_seq(file: &File) -> io::Result<u64> {
    let mut buf = [0u8; 8];
    if read_full_at(file, &mut buf, LOCK_SEQ_OFFSET)? < buf.len() {
        return Ok(0);
    }
    Ok(u64::from_ne_bytes(buf))
}

fn write_seq(file: &File, seq: u64) -> io::Result<()> {
    write_all_at(file, &seq.to_ne_bytes(), LOCK_SEQ_OFFSET)
}

impl Drop for FrameLock {
    fn drop(&mut self) {
        // Closing releases the lock too; an error unlocking leaves it to the close.
        let _ = self.file.unlock();
    }
}
