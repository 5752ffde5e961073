//! Asking C about many inputs in forked children, one answer per input on a pipe, and a
//! new child after a crash: C-Blosc2 2.15.3 and libzstd are run on hostile bytes, and a
//! crash ("double free or corruption") must be a verdict, not the end of the run.

use std::io::Read;

#[allow(dead_code)]
#[path = "../c_ffi/child.rs"]
mod child;

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
    let (mut pipe, pid) = child::fork_piped(60, |fd| {
        for item in items {
            let (tag, bytes) = work(item);
            child::write_all(fd, &[tag]);
            child::write_all(fd, &(bytes.len() as u32).to_le_bytes());
            child::write_all(fd, &bytes);
        }
    });
    let mut answers = Vec::new();
    let mut head = [0u8; 5];
    while answers.len() < items.len() && pipe.read_exact(&mut head).is_ok() {
        let mut bytes = vec![0u8; u32::from_le_bytes(head[1..].try_into().unwrap()) as usize];
        if pipe.read_exact(&mut bytes).is_err() {
            break;
        }
        answers.push((head[0], bytes));
    }
    // A child that died is counted by the answers it gave.
    let _ = child::reap(pid);
    answers
}
