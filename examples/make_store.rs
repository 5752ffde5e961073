//! Makes a DictStore bundle (`.b2z`) of two arrays, as python's
//! `s = blosc2.DictStore("data.b2z", mode="w"); s["/temps"] = ...; s["/dir/counts"] = ...`
//! would, replaces one node, removes another, then lists it and reads a node back:
//! `cargo run --example make_store`. The files go to the system's temporary directory
//! and are removed at the end.

use b2nd_meta::array::{write::NewArray, Array, Selection};
use b2nd_meta::container::{self, StoreWriter};
use b2nd_meta::AnyError;

fn main() -> Result<(), AnyError> {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-example-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    // Two arrays, written as .b2nd files first (a store takes them as they are).
    let temps = dir.join("temps.b2nd");
    let temps_values: Vec<f32> = (0..24).map(|i| 15.0 + i as f32 / 4.0).collect();
    NewArray::new(&[4, 6], "<f4")?.write_typed(&temps, &temps_values)?;
    let counts = dir.join("counts.b2nd");
    NewArray::new(&[10], "<i8")?.write_typed(&counts, &(0..10i64).collect::<Vec<_>>())?;

    // The store, made with its first node; then a second node, a replacement, a removal.
    let path = dir.join("data.b2z");
    let store = StoreWriter::create_with_node(&path, false, "/temps", &temps)?;
    store.put("/dir/counts", &counts)?;
    store.put("/dir/again", &counts)?;
    store.remove("/dir/again")?;

    // What python-blosc2's `blosc2.open("data.b2z")` lists, and a node's values.
    let listed = container::open(&path)?;
    let keys: Vec<&str> = listed.entries().iter().map(|e| e.key.as_str()).collect();
    println!("{}: {} with {keys:?}", path.display(), listed.kind.name());
    assert_eq!(keys, ["/dir/counts", "/temps"]);
    let node = Array::open_node(&listed, "/temps")?;
    let back: Vec<f32> = node.read(&Selection::all())?;
    println!(
        "/temps: shape {:?}, first row {:?}",
        node.shape(),
        &back[..6]
    );
    assert_eq!(back, temps_values);

    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
