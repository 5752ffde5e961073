//! A stored (uncompressed) zip, as python's `zipfile.ZipFile(path, "w", ZIP_STORED)`
//! writes a `.b2z`: for each member a local header and its bytes, then the central
//! directory and its end record. No zip64: a member or an archive of 4 GiB or more is
//! refused (python-blosc2's own stores of that size carry zip64 records this does not
//! write).

use std::fs::File;
use std::io;
use std::string::String;
use std::vec::Vec;

use crate::io::{read_exact_at, ReadAt, Steps};

/// Bytes copied per read and per counted write.
const COPY_BLOCK: usize = 4 << 20;
/// The version python's zipfile records for a stored member (2.0).
const VERSION: u16 = 20;
/// "Made by" Unix (3), version 2.0, as python writes on Unix.
const MADE_BY: u16 = (3 << 8) | VERSION;
/// `-rw-r--r--` regular file in the high half of the external attributes.
const EXTERNAL_ATTR: u32 = 0o100_644 << 16;
/// 1980-01-01 00:00, the DOS epoch: the same bytes on every run.
const DOS_DATE: u16 = (1 << 5) | 1;

/// A member written: what its central directory entry says.
#[derive(Debug, Clone)]
pub(crate) struct Written {
    pub(crate) name: String,
    pub(crate) crc32: u32,
    pub(crate) len: u64,
    pub(crate) header_at: u64,
}

/// A zip being written into `file` (a staging file), every write a counted step.
pub(crate) struct ZipOut<'a> {
    file: &'a File,
    steps: &'a Steps,
    at: u64,
    members: Vec<Written>,
}

fn too_large(what: &str) -> io::Error {
    io::Error::other(std::format!(
        "{what} reaches 4 GiB: a .b2z that large needs zip64 records, which are not written"
    ))
}

fn u32_of(n: u64, what: &str) -> io::Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|&n| n != u32::MAX)
        .ok_or_else(|| too_large(what))
}

fn local_header(name: &str, crc32: u32, len: u32) -> Vec<u8> {
    let mut h = Vec::with_capacity(30 + name.len());
    h.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes()); // flags
    h.extend_from_slice(&0u16.to_le_bytes()); // stored
    h.extend_from_slice(&0u16.to_le_bytes()); // time
    h.extend_from_slice(&DOS_DATE.to_le_bytes());
    h.extend_from_slice(&crc32.to_le_bytes());
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(&(name.len() as u16).to_le_bytes());
    h.extend_from_slice(&0u16.to_le_bytes()); // extra
    h.extend_from_slice(name.as_bytes());
    h
}

