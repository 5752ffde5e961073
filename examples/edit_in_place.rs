//! Changes an array in place as python-blosc2 does: `arr[sel] = values`, `arr.resize`,
//! then an append along axis 0, each one crash-consistent commit of the chunks it
//! touches: `cargo run --example edit_in_place`. It edits a copy (in the system's
//! temporary directory, removed at the end) of a 29-element int32 array python-blosc2
//! 4.14.1 wrote (chunks of 8, blocks of 3).

use b2nd_meta::array::{Array, Selection};
use b2nd_meta::AnyError;

fn main() -> Result<(), AnyError> {
    let original = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd"
    );
    let path = std::env::temp_dir().join(format!(
        "b2nd-meta-example-edit-{}.b2nd",
        std::process::id()
    ));
    std::fs::copy(original, &path)?;

    let mut array = Array::open_rw(&path)?;
    let before: Vec<i32> = array.array().read(&Selection::all())?;
    println!(
        "before: shape {:?}, arr[:6] = {:?}",
        array.array().shape(),
        &before[..6]
    );

    // arr[2:5] = [-1, -2, -3]; arr[::10] = 7 (one value, broadcast).
    array.write(&"2:5".parse()?, &[-1i32, -2, -3])?;
    array.write(&"::10".parse()?, &[7i32])?;
    let after: Vec<i32> = array.array().read(&"0:6".parse()?)?;
    println!("after two writes: arr[:6] = {after:?}");
    assert_eq!(after, [7, before[1], -1, -2, -3, before[5]]);

    // arr.resize((n + 2,)): the new cells read as zeros.
    let n = array.array().shape()[0];
    array.resize(&[n + 2])?;
    let tail: Vec<i32> = array.array().read(&"-2:".parse()?)?;
    println!(
        "after resize to {:?}: arr[-2:] = {tail:?}",
        array.array().shape()
    );
    assert_eq!(tail, [0, 0]);

    // Append two values along axis 0.
    array.append(0, &[40i32, 41])?;
    let tail: Vec<i32> = array.array().read(&"-4:".parse()?)?;
    println!(
        "after append: shape {:?}, arr[-4:] = {tail:?}",
        array.array().shape()
    );
    assert_eq!(array.array().shape(), [n + 4]);
    assert_eq!(tail, [0, 0, 40, 41]);

    // Opened again from the file: the same values.
    let again: Vec<i32> = Array::open(&path)?.read(&Selection::all())?;
    assert_eq!(again, array.array().read::<i32>(&Selection::all())?);
    println!("reopened: {} values, as written", again.len());

    std::fs::remove_file(&path)?;
    Ok(())
}
