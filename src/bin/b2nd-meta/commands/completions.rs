//! `completions SHELL`: the shell completions of the whole command line, as clap_complete
//! writes them from the arguments `cli` declares (so they never disagree with them).

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::output::{stdout_error, Outcome};

/// Writes the completions for `shell` to `out`.
pub fn run(out: &mut impl Write, shell: Shell) -> Outcome {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "b2nd-meta", &mut script);
    out.write_all(&script)
        .and_then(|()| out.flush())
        .map_err(stdout_error)?;
    Ok(true)
}
