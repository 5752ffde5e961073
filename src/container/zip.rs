//! The members of a `.b2z` bundle: the zip's central directory read with `rawzip`, and
//! each member's data located as python-blosc2's `_get_zip_offsets` does (local header
//! offset + 30 + name length + extra length), to be read in place.

use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use super::error::{ContainerError, ContainerErrorKind};
use crate::io::{ReadAt, SharedSource};

/// Adapts our [`ReadAt`] to rawzip's.
struct Rz(SharedSource);

impl rawzip::ReaderAt for Rz {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
        self.0.read_at(buf, offset)
    }
}

/// One member of the zip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    /// Its name as stored (`/`-separated).
    pub(crate) name: String,
    /// Where its stored data starts in the file.
    pub(crate) offset: u64,
    /// Its stored length (the central directory's compressed size).
    pub(crate) length: u64,
    /// Its compression method (0: stored).
    pub(crate) method: u16,
    /// Its CRC-32, as the central directory records it.
    pub(crate) crc32: u32,
}

fn zip_error(e: &rawzip::Error, at: Option<u64>) -> ContainerError {
    let kind = ContainerErrorKind::Zip {
        reason: std::format!("{e}"),
    };
    match at {
        Some(at) => ContainerError::at(at, kind),
        None => ContainerError::new(kind),
    }
}

/// Whether `src` ends with a zip's end of central directory.
pub(crate) fn is_zip(src: &SharedSource) -> bool {
    let mut buf = std::vec![0u8; 1 << 12];
    rawzip::ZipLocator::new()
        .max_search_space(1 << 16)
        .locate_in_reader(Rz(Arc::clone(src)), &mut buf, src.size().unwrap_or(0))
        .is_ok()
}

/// Every member of the zip `src` holds, each located or with why it cannot be; an
/// error when the directory itself does not read.
#[allow(clippy::type_complexity)]
pub(crate) fn members(
    src: &SharedSource,
) -> Result<Vec<(String, Result<Member, ContainerError>)>, ContainerError> {
    let size = src.size().map_err(ContainerError::io)?;
    let mut buf = std::vec![0u8; rawzip::RECOMMENDED_BUFFER_SIZE];
    let archive = rawzip::ZipLocator::new()
        .locate_in_reader(Rz(Arc::clone(src)), &mut buf, size)
        .map_err(|(_, e)| zip_error(&e, None))?;
    let mut found = Vec::new();
    let mut entries = archive.entries(&mut buf);
    loop {
        let record = match entries.next_entry() {
            Ok(Some(record)) => record,
            Ok(None) => break,
            Err(e) => return Err(zip_error(&e, None)),
        };
        if record.is_dir() {
            continue;
        }
        let name = String::from_utf8_lossy(record.file_path().as_bytes()).into_owned();
        let header_at = record.local_header_offset();
        let method = record.compression_method().as_u16();
        let length = record.compressed_size_hint();
        let crc32 = record.crc32();
        let located = archive
            .get_entry(record.wayfinder())
            .map_err(|e| zip_error(&e, Some(header_at)))
            .and_then(|entry| {
                let (start, end) = entry.compressed_data_range();
                if end > size {
                    return Err(ContainerError::at(
                        header_at,
                        ContainerErrorKind::NodeOutside {
                            key: name.clone(),
                            offset: start,
                            length,
                            available: size,
                        },
                    ));
                }
                Ok(Member {
                    name: name.clone(),
                    offset: start,
                    length,
                    method,
                    crc32,
                })
            });
        found.push((name, located));
    }
    Ok(found)
}

/// A zip's stored members as a read-only [`Storage`](crate::io::Storage): each read in
/// place, a window of the file; writes are refused.
pub(crate) struct ZipStorage {
    src: SharedSource,
    label: std::path::PathBuf,
    members: std::collections::BTreeMap<String, Member>,
}

impl ZipStorage {
    /// The stored members of the zip `src` holds (named `label` in messages); those that
    /// do not locate, or are compressed, are left out.
    pub(crate) fn new(
        src: SharedSource,
        label: &std::path::Path,
    ) -> Result<ZipStorage, ContainerError> {
        let members = members(&src)?
            .into_iter()
            .filter_map(|(name, m)| m.ok().filter(|m| m.method == 0).map(|m| (name, m)))
            .collect();
        Ok(ZipStorage {
            src,
            label: label.to_path_buf(),
            members,
        })
    }
}

impl core::fmt::Debug for ZipStorage {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ZipStorage")
            .field("label", &self.label)
            .field("members", &self.members.len())
            .finish_non_exhaustive()
    }
}

impl crate::io::Storage for ZipStorage {
    fn label(&self, key: &str) -> std::path::PathBuf {
        std::path::PathBuf::from(std::format!("{}#{key}", self.label.display()))
    }

    fn open(&self, key: &str) -> std::io::Result<SharedSource> {
        let m = self.members.get(key).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                std::format!("no member {key:?}"),
            )
        })?;
        Ok(Arc::new(crate::io::Window::new(
            Arc::clone(&self.src),
            m.offset,
            m.length,
        )))
    }

    fn list(&self, dir: &str) -> std::io::Result<Vec<crate::io::Listed>> {
        Ok(crate::io::list_keys(
            self.members.keys().map(String::as_str),
            dir,
        ))
    }

    fn put(&self, _key: &str, _bytes: &[u8]) -> std::io::Result<()> {
        Err(crate::io::read_only())
    }

    fn create(&self, _key: &str, _bytes: &[u8]) -> std::io::Result<()> {
        Err(crate::io::read_only())
    }

    fn remove(&self, _key: &str) -> std::io::Result<()> {
        Err(crate::io::read_only())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::{ReadAt, Storage};

    #[test]
    fn a_bundle_read_as_storage_lists_and_opens_its_members_and_refuses_writes() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/containers/blosc2-4.14.1/dict.b2z"
        );
        let src: SharedSource = Arc::new(std::fs::File::open(path).unwrap());
        let zip = ZipStorage::new(src, std::path::Path::new("dict.b2z")).unwrap();
        let top = zip.list("").unwrap();
        assert!(
            top.contains(&crate::io::Listed::object("embed.b2e")),
            "{top:?}"
        );
        let member = zip.open("embed.b2e").unwrap();
        let mut magic = [0u8; 7];
        member.read_at(&mut magic, 2).unwrap();
        assert_eq!(&magic, b"b2frame");
        assert!(zip.put("x", b"").is_err() && zip.remove("embed.b2e").is_err());
        assert_eq!(zip.label("a/b"), std::path::PathBuf::from("dict.b2z#a/b"));
    }
}
