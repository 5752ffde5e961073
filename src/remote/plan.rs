//! What a [`Remote`](super::Remote) fetches: its open (the head, then the tail: a
//! frame's index and trailer exactly, [`frame_tail`], else the last bytes), and the
//! range a read that misses fetches ([`State::fetch_range`]: hints and neighbours).

use std::format;
use std::io;
use std::vec::Vec;

use super::cache::Segments;
use super::http::Endpoint;
use super::{Opened, RemoteOptions};

/// What the first answer established, and the ranges fetched since.
pub(super) struct State {
    pub(super) opened: Option<Opened>,
    pub(super) held: Segments,
    /// The ranges readers said they are about to read ([`ReadAt::will_read`](crate::io::ReadAt::will_read)), the
    /// newest last (at most [`COMING`]): a miss inside one fetches it whole at once
    /// (from the miss when bytes before it are held or being fetched already).
    pub(super) coming: Vec<(u64, u64)>,
    /// The ranges requested and not yet answered.
    pub(super) in_flight: Vec<(u64, u64)>,
    /// Why the open failed (its error's kind and line), when it did.
    pub(super) failed: Option<(std::io::ErrorKind, std::string::String)>,
    /// Whether it failed as the server serves no byte ranges of the URL.
    pub(super) refused: bool,
    /// The agent and endpoint requests go through, once made.
    pub(super) session: Option<(ureq::Agent, Endpoint)>,
}

/// Where the chunk index of the contiguous frame whose first bytes are `head` starts
/// (its trailer follows it to the end): `header_len + cbytes`, when the header is
/// there, says the frame is `size` bytes long and the index and trailer take at most
/// `cap` bytes. C-Blosc2's fixed header fields: msgpack int32 `header_len` at byte
/// 11, uint64 `frame_len` at 16, the frame type at 26, int64 `cbytes` at 39 (big
/// endian), after the magic `b2frame\0` at 2.
fn frame_tail(head: &[u8], size: u64, cap: u64) -> Option<u64> {
    let field = |at: usize, marker: u8| -> Option<u64> {
        (*head.get(at - 1)? == marker).then_some(())?;
        let bytes: [u8; 8] = match marker {
            0xd2 => {
                let mut four = [0u8; 8];
                four[4..].copy_from_slice(head.get(at..at + 4)?);
                four
            }
            _ => head.get(at..at + 8)?.try_into().ok()?,
        };
        Some(u64::from_be_bytes(bytes))
    };
    (head.get(2..10)? == b"b2frame\0" && *head.get(26)? == 0).then_some(())?;
    let header_len = field(11, 0xd2)?;
    let frame_len = field(16, 0xcf)?;
    let cbytes = field(39, 0xd3)?;
    let start = header_len.checked_add(cbytes)?;
    // A negative int32 or int64 read as u64 is past any size: refused here.
    (frame_len == size && start < size && size - start <= cap).then_some(start)
}

/// The most ranges kept as hints ([`ReadAt::will_read`](crate::io::ReadAt::will_read)).
pub(super) const COMING: usize = 64;

impl State {
    /// What to fetch for a read of `len` bytes at `offset`, which nothing held or
    /// being fetched holds: from `offset`, at least `len` and `read_ahead` bytes, up
    /// to the end of a hinted range that holds `offset` (from that range's start when
    /// none of its bytes before `offset` is held or being fetched: the first of a
    /// run of blocks other threads read too is one request), never into bytes held
    /// or being fetched, nor past `size`.
    pub(super) fn fetch_range(
        &self,
        offset: u64,
        len: u64,
        options: &RemoteOptions,
        size: u64,
    ) -> (u64, u64) {
        let taken = |a: u64, b: u64| {
            self.in_flight.iter().any(|(s, e)| *s < b && a < *e)
                || self.held.next_start(a).is_some_and(|s| s < b)
                || self.held.holds(a)
        };
        let hinted = self
            .coming
            .iter()
            .rev()
            .find(|(start, end)| *start <= offset && offset < *end);
        // One fetch holds at most `keep` bytes (or what is asked).
        let most = options.keep.max(len).max(1);
        let start = match hinted {
            Some(&(start, _)) if start < offset && offset - start < most => {
                match taken(start, offset) {
                    true => offset,
                    false => start,
                }
            }
            _ => offset,
        };
        let want = len
            .max(options.read_ahead)
            .max(hinted.map_or(0, |(_, end)| end - offset));
        // Up to what is held or being fetched already.
        let next_in_flight = self
            .in_flight
            .iter()
            .map(|(s, _)| *s)
            .filter(|s| *s > offset)
            .min();
        let end = offset
            .saturating_add(want)
            .min(start.saturating_add(most).max(offset.saturating_add(len)))
            .min(size)
            .min(self.held.next_start(offset).unwrap_or(u64::MAX))
            .min(next_in_flight.unwrap_or(u64::MAX));
        (start, end)
    }

    /// Keeps `[start, end)` as a hint, merged with those it overlaps or touches (the
    /// chunks of a read, back to back, are one range); the oldest dropped past
    /// [`COMING`].
    pub(super) fn hint(&mut self, mut start: u64, mut end: u64) {
        self.coming.retain(|&(s, e)| {
            let apart = e < start || end < s;
            if !apart {
                start = start.min(s);
                end = end.max(e);
            }
            apart
        });
        if self.coming.len() >= COMING {
            self.coming.remove(0);
        }
        self.coming.push((start, end));
    }
}

