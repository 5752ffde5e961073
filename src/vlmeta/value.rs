//! Vlmetalayer values: the chunk decoded, then the msgpack read as a serde type or as a
//! [`Value`]; and the same from a [`FrameFile`].

use serde::de::DeserializeOwned;
use std::string::{String, ToString};
use std::vec::Vec;

use crate::chunk::{self, DecodeBudget};
use crate::frame::{FrameError, FrameErrorKind, FrameFile, Trailer, VlMetalayer};
use crate::value::{Value, VALUE_SIZE};

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
        chunk::decode(&self.content, &chunk::DecodeBudget::default())
            .map_err(|source| self.chunk_error(source))
    }

    /// [`VlMetalayer::decode`] within `budget`, which the chunk's `nbytes` is spent
    /// from (see [`DecodeBudget`]).
    pub fn decode_within(&self, budget: &DecodeBudget) -> Result<Vec<u8>, FrameError> {
        chunk::decode(&self.content, budget).map_err(|source| self.chunk_error(source))
    }

    fn chunk_error(&self, source: chunk::ChunkError) -> FrameError {
        let (content_offset, at) = (self.content_offset(), source.offset());
        let kind = FrameErrorKind::VlmetaChunk {
            name: self.name.clone(),
            content_offset,
            source,
        };
        FrameError::inside(content_offset, at, kind)
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

    /// [`VlMetalayer::value`] within `budget`: the chunk's `nbytes` is spent from it,
    /// then the memory of the values read (each element, key and the value itself);
    /// a value the budget does not hold is refused before it is decoded or read past
    /// what the budget holds, so that many values held together stay within it.
    ///
    /// ```
    /// use b2nd_meta::chunk::DecodeBudget;
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// let budget = DecodeBudget::new(256);
    /// let list = trailer.vlmetalayer("list").unwrap();
    /// // python: [1, 2.5, None, "x"]: 14 bytes decoded, 5 values held (32 bytes each).
    /// assert_eq!(list.value_within(&budget)?, list.value()?);
    /// assert_eq!(budget.spent(), 14 + 5 * 32);
    /// // What is left holds the bytes, not the values.
    /// assert!(list.value_within(&budget).is_err());
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn value_within(&self, budget: &DecodeBudget) -> Result<Value, FrameError> {
        let bytes = self.decode_within(budget)?;
        let max = usize::try_from(budget.left() / VALUE_SIZE as u64).unwrap_or(usize::MAX);
        let (value, count) =
            Value::from_msgpack_within(&bytes, max).map_err(|source| self.value_error(source))?;
        // Within what was left; another user of the budget may have spent it since.
        let _ = budget.take((count * VALUE_SIZE) as u64);
        Ok(value)
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
        crate::frame::typed::from_msgpack(&bytes).map_err(|source| self.value_error(source))
    }

    fn value_error(&self, source: crate::meta::error::Error) -> FrameError {
        FrameError::new(FrameErrorKind::VlmetaValue {
            name: self.name.clone(),
            source,
        })
    }
}

impl FrameFile {
    /// The names of the frame's vlmetalayers, in index order.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let names = b2nd_meta::frame::open(path)?.vlmeta_names()?;
    /// assert!(names.iter().all(|n| !n.is_empty()));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn vlmeta_names(&self) -> Result<Vec<String>, FrameError> {
        Ok(self.kept_trailer()?.names().map(str::to_string).collect())
    }

    /// The uncompressed content (msgpack) of the vlmetalayer `name`.
    pub fn vlmeta_bytes(&self, name: &str) -> Result<Vec<u8>, FrameError> {
        vlmetalayer(self.kept_trailer()?, name)?.decode()
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
        vlmetalayer(self.kept_trailer()?, name)?.value()
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
        vlmetalayer(self.kept_trailer()?, name)?.deserialize()
    }
}

fn vlmetalayer<'t>(trailer: &'t Trailer, name: &str) -> Result<&'t VlMetalayer, FrameError> {
    trailer.vlmetalayer(name).ok_or_else(|| {
        FrameError::new(FrameErrorKind::UnknownVlmetalayer {
            name: name.to_string(),
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::frame::file::TRAILER_READS;

    #[test]
    fn one_open_reads_the_trailer_once() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd"
        );
        let reads = || TRAILER_READS.with(|n| n.get());
        let frame = crate::frame::open(path).unwrap();
        let before = reads();
        let names = frame.vlmeta_names().unwrap();
        assert!(names.len() > 3);
        for name in &names {
            frame.vlmeta_bytes(name).unwrap();
            frame.vlmeta_value(name).unwrap();
        }
        let _: std::string::String = frame.vlmeta("str").unwrap();
        frame.trailer().unwrap();
        assert_eq!(reads() - before, 1);
        // A second open reads it again: it may have changed.
        crate::frame::open(path).unwrap().vlmeta_names().unwrap();
        assert_eq!(reads() - before, 2);
    }
}
