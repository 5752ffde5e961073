//! Any string parses to a dtype or an error, never a panic; an accepted dtype prints to
//! a string that parses back to an equal dtype and prints the same again.
#![no_main]

use b2nd_meta::dtype::Dtype;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    match Dtype::parse(s) {
        Ok(dt) => {
            let printed = dt.to_string();
            let again = Dtype::parse(&printed)
                .unwrap_or_else(|e| panic!("{printed:?} (from {s:?}) does not parse: {e}"));
            assert_eq!(again, dt, "{s:?} printed as {printed:?}");
            assert_eq!(again.to_string(), printed);
        }
        Err(e) => assert!(e.offset().is_some_and(|o| o <= s.len() as u64)),
    }
});
