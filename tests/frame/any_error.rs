//! `b2nd_meta::AnyError`: `?` from every error of the crate in one function, each error's
//! offset and kind kept.

use b2nd_meta::chunk::ChunkErrorKind;
use b2nd_meta::dtype::{Dtype, DtypeErrorKind};
use b2nd_meta::frame::FrameErrorKind;
use b2nd_meta::{AnyError, ErrorKind, Meta, MetaB2ndV1};

/// Which step fails.
#[derive(Clone, Copy)]
enum Step {
    Frame,
    Meta,
    Dtype,
    Invalid,
    Chunk,
    // `b2nd_meta::hex` is the command line's (the `cli` feature).
    #[cfg(feature = "cli")]
    Hex,
    Container,
    Io,
}

fn run(fail: Step) -> Result<(), AnyError> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/corpus/ndim2_i4.b2nd"
    );
    let frame = b2nd_meta::frame::open(match fail {
        Step::Frame => concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
        _ => path,
    })?;
    let mut content = frame.header.array_metalayer().unwrap().content.clone();
    if let Step::Meta = fail {
        content[4] = 0x03; // a fixint where an int64 belongs
    }
    let meta: Meta = b2nd_meta::from_slice(&content)?;
    Dtype::parse(match fail {
        Step::Dtype => "<i3",
        _ => meta.dtype().unwrap(),
    })?;
    if let Step::Invalid = fail {
        MetaB2ndV1::new([3], [0], [1], "<i4").validate()?;
    }
    if let Step::Chunk = fail {
        b2nd_meta::chunk::decode(&[5, 1, 2, 1], &b2nd_meta::chunk::DecodeBudget::default())?;
    }
    #[cfg(feature = "cli")]
    if let Step::Hex = fail {
        b2nd_meta::hex::decode("97z0")?;
    }
    if let Step::Container = fail {
        b2nd_meta::container::open(b2nd_meta::frame::Source::bytes(
            b"neither a frame nor a zip".to_vec(),
        ))?;
    }
    if let Step::Io = fail {
        std::fs::read("/no/such/b2nd-meta/file")?;
    }
    Ok(())
}

#[test]
fn every_crate_error_converts_with_its_offset_and_kind() {
    run(Step::Io).unwrap_err();
    let frame = run(Step::Frame).unwrap_err();
    assert!(
        matches!(&frame, AnyError::Frame(e) if matches!(e.kind(), FrameErrorKind::BadMagic { .. }))
    );
    assert_eq!(frame.offset(), Some(2));
    assert!(frame.to_string().contains("not a Blosc2 frame"), "{frame}");

    let meta = run(Step::Meta).unwrap_err();
    assert!(
        matches!(&meta, AnyError::Meta(e) if matches!(e.kind(), ErrorKind::InvalidMarker { .. }))
    );
    assert_eq!(meta.offset(), Some(4));
    assert_eq!(
        meta.to_string(),
        "expected int64 (0xd3), found 0x03 (positive fixint) at byte 4"
    );

    let dtype = run(Step::Dtype).unwrap_err();
    assert!(
        matches!(&dtype, AnyError::Dtype(e) if matches!(e.kind(), DtypeErrorKind::Invalid { .. }))
    );
    assert_eq!(dtype.offset(), Some(2));

    let invalid = run(Step::Invalid).unwrap_err();
    assert!(matches!(&invalid, AnyError::Invalid(e) if !e.problems().is_empty()));
    assert_eq!(invalid.offset(), None);

    let chunk = run(Step::Chunk).unwrap_err();
    assert!(
        matches!(&chunk, AnyError::Chunk(e) if matches!(e.kind(), ChunkErrorKind::UnexpectedEnd { .. }))
    );
    assert_eq!(chunk.offset(), Some(4));

    #[cfg(feature = "cli")]
    {
        let hex = run(Step::Hex).unwrap_err();
        assert!(matches!(&hex, AnyError::Hex(_)));
        assert_eq!(hex.offset(), Some(2));
    }

    let container = run(Step::Container).unwrap_err();
    assert!(matches!(&container, AnyError::Container(e) if matches!(
        e.kind(),
        b2nd_meta::container::ContainerErrorKind::Frame(_)
    )));
    assert_eq!(container.offset(), Some(2));

    let io = run(Step::Io).unwrap_err();
    assert!(matches!(&io, AnyError::Io(e) if e.kind() == std::io::ErrorKind::NotFound));
    assert_eq!(io.offset(), None);

    // Boxed as any error, the message is the inner one's.
    let boxed: Box<dyn std::error::Error> = Box::new(run(Step::Meta).unwrap_err());
    assert!(boxed.to_string().ends_with(" at byte 4"));
}
