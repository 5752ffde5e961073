//! `set-meta`: rewrite a user metalayer from JSON, in place, same length only.

use std::path::Path;

use b2nd_meta::frame::{self, FrameErrorKind};
use b2nd_meta::value::Value;

use crate::output::{argument_or_stdin, say, Fatal};
use crate::render::messages::{self, Access};

/// Rewrites metalayer `name` of the frame at `path` with the msgpack python-blosc2
/// writes for `json` (the JSON mapping read back); `Ok(false)` when refused, after one
/// line on stderr.
pub fn run(path: &Path, name: &str, json: &str) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    let json = argument_or_stdin(json, &context)?;
    let refuse = |line: String| {
        say(&context, &line);
        Ok(false)
    };
    let value: Value = match serde_json::from_str(&json) {
        Ok(value) => value,
        Err(e) => {
            return refuse(match messages::json_hint(&json) {
                Some(hint) => format!("the new value is not JSON: {hint}"),
                None => format!("the new value is not JSON of the mapping: {e}"),
            });
        }
    };
    // The library's one writer of user values (python-blosc2's bytes), and its rule of
    // which metalayer is the array's.
    match frame::set_user_meta(crate::output::target(path), name, &value) {
        Ok(()) => Ok(true),
        Err(e) => refuse(match e.kind() {
            FrameErrorKind::NotUserMetalayer { .. } => format!(
                "{name:?} is the array metalayer, not a user one: use set-shape to change it"
            ),
            FrameErrorKind::Metalayer { source, .. } => {
                format!("cannot encode the new value: {source}")
            }
            FrameErrorKind::ContentLengthMismatch {
                expected, found, ..
            } => format!(
                "metalayer {name:?} holds {expected} bytes, the new value encodes to {found}: \
                 refused (a metalayer is rewritten in place, at its own length only)"
            ),
            _ => messages::frame_error(path, &e, Access::Write),
        }),
    }
}
