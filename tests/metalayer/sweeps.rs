//! Deterministic sweeps over every committed real metalayer, dtype string and frame
//! header: every truncation, and every single-byte change (all 255 other values at every
//! offset). The answer is always `Ok` or `Err`, never a panic; an error names an offset
//! inside the input; and when the answer is `Ok`:
//!
//! - a metalayer re-encodes to exactly the bytes it was decoded from, and the typed
//!   structs and `MetaRef` accept exactly what `Meta` accepts (same error offsets);
//! - a dtype prints to a string that parses back to an equal dtype;
//! - a frame header's metalayer contents are the bytes at their offsets, inside
//!   `header_len`, and `read_header` agrees with `parse_header`.
//!
//! The inputs are the raw metalayer contents C-Blosc2 returned for every file of
//! tests/data/corpus (tests/data/manifest.json), the caterva and draft layouts derived
//! from them, and the header of every corpus file and tests/data/frame fixture.
//! Identical metalayers are swept once.

use crate::common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use b2nd_meta::dtype::Dtype;
use b2nd_meta::frame::{self, FrameError, FrameErrorKind, FrameHeader};
use b2nd_meta::{Meta, MetaB2nd, MetaB2ndV1, MetaRef, MetaV0Caterva};
use common::{data_path, manifest, unhex};

// ---------------------------------------------------------------------------
// Inputs

/// Every distinct real metalayer content (b2nd and user ones), with a name for messages.
/// For each number of dimensions in the corpus, one b2nd v1 metalayer is also turned
/// into the caterva (`0x95`) and draft (`0x96`) layouts: same shape bytes, C's own
/// widths, only the tail differs.
fn metalayers() -> Vec<(String, Vec<u8>)> {
    let mut unique: BTreeMap<Vec<u8>, String> = BTreeMap::new();
    let mut derived: BTreeMap<u8, (String, Vec<u8>)> = BTreeMap::new();
    for file in manifest()["files"].as_array().unwrap() {
        let fname = file["name"].as_str().unwrap();
        for layer in file["metalayers"].as_array().unwrap() {
            let lname = layer["name"].as_str().unwrap();
            let raw = unhex(layer["raw_hex"].as_str().unwrap());
            if lname == "b2nd" {
                derived
                    .entry(raw[2])
                    .or_insert_with(|| (fname.to_owned(), raw.clone()));
            }
            unique
                .entry(raw)
                .or_insert_with(|| format!("{fname}/{lname}"));
        }
    }
    for (fname, raw) in derived.into_values() {
        let common_len = 6 + 19 * usize::from(raw[2]);
        let mut caterva = raw[..common_len].to_vec();
        caterva[0] = 0x95;
        let mut draft = raw.clone();
        draft[0] = 0x96;
        draft.remove(common_len); // the dtype_format byte
        unique.insert(caterva, format!("{fname}/as caterva"));
        unique.insert(draft, format!("{fname}/as draft"));
    }
    unique
        .into_iter()
        .map(|(bytes, name)| (name, bytes))
        .collect()
}

/// Every real frame header file (the `.b2nd` file, or a sparse frame's
/// `chunks.b2frame`), whole, with its `header_len` from the manifest or fixture table.
fn frame_files() -> Vec<(String, Vec<u8>, usize)> {
    let mut out = Vec::new();
    for file in manifest()["files"].as_array().unwrap() {
        let path = file["header_path"].as_str().unwrap();
        let header_len = file["header_len"].as_u64().unwrap() as usize;
        let bytes = std::fs::read(data_path(path)).unwrap();
        out.push((path.to_owned(), bytes, header_len));
    }
    for rel in [
        "frame/contiguous.b2nd",
        "frame/sparse.b2nd/chunks.b2frame",
        "frame/usermeta.b2nd",
    ] {
        let bytes = std::fs::read(data_path(rel)).unwrap();
        // header_len at byte 11, as C writes it; checked by the clean parse below.
        let header_len = i32::from_be_bytes(bytes[11..15].try_into().unwrap()) as usize;
        out.push((rel.to_owned(), bytes, header_len));
    }
    out
}

/// Every distinct real dtype string (all of python-blosc2's forms are in the corpus),
/// and the NumPy names the draft layout carried.
fn dtypes() -> Vec<String> {
    let mut unique: std::collections::BTreeSet<String> = manifest()["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["dtype_stored"].as_str().map(str::to_owned))
        .collect();
    for extra in ["int32", "float64", "datetime64[ns]", "bool", "|u1"] {
        unique.insert(extra.to_owned());
    }
    unique.into_iter().collect()
}

// ---------------------------------------------------------------------------
// What must hold for one input

/// Runs `f`, turning a panic into a failure that names the input.
fn no_panic<T>(what: &dyn Fn() -> String, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => panic!("panicked on {}", what()),
    }
}

