//! `b2nd-meta`: show what Blosc2 frames, stores, bundles and directories of them hold,
//! export arrays' values, and decode, encode or rewrite b2nd/caterva metalayers and
//! vlmeta, from the command line.
//!
//! Every failure is one line on stderr (`b2nd-meta: <context>: <message>`) and a
//! non-zero exit status; nothing here panics on any input, and a closed stdout
//! (`b2nd-meta show ... | head -1`) ends the program quietly.
//!
//! This file only dispatches: `cli` holds the arguments, `commands` one module per
//! subcommand, `render` how things are shown, `output` the stdout and stderr lines,
//! `progress` the line a long scan draws on a terminal.

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::frame::Locking;
use clap::Parser;

mod cli;
mod commands;
mod help;
mod output;
mod progress;
mod render;

use cli::{Cli, Command};
use commands::{
    completions, decode, encode, export, import, set_meta, set_shape, set_vlmeta, show, show_values,
};
use output::Fatal;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version (exit 0) go to stdout, usage errors (exit 2) to stderr.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let mut locking = Locking::AUTO.on_wait(output::lock_notice);
    if let Some(timeout) = cli.lock_timeout {
        locking = locking.timeout(timeout);
    }
    output::set_locking(locking);
    let out = &mut io::stdout().lock();
    let outcome = match cli.command {
        Command::Show {
            human,
            json,
            recursive,
            full_hex,
            key,
            slice,
            budget,
            paths,
        } => {
            // A person's summary on a terminal, JSON for a program (as ripgrep does);
            // --full-hex is about JSON only.
            if let Some(budget) = budget {
                output::set_budget(budget);
            }
            let terminal = io::stdout().is_terminal();
            let human = human || (!(json || full_hex) && terminal);
            if let Some(slice) = &slice {
                let req = show_values::Request {
                    paths: &paths,
                    keys: &key,
                    slice,
                    human,
                    terminal,
                };
                return finish(show_values::run(out, &req));
            }
            let budget = budget.map_or_else(DecodeBudget::default, DecodeBudget::new);
            let req = show::Request {
                paths: &paths,
                keys: &key,
                human,
                full_hex,
                recursive,
                budget: &budget,
            };
            show::run(out, &req)
        }
        Command::Completions { shell } => completions::run(out, shell),
        Command::Decode { hex } => decode::run(out, &hex).map(|()| true),
        Command::Encode { json } => encode::run(out, &json).map(|()| true),
        Command::Export {
            path,
            key,
            slice,
            output,
            force,
            threads,
        } => export::run(&export::Export {
            path: &path,
            key: key.as_deref(),
            slice: &slice,
            output: &output,
            force,
            threads: threads.map(usize::from),
        }),
        Command::Import {
            input,
            output,
            encoding,
            meta,
            vlmeta,
            sparse,
            force,
            threads,
        } => import::run(&import::Import {
            input,
            output,
            chunks: encoding.chunks.map(|s| s.0),
            blocks: encoding.blocks.map(|s| s.0),
            codec: encoding.codec,
            clevel: encoding.clevel,
            filters: encoding.filters,
            meta,
            vlmeta,
            sparse,
            force,
            threads: threads.map(usize::from),
            locking,
        }),
        Command::Store { action } => match action {
            cli::StoreAction::Put {
                store,
                key,
                input,
                tree,
                threshold,
                encoding,
                threads,
            } => commands::store::put(commands::store::Put {
                store,
                key,
                tree,
                threshold: threshold.unwrap_or(0),
                import: import::Import {
                    input,
                    output: std::path::PathBuf::new(),
                    chunks: encoding.chunks.map(|s| s.0),
                    blocks: encoding.blocks.map(|s| s.0),
                    codec: encoding.codec,
                    clevel: encoding.clevel,
                    filters: encoding.filters,
                    meta: Vec::new(),
                    vlmeta: Vec::new(),
                    sparse: false,
                    force: true,
                    threads: threads.map(usize::from),
                    locking,
                },
            }),
            cli::StoreAction::Rm { store, key } => commands::store::rm(&store, &key),
        },
        Command::Write {
            frame,
            key,
            slice,
            input,
        } => Ok(commands::edit::write(
            &frame.path,
            key.as_deref(),
            &slice,
            &input,
        )),
        Command::Resize { frame, key, shape } => Ok(commands::edit::resize(
            &frame.path,
            key.as_deref(),
            &shape.0,
        )),
        Command::Append {
            frame,
            key,
            axis,
            input,
        } => Ok(commands::edit::append(
            &frame.path,
            key.as_deref(),
            axis,
            &input,
        )),
        Command::SetShape {
            dry_run,
            frame,
            shape,
        } => set_shape::run(out, &frame.path, &shape.0, dry_run),
        Command::SetMeta { frame, name, json } => set_meta::run(&frame.path, &name, &json),
        Command::SetVlmeta {
            dry_run,
            frame,
            key,
            name,
            json,
        } => set_vlmeta::set(out, &frame.path, key.as_deref(), &name, &json, dry_run),
        Command::DelVlmeta {
            dry_run,
            frame,
            key,
            name,
        } => set_vlmeta::del(out, &frame.path, key.as_deref(), &name, dry_run),
    };
    finish(outcome)
}

/// The exit status of a command's outcome (its fatal error said on stderr).
fn finish(outcome: output::Outcome) -> ExitCode {
    match outcome {
        Ok(true) | Err(Fatal::BrokenPipe) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(Fatal::Error(context, message)) => {
            output::say(&context, &message);
            ExitCode::FAILURE
        }
    }
}
