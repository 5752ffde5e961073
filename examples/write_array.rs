//! Writes a new 2-D array with a user metalayer and a vlmeta value, as python's
//! `blosc2.asarray(x, urlpath=..., chunks=..., meta={"units": "m/s"})` then
//! `arr.vlmeta["note"] = ...` would, reads it back and prints what it holds:
//! `cargo run --example write_array`. The file goes to the system's temporary directory
//! and is removed at the end.

use b2nd_meta::array::{write::NewArray, Array, Selection};
use b2nd_meta::blosc::Codec;
use b2nd_meta::{frame, AnyError};

fn main() -> Result<(), AnyError> {
    let path = std::env::temp_dir().join(format!(
        "b2nd-meta-example-write-{}.b2nd",
        std::process::id()
    ));
    // 100x50 float64 values, row i holding i + j/100.
    let values: Vec<f64> = (0..100 * 50)
        .map(|n| (n / 50) as f64 + (n % 50) as f64 / 100.0)
        .collect();
    NewArray::new(&[100, 50], "<f8")?
        .chunks(&[32, 50]) // python's defaults for this machine when not given
        .blocks(&[8, 50])
        .codec(Codec::Zstd, 5)
        .meta("units", &"m/s")?
        .vlmeta("note", &"written by b2nd-meta")?
        .overwrite(true)
        .write_typed(&path, &values)?;
    println!("wrote {}", path.display());

    // Read it back: metadata, values, the metalayer and the vlmeta value.
    let array = Array::open(&path)?;
    println!(
        "shape {:?}, chunks {:?}, blocks {:?}, dtype {}, codec {}",
        array.shape(),
        array.chunkshape(),
        array.blockshape(),
        array.dtype(),
        array.header().info.codec.name()
    );
    assert_eq!(array.shape(), [100, 50]);
    assert_eq!(array.chunkshape(), [32, 50]);
    assert_eq!(array.read::<f64>(&Selection::all())?, values);

    let corner: Vec<f64> = array.read(&"-2:, -3:".parse()?)?;
    println!("arr[-2:, -3:] = {corner:?}");
    assert_eq!(corner, [98.47, 98.48, 98.49, 99.47, 99.48, 99.49]);

    let file = frame::open(&path)?;
    let units: String = file.header.user_meta("units")?;
    let note: String = file.vlmeta("note")?;
    println!("meta units = {units:?}, vlmeta note = {note:?}");
    assert_eq!(
        (units.as_str(), note.as_str()),
        ("m/s", "written by b2nd-meta")
    );

    std::fs::remove_file(&path)?;
    Ok(())
}