fn assert_error_in_bounds(e: &b2nd_meta::Error, len: usize, what: &dyn Fn() -> String) {
    let offset = e
        .offset()
        .unwrap_or_else(|| panic!("decoding error without an offset ({e}) on {}", what()));
    assert!(
        offset <= len as u64,
        "error offset {offset} past the input of {len} bytes ({e}) on {}",
        what()
    );
}

/// Decodes `bytes` as [`Meta`], as the typed struct of the layout its first byte names
/// and as a [`MetaRef`]; returns whether `Meta` accepted it. Accepted bytes re-encode to
/// themselves, and the typed struct and the view agree with `Meta`.
fn check_metalayer(bytes: &[u8], what: &dyn Fn() -> String) -> bool {
    let meta = b2nd_meta::from_slice::<Meta>(bytes);
    if let Ok(meta) = &meta {
        let again = b2nd_meta::to_vec(meta)
            .unwrap_or_else(|e| panic!("accepted but not re-encodable ({e}): {}", what()));
        assert_eq!(again, bytes, "re-encoding differs: {}", what());
        assert_eq!(meta.encoded_len(), bytes.len(), "encoded_len: {}", what());
    }
    let typed = match bytes.first() {
        Some(0x95) => Some(b2nd_meta::from_slice::<MetaV0Caterva>(bytes).map(Meta::V0Caterva)),
        Some(0x96) => Some(b2nd_meta::from_slice::<MetaB2nd>(bytes).map(Meta::B2nd)),
        Some(0x97) => Some(b2nd_meta::from_slice::<MetaB2ndV1>(bytes).map(Meta::B2ndV1)),
        _ => None,
    };
    match (&meta, typed) {
        (Ok(m), Some(Ok(t))) => assert_eq!(m, &t, "typed decode differs: {}", what()),
        (Err(e), Some(Err(t))) => {
            assert_error_in_bounds(e, bytes.len(), what);
            assert_eq!(e.offset(), t.offset(), "{e} / {t}: {}", what());
        }
        (Err(e), None) => assert_error_in_bounds(e, bytes.len(), what),
        (m, t) => panic!(
            "Meta {:?} but the typed struct {:?}: {}",
            m.as_ref().map(|_| ()),
            t.map(|t| t.map(|_| ())),
            what()
        ),
    }
    // The zero-copy view accepts the same bytes, with the same error offset.
    match (&meta, MetaRef::parse(bytes)) {
        (Ok(m), Ok(v)) => assert_eq!(&v.to_meta(), m, "MetaRef: {}", what()),
        (Err(e), Err(v)) => assert_eq!(e.offset(), v.offset(), "{e} / {v}: {}", what()),
        (m, v) => panic!(
            "Meta {:?} but MetaRef {:?}: {}",
            m.as_ref().map(|_| ()),
            v.map(|_| ()),
            what()
        ),
    }
    // Trailing bytes: a prefix decode takes the metalayer and leaves exactly them.
    if let Err(e) = &meta
        && let b2nd_meta::ErrorKind::TrailingBytes { count } = e.kind()
    {
        let (m, rest) = b2nd_meta::take_from_slice::<Meta>(bytes)
            .unwrap_or_else(|e| panic!("take_from_slice: {e}: {}", what()));
        assert_eq!(rest.len(), *count, "{}", what());
        let mut again = b2nd_meta::to_vec(&m).unwrap();
        again.extend_from_slice(rest);
        assert_eq!(again, bytes, "take_from_slice: {}", what());
    }
    meta.is_ok()
}

fn check_dtype(s: &str, what: &dyn Fn() -> String) -> bool {
    match Dtype::parse(s) {
        Ok(dt) => {
            let printed = dt.to_string();
            let again = Dtype::parse(&printed).unwrap_or_else(|e| {
                panic!("{printed:?} (printed from {}) does not parse: {e}", what())
            });
            assert_eq!(again, dt, "{printed:?} parses to another dtype: {}", what());
            assert_eq!(
                again.to_string(),
                printed,
                "printing is not stable: {}",
                what()
            );
            true
        }
        Err(e) => {
            assert!(
                e.offset().is_some_and(|o| o <= s.len() as u64),
                "dtype error offset {:?} past {} bytes: {}",
                e.offset(),
                s.len(),
                what()
            );
            false
        }
    }
}

