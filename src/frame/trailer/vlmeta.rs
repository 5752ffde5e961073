//! Vlmetalayer values: the chunk decoded, then the msgpack read as a serde type or as a
//! [`Value`]; and the same from a [`FrameFile`].

use serde::de::DeserializeOwned;
use std::string::{String, ToString};
use std::vec::Vec;

use super::{read_trailer, Trailer, VlMetalayer};
use crate::chunk;
use crate::frame::{FrameError, FrameErrorKind, FrameFile};
use crate::value::Value;

impl VlMetalayer {
    /// Offset from the start of the frame of the chunk's first byte.
    pub fn content_offset(&self) -> u64 {
        self.offset.saturating_add(5)
    }

    /// The chunk's uncompressed bytes (msgpack, as python-blosc2 wrote them).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// for vl in &trailer.vlmetalayers {
    ///     let msgpack = vl.decode()?;
    ///     assert!(!msgpack.is_empty());
    /// }
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn decode(&self) -> Result<Vec<u8>, FrameError> {
        chunk::decode(&self.content).map_err(|source| {
            let content_offset = self.content_offset();
            let at = source.offset().map(|o| content_offset.saturating_add(o));
            let kind = FrameErrorKind::VlmetaChunk {
                name: self.name.clone(),
                content_offset,
                source,
            };
            match at {
                Some(at) => FrameError::at(at, kind),
                None => FrameError::new(kind),
            }
        })
    }
}

impl VlMetalayer {
    /// The value as a [`Value`], python-blosc2's conventions (tuples, complex, sets,
    /// NumPy arrays) included.
    ///
    /// ```
    /// use b2nd_meta::value::Value;
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// // python: arr.vlmeta["int"] = 42
    /// assert_eq!(trailer.vlmetalayer("int").unwrap().value()?, Value::Int(42));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn value(&self) -> Result<Value, FrameError> {
        let bytes = self.decode()?;
        Value::from_msgpack(&bytes).map_err(|source| self.value_error(source))
    }

    /// The value decoded as a `T` through rmp-serde; all of the uncompressed content
    /// must be one msgpack value.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// let s: String = trailer.vlmetalayer("str").unwrap().deserialize()?;
    /// assert_eq!(s, "hello");
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, FrameError> {
        let bytes = self.decode()?;
        let mut de = rmp_serde::Deserializer::new(std::io::Cursor::new(bytes.as_slice()));
        // rmp-serde allows 1024 levels; the value type's bound keeps the stack small.
        de.set_max_depth(crate::value::MAX_DEPTH);
        let value = T::deserialize(&mut de).map_err(|e| {
            let at = usize::try_from(de.position()).unwrap_or(usize::MAX);
            self.value_error(<crate::error::Error as serde::de::Error>::custom(e).or_at(at))
        })?;
        let end = usize::try_from(de.position()).unwrap_or(usize::MAX);
        match bytes.len().checked_sub(end) {
            Some(0) | None => Ok(value),
            Some(count) => Err(self.value_error(crate::error::Error::at(
                end,
                crate::error::ErrorKind::TrailingBytes { count },
            ))),
        }
    }

    fn value_error(&self, source: crate::error::Error) -> FrameError {
        FrameError::new(FrameErrorKind::VlmetaValue {
            name: self.name.clone(),
            source,
        })
    }
}

impl FrameFile {
    /// Reads the trailer of this frame from its file (two small reads at its end).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// assert_eq!(trailer.version, 1);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn trailer(&self) -> Result<Trailer, FrameError> {
        let path = &self.header_path;
        let file = std::fs::File::open(path).map_err(FrameError::io(Some(path)))?;
        read_trailer(file, &self.header).map_err(|e| e.in_file(path))
    }

    /// The names of the frame's vlmetalayers, in index order.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let names = b2nd_meta::frame::open(path)?.vlmeta_names()?;
    /// assert!(names.iter().all(|n| !n.is_empty()));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn vlmeta_names(&self) -> Result<Vec<String>, FrameError> {
        Ok(self.trailer()?.names().map(str::to_string).collect())
    }

    /// The uncompressed content (msgpack) of the vlmetalayer `name`.
    pub fn vlmeta_bytes(&self, name: &str) -> Result<Vec<u8>, FrameError> {
        vlmetalayer(&self.trailer()?, name)?.decode()
    }

    /// The vlmetalayer `name` as a [`Value`] (see [`VlMetalayer::value`]).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let frame = b2nd_meta::frame::open(path)?;
    /// assert_eq!(frame.vlmeta_value("str")?.as_str(), Some("hello"));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn vlmeta_value(&self, name: &str) -> Result<Value, FrameError> {
        vlmetalayer(&self.trailer()?, name)?.value()
    }

    /// The vlmetalayer `name` as a `T` (see [`VlMetalayer::deserialize`]).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let frame = b2nd_meta::frame::open(path)?;
    /// // python: arr.vlmeta["list"] = [1, 2.5, None, "x"]
    /// let list: (i64, f64, Option<i64>, String) = frame.vlmeta("list")?;
    /// assert_eq!(list, (1, 2.5, None, "x".to_string()));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn vlmeta<T: DeserializeOwned>(&self, name: &str) -> Result<T, FrameError> {
        vlmetalayer(&self.trailer()?, name)?.deserialize()
    }
}

fn vlmetalayer<'t>(trailer: &'t Trailer, name: &str) -> Result<&'t VlMetalayer, FrameError> {
    trailer.vlmetalayer(name).ok_or_else(|| {
        FrameError::new(FrameErrorKind::UnknownVlmetalayer {
            name: name.to_string(),
        })
    })
}
