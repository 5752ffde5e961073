//! Opens an array python-blosc2 wrote, prints its metadata and reads a slice of it, as
//! python's `blosc2.open(path)[2, 1:5, ::2]` does: `cargo run --example read_slice`.
//!
//! The file (in the repository and the published crate) is a 7x6x5 float32 array,
//! `blosc2.asarray(x, urlpath=..., chunks=(3, 4, 2), blocks=(2, 3, 2))` with `x` from
//! tests/data/arrays/generate.py; the first row checked below is what python-blosc2
//! 4.14.1 reads there (`blosc2.open(path)[2, 1:5, ::2][0]`).

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::AnyError;

fn main() -> Result<(), AnyError> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd"
    );
    let array = Array::open(path)?;
    println!(
        "shape {:?}, chunks {:?}, blocks {:?}, dtype {}, codec {}",
        array.shape(),
        array.chunkshape(),
        array.blockshape(),
        array.dtype(),
        array.header().info.codec.name()
    );
    assert_eq!(array.shape(), [7, 6, 5]);
    assert_eq!(array.dtype().to_string(), "<f4");

    // python's arr[2, 1:5, ::2]: a 4x3 array, in C order.
    let selection: Selection = "2, 1:5, ::2".parse()?;
    let shape = array.shape_of(&selection)?;
    let values: Vec<f32> = array.read(&selection)?;
    println!("arr[2, 1:5, ::2] has shape {shape:?}:");
    for row in values.chunks(3) {
        println!("  {row:?}");
    }
    assert_eq!(shape, [4, 3]);
    assert_eq!(values[..3], [-22.164495, -18.5936, -18.74804]);

    // The same cells picked out of the whole array.
    let all: Vec<f32> = array.read(&Selection::all())?;
    let at = |i: usize, j: usize, k: usize| all[(i * 6 + j) * 5 + k];
    let expected: Vec<f32> = (1..5)
        .flat_map(|j| [0, 2, 4].map(|k| at(2, j, k)))
        .collect();
    assert_eq!(
        values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        expected.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    println!("the slice matches the same cells of the whole array");
    Ok(())
}
