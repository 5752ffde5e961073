//! The `array` part of a [`Report`](super::Report): the array a frame holds, from the
//! library's [`ArrayInfo`].

use b2nd_meta::frame::ArrayInfo;
use b2nd_meta::DTYPE_FORMAT_NUMPY;
use serde::Serialize;

/// The array the frame holds, as its metalayer describes it.
#[derive(Serialize)]
pub struct ArrayReport {
    /// The metalayer describing it (`"b2nd"` or `"caterva"`).
    pub metalayer: String,
    /// Its dtype.
    pub dtype: DtypeReport,
    /// C-Blosc2's validation problems, with the frame's typesize, then where the
    /// metalayer and the frame header disagree.
    pub problems: Vec<String>,
    /// python-blosc2's stricter rule: blocks must fit in chunks.
    pub blocks_within_chunks: Vec<String>,
    /// Bytes after the metalayer in its content (ignored, as C-Blosc2 does).
    pub trailing_bytes: u64,
}

/// The array's dtype: parsed (`str`, `kind`, `itemsize`, and `assumed` for caterva,
/// which stores none) or not understood (`str`, `error`).
#[derive(Serialize)]
pub struct DtypeReport {
    /// The dtype as NumPy's `dtype.str` (parsed), or as stored (not understood).
    pub str: String,
    /// The kind's name, when parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Bytes per item, when parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub itemsize: Option<u64>,
    /// True when assumed from the typesize (a caterva metalayer has no dtype).
    #[serde(skip_serializing_if = "is_false")]
    pub assumed: bool,
    /// Why the dtype is not understood.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

// serde's skip_serializing_if passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl ArrayReport {
    /// The report on `array`.
    pub fn of(array: &ArrayInfo) -> ArrayReport {
        let stored = || array.meta.dtype().unwrap_or_default().to_owned();
        let unparsed = |error: String| DtypeReport {
            str: stored(),
            kind: None,
            itemsize: None,
            assumed: false,
            error: Some(error),
        };
        let dtype = match &array.dtype {
            Some(Ok(d)) => DtypeReport {
                str: d.to_string(),
                kind: Some(d.kind().name().to_owned()),
                itemsize: Some(d.itemsize()),
                assumed: array.dtype_assumed,
                error: None,
            },
            Some(Err(e)) => unparsed(e.to_string()),
            None => unparsed(format!(
                "dtype_format {} is not NumPy's ({DTYPE_FORMAT_NUMPY}); the dtype is not interpreted",
                array.meta.dtype_format().unwrap_or_default()
            )),
        };
        let strings = |invalid: &Option<b2nd_meta::validate::Invalid>| -> Vec<String> {
            invalid
                .iter()
                .flat_map(|i| i.problems().iter().map(ToString::to_string))
                .collect()
        };
        let mut problems = strings(&array.invalid);
        problems.extend(array.mismatches.iter().map(ToString::to_string));
        ArrayReport {
            metalayer: array.metalayer.clone(),
            dtype,
            problems,
            blocks_within_chunks: strings(&array.blocks_outside_chunks),
            trailing_bytes: array.trailing_bytes,
        }
    }
}
