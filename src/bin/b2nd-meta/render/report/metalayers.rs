//! The `metalayers` part of a [`Report`](super::Report): each metalayer decoded when it
//! is the array's, otherwise its bytes, and for a user metalayer its msgpack value.

use b2nd_meta::frame::{FrameErrorKind, FrameFile, Metalayer};
use b2nd_meta::value::Value;
use b2nd_meta::Meta;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::array::ArrayReport;
use super::hex::Hex;
use super::options::Options;

/// The largest user metalayer a report decodes (16 MiB): larger ones are shown as
/// bytes, so that decoding stays within `show`'s memory bound.
const DECODE_CAP: u32 = 16 << 20;

/// One metalayer: decoded when it is the array's (`b2nd`, else `caterva`), otherwise
/// its raw bytes.
#[derive(Serialize)]
#[serde(untagged)]
pub enum MetalayerReport<'f> {
    /// The array's metalayer, decoded (serialized as `decode` prints it).
    Decoded(Box<Meta>),
    /// Any other metalayer (user data), or the array's when it does not decode.
    Raw(RawContent<'f>),
}

/// A metalayer's raw content, with why it did not decode when it should have; a user
/// metalayer (any but the array's) also gets its msgpack `value`, in the JSON mapping
/// of `b2nd_meta::value`, or an `error` when its content is not one msgpack value.
#[derive(Serialize)]
pub struct RawContent<'f> {
    /// The content as a msgpack value (user metalayers that decode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// The content, serialized as lowercase hex: all of it, or its first
    /// [`Options::hex_limit`] bytes.
    pub raw_hex: Hex<'f>,
    /// The content's full length, present only when `raw_hex` holds a prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_len: Option<u64>,
    /// Why it does not decode (the array's), or why its value is not given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether this is the array's metalayer, which did not decode (as the library's
    /// `FrameHeader::is_array_metalayer` decides; not serialized: the JSON's `array`
    /// names the array's metalayer when it decodes).
    #[serde(skip)]
    pub array: bool,
}

impl MetalayerReport<'_> {
    /// Whether this is the array's metalayer (decoded, or raw because it did not decode).
    pub fn is_array(&self) -> bool {
        match self {
            MetalayerReport::Decoded(_) => true,
            MetalayerReport::Raw(raw) => raw.array,
        }
    }
}

/// The metalayers by name, in header order (a JSON object whose keys keep that order).
#[derive(Default)]
pub struct Metalayers<'f>(pub Vec<(String, MetalayerReport<'f>)>);

impl Serialize for Metalayers<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, layer) in &self.0 {
            map.serialize_entry(name, layer)?;
        }
        map.end()
    }
}

impl<'f> Metalayers<'f> {
    /// Every metalayer of `frame`, and the report on its array when its metalayer
    /// decodes (as the library decides which is the array's).
    pub fn of(frame: &'f FrameFile, options: Options) -> (Metalayers<'f>, Option<ArrayReport>) {
        let header = &frame.header;
        let mut array = None;
        let layers = header
            .metalayers
            .iter()
            .map(|m| {
                let layer = if header.is_array_metalayer(m) {
                    match header.array_info() {
                        Some(Ok(info)) => {
                            array = Some(ArrayReport::of(&info));
                            MetalayerReport::Decoded(Box::new(info.meta))
                        }
                        // The decoding error itself, offsets in the content.
                        Some(Err(e)) => match e.kind() {
                            FrameErrorKind::Metalayer { source, .. } => {
                                raw(frame, m, options, None, Some(source.to_string()))
                            }
                            _ => raw(frame, m, options, None, Some(e.to_string())),
                        },
                        None => raw(frame, m, options, None, None),
                    }
                } else {
                    user(frame, m, options)
                };
                (m.name.clone(), layer)
            })
            .collect();
        (Metalayers(layers), array)
    }
}

/// A user metalayer: its value, when its content is one msgpack value.
fn user<'f>(frame: &'f FrameFile, m: &Metalayer, options: Options) -> MetalayerReport<'f> {
    // `open` kept at most CONTENT_CAP bytes of the content: the rest is read when the
    // file holds all the header declares (a header claiming more than the file holds
    // costs nothing) and the value is at most DECODE_CAP, so that `show` stays within
    // 64 MB.
    let whole;
    let content = if m.content.len() < m.content_len as usize {
        let end = m.content_offset() + u64::from(m.content_len);
        let read = if end <= frame.file_len && m.content_len <= DECODE_CAP {
            frame
                .read_content(&m.name, 0..u64::from(m.content_len))
                .ok()
        } else {
            None
        };
        let Some(bytes) = read else {
            let note = format!(
                "not decoded: {} bytes, more than the {} read into memory",
                m.content_len,
                m.content.len()
            );
            return raw(frame, m, options, None, Some(note));
        };
        whole = bytes;
        &whole
    } else {
        &m.content
    };
    match Value::from_msgpack(content) {
        Ok(value) => raw(frame, m, options, Some(value), None),
        Err(e) => raw(
            frame,
            m,
            options,
            None,
            Some(format!("not one msgpack value: {e}")),
        ),
    }
}

/// A metalayer as its bytes, all of them or the first `options.hex_limit`, with its
/// value or why it is not given.
fn raw<'f>(
    frame: &'f FrameFile,
    m: &Metalayer,
    options: Options,
    value: Option<Value>,
    error: Option<String>,
) -> MetalayerReport<'f> {
    // `open` keeps at most CONTENT_CAP bytes of a content: the rest stays in the file,
    // and is streamed from there when all of it is asked for.
    let len = u64::from(m.content_len);
    let held = m.content.len() as u64 == len;
    let (raw_hex, raw_len) = match options.hex_limit {
        Some(limit) if len > limit as u64 => (
            Hex::Bytes(m.content.get(..limit).unwrap_or(&m.content).to_vec()),
            Some(len),
        ),
        _ if held && !options.from_file => (Hex::Bytes(m.content.clone()), None),
        _ => (
            Hex::Frame {
                frame,
                offset: m.content_offset(),
                len,
            },
            None,
        ),
    };
    MetalayerReport::Raw(RawContent {
        value,
        raw_hex,
        raw_len,
        error,
        array: frame.header.is_array_metalayer(m),
    })
}
