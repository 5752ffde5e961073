//! [`OutFile`]: a whole file written at a path (an export's `.npy`), put there only once
//! complete; the rules of what the path may hold are those of every writer of the crate.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use super::staged::{Existing, Out, Staging};
use super::steps::Steps;

/// How an [`OutFile`] treats what is at its path.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OutOptions<'a> {
    /// Whether a file at the path may be replaced (else it is refused, and kept).
    pub overwrite: bool,
    /// The file the output is made from: refused as the output (the same file, links
    /// followed), which it would destroy before it is read.
    pub input: Option<&'a Path>,
}

impl<'a> OutOptions<'a> {
    /// Whether a file at the path may be replaced.
    pub fn overwrite(mut self, yes: bool) -> Self {
        self.overwrite = yes;
        self
    }

    /// The file the output is made from, which must not be the output.
    pub fn input(mut self, input: &'a Path) -> Self {
        self.input = Some(input);
        self
    }
}

#[derive(Debug)]
enum Sink {
    /// A staging file beside the path, and where the next byte goes.
    Staged(Staging, u64),
    /// A FIFO or a device, written into as it is: never replaced nor removed.
    Special(File),
}

/// A file written whole at a path. A regular file (or nothing) there is replaced only
/// by [`OutFile::commit`], in one atomic step once every byte is written and synced:
/// until then, and whatever happens before (an error, a crash), the path holds what it
/// held. A FIFO or a device (`/dev/stdout`, a pipe) is written into directly, never
/// replaced nor removed. A directory is refused, as is a file that exists when
/// replacing it was not asked for, and the output that is the input.
///
/// ```
/// use b2nd_meta::io::{OutFile, OutOptions};
/// use std::io::Write;
///
/// let path = std::env::temp_dir().join(format!("b2nd-meta-out-doc-{}.txt", std::process::id()));
/// std::fs::write(&path, "precious")?;
/// // Refused: it exists, and replacing it was not asked for.
/// assert!(OutFile::create(&path, OutOptions::default()).is_err());
/// let mut out = OutFile::create(&path, OutOptions::default().overwrite(true))?;
/// out.write_all(b"new")?;
/// // Not committed yet: the old file is there, whole.
/// assert_eq!(std::fs::read(&path)?, b"precious");
/// out.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"new");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct OutFile {
    sink: Sink,
    steps: Steps,
}

fn refused(kind: io::ErrorKind, why: &'static str) -> io::Error {
    io::Error::new(kind, why)
}

impl OutFile {
    /// Starts the file at `path`, as `options` say.
    pub fn create(path: &Path, options: OutOptions<'_>) -> io::Result<OutFile> {
        let steps = Steps::of_process();
        let out = Out::inspect(path)?;
        // An input that is not on the file system (a URL) cannot be the output.
        if let Some(input) = options.input
            && let Ok(input) = std::fs::metadata(input)
            && out.is(&input)
        {
            return Err(refused(
                io::ErrorKind::InvalidInput,
                "is the input: writing it would destroy what is read",
            ));
        }
        let sink = match out.existing {
            Existing::Directory => {
                return Err(refused(io::ErrorKind::IsADirectory, "is a directory"));
            }
            Existing::File if !options.overwrite => {
                return Err(refused(
                    io::ErrorKind::AlreadyExists,
                    "exists, and replacing it was not asked for",
                ));
            }
            Existing::Special(_) => {
                let file = steps.open(OpenOptions::new().write(true), &out.real)?;
                Sink::Special(file)
            }
            Existing::Nothing | Existing::File => {
                Sink::Staged(Staging::file(&out.real, out.metadata(), &steps)?, 0)
            }
        };
        Ok(OutFile { sink, steps })
    }

    /// Puts the file at its path: syncs the staging file, renames it over the path and
    /// syncs the directory (a FIFO or a device: nothing more to do).
    pub fn commit(self) -> io::Result<()> {
        match self.sink {
            Sink::Staged(staging, _) => staging.commit(),
            Sink::Special(_) => Ok(()),
        }
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Staged(staging, at) => {
                self.steps.write(staging.file_handle(), buf, *at)?;
                *at += buf.len() as u64;
                Ok(buf.len())
            }
            Sink::Special(file) => file.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Staged(..) => Ok(()),
            Sink::Special(file) => file.flush(),
        }
    }
}
