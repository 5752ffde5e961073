//! `decode`: a metalayer's content, given as hex, to JSON.

use std::io::Write;

use b2nd_meta::Meta;

use crate::output::{argument_or_stdin, emit, fatal, Fatal};

/// Bytes from hex: whitespace anywhere, an optional `0x` prefix; an error's offset
/// counts in `text`.
fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let skipped = text.len() - text.trim_start().len();
    let mut text = text.to_owned();
    if matches!(text.get(skipped..skipped + 2), Some("0x" | "0X")) {
        // Blanked, so that offsets still count in the text as given.
        text.replace_range(skipped..skipped + 2, "  ");
    }
    b2nd_meta::hex::decode_spaced(&text).map_err(|e| e.to_string())
}

/// Decodes the hex of `args` (one argument, `-` for stdin, or several joined).
pub fn run(out: &mut impl Write, args: &[String]) -> Result<(), Fatal> {
    let text = match args {
        [one] => argument_or_stdin(one, "decode")?,
        many => many.join(" "),
    };
    let bytes = parse_hex(&text).map_err(|e| fatal("decode", e))?;
    let meta: Meta = b2nd_meta::from_slice(&bytes).map_err(|e| fatal("decode", e))?;
    let json = serde_json::to_string(&meta).map_err(|e| fatal("decode", e))?;
    emit(out, &json)
}
