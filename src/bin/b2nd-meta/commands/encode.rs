//! `encode`: a metalayer given as JSON (the schema `decode` prints) to hex.

use std::io::Write;

use b2nd_meta::Meta;

use crate::output::{argument_or_stdin, emit, fatal, Fatal};

/// Encodes the JSON of `arg` (`-` for stdin).
pub fn run(out: &mut impl Write, arg: &str) -> Result<(), Fatal> {
    let text = argument_or_stdin(arg, "encode")?;
    let meta: Meta = serde_json::from_str(&text).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => "invalid metalayer",
            _ => "invalid JSON",
        };
        fatal("encode", format!("{what}: {e}"))
    })?;
    let bytes = b2nd_meta::to_vec(&meta).map_err(|e| fatal("encode", e))?;
    emit(out, &b2nd_meta::hex::encode(&bytes))
}
