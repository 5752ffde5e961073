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
        let bytes = from_hex(hex)?;
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

/// The bytes a line's lowercase hex spells (the crate's own hex is the command line's).
fn from_hex(hex: &str) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    hex.as_bytes()
        .chunks(2)
        .map(|pair| Ok(u8::from_str_radix(std::str::from_utf8(pair)?, 16)?))
        .collect()
}
