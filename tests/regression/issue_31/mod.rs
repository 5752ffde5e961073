//! Issue 31 (hostile files cost what they weigh): each case of the audit, made by
//! tests/data/regression/issue31.py (C-Blosc2 3.3.5 through python-blosc2 4.14.1, and
//! bytes assembled by hand), run through the command line with its peak memory (the
//! child's maximum resident set, from `wait4`) and its time measured: each must finish
//! in seconds under 256 MB.

mod budget;
mod control;
mod depth;
mod doubles;
mod fifo;
mod fuzzed;
mod lock;
#[cfg(feature = "cli")]
pub mod run;
mod stores;