/// What an accepted frame header must satisfy against the buffer it came from. The
/// `b2nd`/`caterva` contents are decoded too when `decode` (byte changes inside them
/// are the metalayer sweep's: the contents of every file are among its inputs).
fn check_header(header: &FrameHeader, buf: &[u8], decode: bool, what: &dyn Fn() -> String) {
    let header_len = header.info.header_len as usize;
    assert!(
        header_len <= buf.len(),
        "header_len past the input: {}",
        what()
    );
    assert!(header_len >= frame::FIXED_HEADER_LEN, "{}", what());
    assert!(
        header.metalayers.len() <= frame::MAX_METALAYERS,
        "{}",
        what()
    );
    for m in &header.metalayers {
        assert!(
            // At most 31 bytes on disk: as many chars, each byte that is not UTF-8 one U+FFFD.
            m.name.chars().count() <= frame::METALAYER_NAME_MAXLEN && !m.name.contains('\0'),
            "bad name {:?}: {}",
            m.name,
            what()
        );
        let start = m.content_offset() as usize;
        let end = start + m.content.len();
        assert!(
            (m.offset as usize) > frame::FIXED_HEADER_LEN && end <= header_len,
            "metalayer {:?} at {}..{end} outside the header (header_len {header_len}): {}",
            m.name,
            m.offset,
            what()
        );
        assert_eq!(buf[m.offset as usize], 0xc6, "{}", what());
        assert_eq!(
            &buf[start..end],
            &m.content[..],
            "metalayer {:?} content is not the bytes at its offset: {}",
            m.name,
            what()
        );
        if decode && (m.name == "b2nd" || m.name == "caterva") {
            check_metalayer(&m.content, &|| {
                format!("metalayer {:?} of {}", m.name, what())
            });
        }
    }
}

/// Parses `buf` with `parse_header` and checks an accepted header against it. When
/// `with_reader`, `read_header` must give the same answer on the same bytes.
fn check_frame(
    buf: &[u8],
    decode: bool,
    with_reader: bool,
    what: &dyn Fn() -> String,
) -> Result<FrameHeader, FrameError> {
    let parsed = no_panic(what, || frame::parse_header(buf));
    if let Ok(p) = &parsed {
        check_header(p, buf, decode, what);
    }
    if with_reader {
        let read = no_panic(what, || frame::read_header(buf));
        match (&parsed, &read) {
            (Ok(p), Ok(r)) => assert_eq!(p, r, "read_header differs: {}", what()),
            (Err(p), Err(r)) => assert_eq!(
                p.to_string(),
                r.to_string(),
                "read_header fails otherwise than parse_header: {}",
                what()
            ),
            _ => panic!(
                "parse_header {:?} but read_header {:?}: {}",
                parsed.as_ref().map(|_| ()),
                read.as_ref().map(|_| ()),
                what()
            ),
        }
    }
    parsed
}

// ---------------------------------------------------------------------------
// The sweeps

/// The metalayer sweep, split in two halves so the test harness runs them on two
/// threads.
fn sweep_metalayers(half: usize) {
    let start = std::time::Instant::now();
    let layers = metalayers();
    assert!(layers.len() >= 70, "only {} metalayers", layers.len());
    let (mut decodes, mut accepted) = (0usize, 0usize);
    for (name, bytes) in layers.iter().skip(half).step_by(2) {
        let what = || format!("{name} unchanged");
        let is_array_meta = matches!(bytes[0], 0x95..=0x97);
        // The real metalayers themselves: b2nd ones decode, user ones are other msgpack.
        assert_eq!(
            no_panic(&what, || check_metalayer(bytes, &what)),
            is_array_meta,
            "{name}"
        );
        // Every proper prefix is refused, as the input ending early.
        for n in 0..bytes.len() {
            let what = || format!("{name} truncated to {n} bytes");
            let cut = &bytes[..n];
            assert!(
                !no_panic(&what, || check_metalayer(cut, &what)),
                "{}",
                what()
            );
            if is_array_meta {
                let e = b2nd_meta::from_slice::<Meta>(cut).unwrap_err();
                assert!(e.is_eof(), "{e}: {}", what());
            }
            decodes += 1;
        }
        let mut mutated = bytes.clone();
        for i in 0..bytes.len() {
            for v in 0..=255u8 {
                if v == bytes[i] {
                    continue;
                }
                mutated[i] = v;
                let what = || format!("{name} with byte {i} set to {v:#04x}");
                accepted += usize::from(no_panic(&what, || check_metalayer(&mutated, &what)));
                decodes += 1;
            }
            mutated[i] = bytes[i];
        }
    }
    // Byte changes inside shape entries and dtype bytes are still metalayers: the sweep
    // went through both branches.
    assert!(
        accepted > 1000,
        "only {accepted} changed metalayers accepted"
    );
    eprintln!(
        "metalayer sweep (half {half} of {} metalayers): {decodes} inputs, {accepted} accepted, {:?}",
        layers.len(),
        start.elapsed()
    );
}

