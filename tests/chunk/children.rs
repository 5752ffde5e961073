//! Asking C about many inputs in forked children, one answer per input on a pipe, and a
//! new child after a crash: C-Blosc2 2.15.3 and libzstd are run on hostile bytes, and a
//! crash ("double free or corruption") must be a verdict, not the end of the run.

use std::ffi::{c_int, c_void};
use std::io::Read;
use std::os::fd::FromRawFd;

/// A child's answer about one input: a tag (the caller's meaning) and bytes.
pub type Answer = (u8, Vec<u8>);

/// `work`'s answer for each item, run in forked children (`None`: the child died on that
/// item, or did not answer within 60 s). `work` runs only in children, where it may
/// keep state across the items of one child.
pub fn answers<T>(
    items: &[T],
    work: impl Fn() -> Box<dyn FnMut(&T) -> Answer>,
) -> Vec<Option<Answer>> {
    let mut out = Vec::with_capacity(items.len());
    while out.len() < items.len() {
        let start = out.len();
        let answers = run_child(&items[start..], work());
        let done = answers.len();
        out.extend(answers.into_iter().map(Some));
        if done < items.len() - start {
            // The child died on the item after its last answer.
            out.push(None);
        }
    }
    out
}

/// One child answering item after item: the tag, the length (u32, little-endian), the
/// bytes.
fn run_child<T>(items: &[T], mut work: Box<dyn FnMut(&T) -> Answer>) -> Vec<Answer> {
    let mut fds = [0 as c_int; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        unsafe {
            libc::close(fds[0]);
            libc::alarm(60);
            for item in items {
                let (tag, bytes) = work(item);
                write_all(fds[1], &[tag]);
                write_all(fds[1], &(bytes.len() as u32).to_le_bytes());
                write_all(fds[1], &bytes);
            }
            libc::_exit(0);
        }
    }
    unsafe { libc::close(fds[1]) };
    let mut pipe = unsafe { std::fs::File::from_raw_fd(fds[0]) };
    let mut answers = Vec::new();
    let mut head = [0u8; 5];
    while answers.len() < items.len() && pipe.read_exact(&mut head).is_ok() {
        let mut bytes = vec![0u8; u32::from_le_bytes(head[1..].try_into().unwrap()) as usize];
        if pipe.read_exact(&mut bytes).is_err() {
            break;
        }
        answers.push((head[0], bytes));
    }
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    answers
}

unsafe fn write_all(fd: c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        let n = unsafe { libc::write(fd, bytes.as_ptr() as *const c_void, bytes.len()) };
        if n <= 0 {
            unsafe { libc::_exit(3) };
        }
        bytes = &bytes[n as usize..];
    }
}
