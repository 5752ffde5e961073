//! Decodes the bundled metalayers (real C-Blosc2 output, in metalayers.txt), prints
//! each as JSON, and re-encodes it to check that the bytes come back identical.
//!
//! Run with `cargo run --example metalayers`.

use b2nd_meta::Meta;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listing = include_str!("metalayers.txt");
    for line in listing
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (name, hex) = line.split_once(' ').ok_or("a line is `name hex`")?;
        let bytes = unhex(hex)?;
        let meta: Meta = b2nd_meta::from_slice(&bytes)?;
        let again = b2nd_meta::to_vec(&meta)?;
        let verdict = if again == bytes {
            "re-encodes identically"
        } else {
            "RE-ENCODING DIFFERS"
        };
        println!("{name} ({} bytes, {verdict})", bytes.len());
        println!("  {}", serde_json::to_string(&meta)?);
        if again != bytes {
            return Err(format!("{name}: re-encoding differs").into());
        }
    }
    Ok(())
}

/// The bytes of lowercase hex digits, two a byte.
fn unhex(hex: &str) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    if !hex.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".into());
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| Ok(u8::from_str_radix(&hex[i..i + 2], 16)?))
        .collect()
}