#[test]
fn every_truncation_and_byte_change_of_every_real_metalayer_first_half() {
    sweep_metalayers(0);
}

#[test]
fn every_truncation_and_byte_change_of_every_real_metalayer_second_half() {
    sweep_metalayers(1);
}

#[test]
fn every_truncation_and_byte_change_of_every_real_dtype() {
    let start = std::time::Instant::now();
    let dtypes = dtypes();
    assert!(dtypes.len() >= 25, "only {} dtypes", dtypes.len());
    let (mut parses, mut accepted) = (0usize, 0usize);
    for s in &dtypes {
        let what = || format!("dtype {s:?}");
        assert!(
            no_panic(&what, || check_dtype(s, &what)),
            "{s:?} must parse"
        );
        for n in (0..s.len()).filter(|&n| s.is_char_boundary(n)) {
            let cut = &s[..n];
            let what = || format!("dtype {s:?} truncated to {cut:?}");
            no_panic(&what, || check_dtype(cut, &what));
            parses += 1;
        }
        let mut bytes = s.as_bytes().to_vec();
        for i in 0..bytes.len() {
            for v in 0..=255u8 {
                if v == s.as_bytes()[i] {
                    continue;
                }
                bytes[i] = v;
                // Only strings reach the parser: a metalayer's dtype is checked UTF-8.
                if let Ok(m) = std::str::from_utf8(&bytes) {
                    let what = || format!("dtype {s:?} with byte {i} set to {v:#04x}: {m:?}");
                    accepted += usize::from(no_panic(&what, || check_dtype(m, &what)));
                    parses += 1;
                }
            }
            bytes[i] = s.as_bytes()[i];
        }
    }
    assert!(accepted > 100, "only {accepted} changed dtypes accepted");
    eprintln!(
        "dtype sweep: {} dtypes, {parses} inputs, {accepted} accepted, {:?}",
        dtypes.len(),
        start.elapsed()
    );
}

#[test]
fn every_truncation_of_every_real_frame_header() {
    let start = std::time::Instant::now();
    let files = frame_files();
    assert!(files.len() >= 60, "only {} frame files", files.len());
    let mut parses = 0usize;
    for (name, bytes, header_len) in &files {
        let what = || format!("{name} unchanged");
        let header =
            check_frame(bytes, true, true, &what).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(header.info.header_len as usize, *header_len, "{name}");
        // Exactly the header is enough...
        check_frame(&bytes[..*header_len], true, true, &what).unwrap();
        // ...and any less is an error.
        for n in 0..*header_len {
            let what = || format!("{name} truncated to {n} bytes");
            let e =
                check_frame(&bytes[..n], true, true, &what).expect_err("a cut header was accepted");
            assert!(
                matches!(e.kind(), FrameErrorKind::Truncated { .. }),
                "{e}: {}",
                what()
            );
            parses += 1;
        }
    }
    eprintln!(
        "frame truncation sweep: {} headers, {parses} inputs, {:?}",
        files.len(),
        start.elapsed()
    );
}

/// The byte sweep of the headers, split in two halves so the test harness runs
/// them on two threads.
fn byte_changes_of_frame_headers(half: usize) {
    let start = std::time::Instant::now();
    let files = frame_files();
    let (mut parses, mut accepted) = (0usize, 0usize);
    for (name, bytes, header_len) in files.iter().skip(half).step_by(2) {
        let mut mutated = bytes.clone();
        for i in 0..*header_len {
            for v in 0..=255u8 {
                if v == bytes[i] {
                    continue;
                }
                mutated[i] = v;
                let what = || format!("{name} with byte {i} set to {v:#04x}");
                // read_header parses the fixed part on its own, then reads header_len
                // (bytes 11..15) more: only there can it differ from parse_header.
                let with_reader = i < frame::FIXED_HEADER_LEN;
                accepted += usize::from(check_frame(&mutated, false, with_reader, &what).is_ok());
                parses += 1;
            }
            mutated[i] = bytes[i];
        }
    }
    // Changes to flags, sizes and content bytes leave a valid header.
    assert!(
        accepted > 10_000,
        "only {accepted} changed headers accepted"
    );
    eprintln!(
        "frame byte sweep (half {half}): {parses} inputs, {accepted} accepted, {:?}",
        start.elapsed()
    );
}

#[test]
fn every_byte_change_of_every_real_frame_header_first_half() {
    byte_changes_of_frame_headers(0);
}

#[test]
fn every_byte_change_of_every_real_frame_header_second_half() {
    byte_changes_of_frame_headers(1);
}