impl super::Remote {
    /// The first read: the head (and the size), then the tail.
    pub(super) fn open(
        &self,
        agent: ureq::Agent,
        endpoint: Endpoint,
    ) -> io::Result<(Opened, Segments)> {
        let options = &self.options;
        let prefetch = options.prefetch.max(1);
        let head = self.get(&agent, &endpoint, &format!("bytes=0-{}", prefetch - 1))?;
        let mut held = Segments::new(options.keep);
        let size = head.size;
        let mut opened = Opened {
            agent,
            endpoint,
            size,
            version: head.version,
            whole: None,
        };
        if head.whole {
            opened.whole = Some(head.bytes);
            return Ok((opened, held));
        }
        // A frame's index and trailer exactly, as its header places them; else the
        // last `prefetch` bytes (a zip's directory).
        let tail_start = frame_tail(&head.bytes, size, options.keep)
            .unwrap_or_else(|| size.saturating_sub(prefetch))
            .max(head.bytes.len() as u64);
        held.insert(0, head.bytes, true);
        if tail_start < size {
            let range = format!("bytes={tail_start}-{}", size - 1);
            let tail = self.get(&opened.agent, &opened.endpoint, &range)?;
            opened.check(&tail, tail_start)?;
            held.insert(tail_start, tail.bytes, true);
        }
        Ok((opened, held))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(held: &[(u64, usize)], coming: &[(u64, u64)], in_flight: &[(u64, u64)]) -> State {
        let mut segments = Segments::new(1 << 20);
        for &(start, len) in held {
            segments.insert(start, std::vec![0; len], false);
        }
        State {
            opened: None,
            held: segments,
            coming: coming.to_vec(),
            in_flight: in_flight.to_vec(),
            failed: None,
            refused: false,
            session: None,
        }
    }

    #[test]
    fn a_miss_fetches_its_hinted_range_whole_unless_part_of_it_is_had() {
        let exact = RemoteOptions {
            read_ahead: 0,
            ..RemoteOptions::default()
        };
        let ahead = RemoteOptions {
            read_ahead: 50,
            ..RemoteOptions::default()
        };
        let small_keep = RemoteOptions {
            keep: 160,
            ..exact.clone()
        };
        let tiny_keep = RemoteOptions {
            keep: 60,
            ..exact.clone()
        };
        for (held, coming, in_flight, options, want) in [
            // No hint: what is asked, or read_ahead bytes.
            (&[][..], &[][..], &[][..], &exact, (200, 210)),
            (&[], &[], &[], &ahead, (200, 250)),
            // Up to what is held or being fetched.
            (&[(230, 5)], &[], &[], &ahead, (200, 230)),
            (&[], &[], &[(240, 260)], &ahead, (200, 240)),
            // A hinted range: whole, from its start.
            (&[], &[(100, 400)], &[], &exact, (100, 400)),
            // ... from the miss when bytes before it are held or being fetched.
            (&[(100, 50)], &[(100, 400)], &[], &exact, (200, 400)),
            (&[(90, 20)], &[(100, 400)], &[], &exact, (200, 400)),
            (&[], &[(100, 400)], &[(120, 130)], &exact, (200, 400)),
            // The file's end.
            (&[], &[(100, 4000)], &[], &exact, (100, 1000)),
            // At most `keep` bytes from the hint's start, or from the miss.
            (&[], &[(100, 400)], &[], &small_keep, (100, 260)),
            (&[], &[(100, 400)], &[], &tiny_keep, (200, 260)),
        ] {
            let state = state(held, coming, in_flight);
            assert_eq!(
                state.fetch_range(200, 10, options, 1000),
                want,
                "{held:?} {coming:?} {in_flight:?}"
            );
        }
    }

    #[test]
    fn hints_that_touch_are_one() {
        let mut state = state(&[], &[], &[]);
        state.hint(0, 10);
        state.hint(20, 30);
        state.hint(10, 20);
        state.hint(40, 50);
        state.hint(5, 8);
        // The newest last: the one (5, 8) joined.
        assert_eq!(state.coming, [(40, 50), (0, 30)]);
    }

    #[test]
    fn the_tail_of_a_frame_is_where_its_header_says_else_none() {
        // A contiguous frame python-blosc2 wrote: its index and trailer from
        // header_len + cbytes.
        let frame = include_bytes!("../../tests/data/frame/usermeta.b2nd");
        let size = frame.len() as u64;
        let be = |at: usize, n: usize| {
            frame[at..at + n]
                .iter()
                .fold(0u64, |v, b| v << 8 | u64::from(*b))
        };
        let start = be(11, 4) + be(39, 8);
        assert!(start > 87 && start < size);
        assert_eq!(frame_tail(frame, size, u64::MAX), Some(start));
        // Not a frame, another size, a tail past the cap, too short a head: none.
        assert_eq!(frame_tail(b"PK\x03\x04 a zip", size, u64::MAX), None);
        assert_eq!(frame_tail(frame, size + 1, u64::MAX), None);
        assert_eq!(frame_tail(frame, size, size - start - 1), None);
        assert_eq!(frame_tail(&frame[..40], size, u64::MAX), None);
        let mut sparse = frame.to_vec();
        sparse[26] = 1;
        assert_eq!(frame_tail(&sparse, size, u64::MAX), None);
    }
}
