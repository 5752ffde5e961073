//! Decoding from a `std::io::Read`, exactly as many bytes as the value needs.
//!
//! The value is decoded from the bytes received so far; when they end inside it, the
//! reader's error says how many more the value needs (a header byte, an entry, a
//! string's length as its header claims it), and that many are read, in chunks, before
//! trying again. Memory follows the bytes received, never a length field.

use alloc::vec::Vec;
use std::io::{self, Read};

use serde::de::DeserializeOwned;

use super::deserializer::Deserializer;
use crate::meta::error::{Error, ErrorKind, Result};

/// The most bytes asked of the reader in one call.
const CHUNK: usize = 4096;

/// Decodes a value from `reader`, reading exactly the bytes it needs, then one more to
/// check that nothing follows ([`ErrorKind::TrailingBytes`], with a count of 1: the
/// reader is not read further).
///
/// Bytes are read as the value reveals its size (a header, then its elements), so
/// memory grows with the bytes actually received, never with a length field, and an
/// endless reader is read no further than the value needs. A reader that reports more
/// bytes than the buffer it was given is an error ([`ErrorKind::Io`]).
///
/// ```
/// let bytes: &[u8] = &[0x95, 0x00, 0x00, 0x90, 0x90, 0x90];
/// let meta: b2nd_meta::Meta = b2nd_meta::from_reader(bytes).unwrap();
/// assert_eq!(meta.layout(), b2nd_meta::Layout::V0Caterva);
///
/// // A metalayer followed by endless zeros: one more byte is read, and refused.
/// use std::io::Read;
/// let endless = bytes.chain(std::io::repeat(0));
/// let err = b2nd_meta::from_reader::<_, b2nd_meta::Meta>(endless).unwrap_err();
/// assert_eq!(err.to_string(), "expected the end of the input, found 1 more byte(s) at byte 6");
/// ```
pub fn from_reader<R: Read, T: DeserializeOwned>(mut reader: R) -> Result<T> {
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let mut de = Deserializer::from_slice(&buf);
        let err = match T::deserialize(&mut de) {
            Ok(value) => {
                de.end()?;
                return trailing(&mut reader, buf.len()).map(|()| value);
            }
            Err(err) => err,
        };
        match err.kind() {
            // The bytes so far end inside the value: read what it still needs.
            ErrorKind::UnexpectedEnd {
                needed, input_len, ..
            } if *input_len == buf.len() => {
                let needed = (*needed).max(1);
                if read_up_to(&mut reader, &mut buf, needed)? == 0 {
                    // The reader has ended: the bytes received are the whole input.
                    return Err(err);
                }
            }
            _ => return Err(err),
        }
    }
}

/// Appends at most `n` bytes from `reader` to `buf`, stopping early only at the
/// reader's end; returns how many were appended.
fn read_up_to<R: Read>(reader: &mut R, buf: &mut Vec<u8>, n: usize) -> Result<usize> {
    let mut chunk = [0u8; CHUNK];
    let mut total = 0;
    while total < n {
        let want = (n - total).min(CHUNK);
        let Some(dst) = chunk.get_mut(..want) else {
            break;
        };
        let got = read_checked(reader, dst)?;
        if got == 0 {
            break;
        }
        buf.extend_from_slice(chunk.get(..got).unwrap_or(&[]));
        total += got;
    }
    Ok(total)
}

/// After a complete value of `len` bytes: one more byte is an error.
fn trailing<R: Read>(reader: &mut R, len: usize) -> Result<()> {
    match read_checked(reader, &mut [0u8; 1])? {
        0 => Ok(()),
        count => Err(Error::at(len, ErrorKind::TrailingBytes { count })),
    }
}

/// One `read`, retried when interrupted; a reader claiming more bytes than `dst` holds
/// is an error rather than a panic.
fn read_checked<R: Read>(reader: &mut R, dst: &mut [u8]) -> Result<usize> {
    loop {
        match reader.read(dst) {
            Ok(n) if n <= dst.len() => return Ok(n),
            Ok(n) => {
                return Err(Error::from(io::Error::new(
                    io::ErrorKind::InvalidData,
                    alloc::format!(
                        "the reader reported {n} bytes read into a buffer of {}",
                        dst.len()
                    ),
                )));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::from(e)),
        }
    }
}