impl<'a> ZipOut<'a> {
    /// An empty zip at the start of `file`.
    pub(crate) fn new(file: &'a File, steps: &'a Steps) -> ZipOut<'a> {
        ZipOut {
            file,
            steps,
            at: 0,
            members: Vec::new(),
        }
    }

    /// Adds member `name`: `len` bytes of `src` from `from`, whose CRC-32 is `crc32`
    /// when known (a member copied from another zip), computed while copying otherwise.
    pub(crate) fn member<S: ReadAt + ?Sized>(
        &mut self,
        name: &str,
        src: &S,
        from: u64,
        len: u64,
        crc32: Option<u32>,
    ) -> io::Result<()> {
        if name.len() > usize::from(u16::MAX) {
            return Err(io::Error::other("a member name longer than 65535 bytes"));
        }
        let len32 = u32_of(len, "a member")?;
        let header_at = self.at;
        let data_at = header_at + 30 + name.len() as u64;
        let mut crc = Crc32::new();
        let mut buf = std::vec![0u8; COPY_BLOCK.min(len as usize)];
        let mut done = 0u64;
        while done < len {
            let n = (len - done).min(buf.len() as u64) as usize;
            read_exact_at(src, &mut buf[..n], from + done)?;
            if crc32.is_none() {
                crc.update(&buf[..n]);
            }
            self.steps.write(self.file, &buf[..n], data_at + done)?;
            done += n as u64;
        }
        let crc32 = crc32.unwrap_or_else(|| crc.finish());
        let header = local_header(name, crc32, len32);
        self.steps.write(self.file, &header, header_at)?;
        self.at = data_at + len;
        u32_of(self.at, "the archive")?;
        self.members.push(Written {
            name: name.into(),
            crc32,
            len,
            header_at,
        });
        Ok(())
    }

    /// Where the data of the next member, `name`, starts: the caller writes its bytes
    /// there (positioned writes, in any order), then calls [`ZipOut::written`].
    pub(crate) fn data_at(&self, name: &str) -> u64 {
        self.at + 30 + name.len() as u64
    }

    /// Adds member `name` whose `len` bytes the caller wrote at [`ZipOut::data_at`]:
    /// their CRC-32 read back from the file, its local header written before them.
    pub(crate) fn written(&mut self, name: &str, len: u64) -> io::Result<()> {
        if name.len() > usize::from(u16::MAX) {
            return Err(io::Error::other("a member name longer than 65535 bytes"));
        }
        let len32 = u32_of(len, "a member")?;
        let header_at = self.at;
        let data_at = self.data_at(name);
        let mut crc = Crc32::new();
        let mut buf = std::vec![0u8; COPY_BLOCK.min(len as usize)];
        let mut done = 0u64;
        while done < len {
            let n = (len - done).min(buf.len() as u64) as usize;
            read_exact_at(self.file, &mut buf[..n], data_at + done)?;
            crc.update(&buf[..n]);
            done += n as u64;
        }
        let crc32 = crc.finish();
        self.steps
            .write(self.file, &local_header(name, crc32, len32), header_at)?;
        self.at = data_at + len;
        u32_of(self.at, "the archive")?;
        self.members.push(Written {
            name: name.into(),
            crc32,
            len,
            header_at,
        });
        Ok(())
    }

    /// Writes the central directory and its end record; the zip's length.
    pub(crate) fn finish(self) -> io::Result<u64> {
        let mut dir = Vec::new();
        for m in &self.members {
            dir.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            dir.extend_from_slice(&MADE_BY.to_le_bytes());
            // The rest of a local header's fields, then the directory's own.
            let local = local_header(&m.name, m.crc32, m.len as u32);
            dir.extend_from_slice(&local[4..30]);
            dir.extend_from_slice(&0u16.to_le_bytes()); // comment
            dir.extend_from_slice(&0u16.to_le_bytes()); // disk
            dir.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
            dir.extend_from_slice(&EXTERNAL_ATTR.to_le_bytes());
            dir.extend_from_slice(&(m.header_at as u32).to_le_bytes());
            dir.extend_from_slice(m.name.as_bytes());
        }
        let count = u16::try_from(self.members.len())
            .ok()
            .filter(|&n| n != u16::MAX)
            .ok_or_else(|| io::Error::other("65535 members or more need zip64 records"))?;
        let dir_len = u32_of(dir.len() as u64, "the directory")?;
        let dir_at = u32_of(self.at, "the archive")?;
        dir.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        dir.extend_from_slice(&[0; 4]); // disk numbers
        dir.extend_from_slice(&count.to_le_bytes());
        dir.extend_from_slice(&count.to_le_bytes());
        dir.extend_from_slice(&dir_len.to_le_bytes());
        dir.extend_from_slice(&dir_at.to_le_bytes());
        dir.extend_from_slice(&0u16.to_le_bytes()); // comment
        u32_of(self.at + dir.len() as u64, "the archive")?;
        self.steps.write(self.file, &dir, self.at)?;
        Ok(self.at + dir.len() as u64)
    }
}

/// CRC-32 (IEEE, reflected), as zip records it; eight bytes a step (slicing-by-8).
struct Crc32(u32, std::boxed::Box<[[u32; 256]; 8]>);

impl Crc32 {
    fn new() -> Crc32 {
        let mut t = std::boxed::Box::new([[0u32; 256]; 8]);
        for i in 0..256 {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            t[0][i] = c;
        }
        for i in 0..256 {
            for k in 1..8 {
                let prev = t[k - 1][i];
                t[k][i] = (prev >> 8) ^ t[0][(prev & 0xff) as usize];
            }
        }
        Crc32(!0, t)
    }

    fn update(&mut self, bytes: &[u8]) {
        let t = &self.1;
        let mut c = self.0;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let lo = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) ^ c;
            let hi = u32::from_le_bytes([w[4], w[5], w[6], w[7]]);
            c = t[7][(lo & 0xff) as usize]
                ^ t[6][((lo >> 8) & 0xff) as usize]
                ^ t[5][((lo >> 16) & 0xff) as usize]
                ^ t[4][(lo >> 24) as usize]
                ^ t[3][(hi & 0xff) as usize]
                ^ t[2][((hi >> 8) & 0xff) as usize]
                ^ t[1][((hi >> 16) & 0xff) as usize]
                ^ t[0][(hi >> 24) as usize];
        }
        for &b in words.remainder() {
            c = t[0][((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
        }
        self.0 = c;
    }

    fn finish(&self) -> u32 {
        !self.0
    }
}

#[cfg(test)]
mod tests {
    use super::Crc32;

    #[test]
    fn crc32_of_the_check_string_is_the_standard_check_value() {
        let mut crc = Crc32::new();
        crc.update(b"123456789");
        assert_eq!(crc.finish(), 0xCBF4_3926);
    }

    /// zlib's `crc32` (python's `zlib.crc32`) of 0..=255 repeated to 1000 bytes, fed
    /// in pieces that cut the 8-byte steps anywhere.
    #[test]
    fn crc32_in_pieces_is_zlibs_of_the_whole() {
        let data: std::vec::Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
        for cut in [0, 1, 7, 8, 9, 500, 999, 1000] {
            let mut crc = Crc32::new();
            crc.update(&data[..cut]);
            crc.update(&data[cut..]);
            assert_eq!(crc.finish(), 0x74E3_FB41, "cut at {cut}");
        }
    }
}
