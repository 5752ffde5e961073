//! One test per bug found by fuzzing (fuzz/README.md) or by the sweeps and edge tests,
//! with the input bytes inline and named after what broke, so that it stays fixed.
//!
//! One file per issue, named after the issue whose work found the bug
//! (`issues show NN`): `issue_NN.rs`, declared here in order. The shared test helpers
//! are `crate::common` (`use crate::common;` in an issue file, not `mod common;`).

#[path = "../common/mod.rs"]
mod common;

mod issue_05;
mod issue_20;
mod issue_24;
mod issue_31;
#[cfg(feature = "cli")]
mod issue_44;
mod issue_45;
