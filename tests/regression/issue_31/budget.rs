//! Vlmeta values past the decode budget: `show` decoded and kept every value (64 MiB
//! bins: 2.17 GB for 32 of them, an abort at 64) and expanded every special chunk
//! (512 of 64 MiB: two minutes). Now one budget (128 MiB by default, `--budget`) is
//! spent by every decode of the command; values past it are shown raw with why.

use std::time::Duration;

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::frame::{self, FrameErrorKind};
use b2nd_meta::value::Value;

use crate::common::data_path;

const BINS: &str = "regression/issue31/vlmeta_64_bins.b2nd";
const SPECIAL: &str = "regression/issue31/vlmeta_512_special.b2nd";
const MIB: u64 = 1 << 20;

/// How many `needle`s `hay` holds.
fn count(hay: &[u8], needle: &[u8]) -> usize {
    let mut n = 0;
    let mut rest = hay;
    while let Some(at) = rest.windows(needle.len()).position(|w| w == needle) {
        n += 1;
        rest = &rest[at + needle.len()..];
    }
    n
}

#[test]
fn vlmeta_values_share_one_budget_and_those_past_it_are_refused_unread() {
    let trailer = frame::open(data_path(BINS)).unwrap().trailer().unwrap();
    assert_eq!(trailer.vlmetalayers.len(), 64);
    let budget = DecodeBudget::default();
    let results: Vec<_> = trailer
        .vlmetalayers
        .iter()
        .map(|vl| vl.value_within(&budget))
        .collect();
    // python's value, 64 MiB - 5 zero bytes: the first; its 64 MiB and the 32 bytes of
    // the value spent, what is left holds no other.
    assert_eq!(
        results[0].as_ref().unwrap(),
        &Value::Bin(vec![0; (64 << 20) - 5])
    );
    assert_eq!(budget.spent(), 64 * MIB + 32);
    for r in &results[1..] {
        let e = r.as_ref().unwrap_err();
        assert!(e.kind().is_over_budget(), "{e}");
        assert!(
            matches!(e.kind(), FrameErrorKind::VlmetaChunk { .. }),
            "{e}"
        );
    }
    assert_eq!(budget.spent(), 64 * MIB + 32, "a refusal spends nothing");
    // A larger budget decodes more; the values' own decode is unchanged.
    let budget = DecodeBudget::new(3 * 64 * MIB + 96);
    let decoded = trailer
        .vlmetalayers
        .iter()
        .filter(|vl| vl.value_within(&budget).is_ok())
        .count();
    assert_eq!(decoded, 3);
}

#[cfg(feature = "cli")]
#[test]
fn show_prints_the_values_the_budget_holds_and_the_others_raw() {
    use super::run::b2nd_meta;
    let path = data_path(BINS);
    // What `show` decodes, in seconds: one value, printed short.
    let run = b2nd_meta(&["show", "--human", path.to_str().unwrap()], &[]);
    run.within_bounds("64 vlmeta bins of 64 MiB, show --human", 0);
    let text = run.stdout();
    assert!(text.contains(r#"vlmeta v00: {"$bin":"000000"#), "{text}");
    let refused = "(show --budget BYTES decodes more)";
    assert_eq!(text.lines().filter(|l| l.ends_with(refused)).count(), 63);

    // And in JSON, where the one value is printed whole: 128 MiB of hex (minutes in
    // a debug build, where serde_json escapes each byte slowly; 2 s in release).
    let run = b2nd_meta(&["show".as_ref(), path.as_os_str()], &[]);
    run.within(
        "64 vlmeta bins of 64 MiB, show",
        0,
        Duration::from_secs(300),
    );
    let out = &run.stdout;
    // One value as hex (128 MiB of it), 63 raw chunks with why.
    assert!(
        out.len() > 128 << 20 && out.len() < 130 << 20,
        "{}",
        out.len()
    );
    assert!(count(&out[..1 << 20], br#""v00":{"$bin":"000000"#) == 1);
    assert_eq!(count(&out[128 << 20..], refused.as_bytes()), 63);
    assert_eq!(count(&out[128 << 20..], br#""v63":{"raw_hex":"#), 1);

    let run = b2nd_meta(
        &["show", "--human", "--budget", "0", path.to_str().unwrap()],
        &[],
    );
    run.within_bounds("64 vlmeta bins of 64 MiB, show --human --budget 0", 0);
    let text = run.stdout();
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("of a decode budget of 0)"))
            .count(),
        64,
        "{text}"
    );
    assert!(run.time < Duration::from_secs(5), "{:?}", run.time);
}

#[cfg(feature = "cli")]
#[test]
fn special_chunks_of_64_mib_each_cost_the_budget_not_their_claims() {
    use super::run::b2nd_meta;
    let path = data_path(SPECIAL);
    let run = b2nd_meta(&["show".as_ref(), path.as_os_str()], &[]);
    run.within_bounds("512 special-value vlmeta chunks of 64 MiB, show", 0);
    assert!(run.time < Duration::from_secs(10), "{:?}", run.time);
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let vlmeta = json["vlmeta"].as_object().unwrap();
    assert_eq!(vlmeta.len(), 512);
    let errors: Vec<&str> = vlmeta
        .values()
        .map(|v| v["error"].as_str().unwrap())
        .collect();
    // 64 MiB of zeros is 0 and extra bytes, which python refuses too; the second is
    // decoded, its values past what is left; the 510 others are not decoded at all.
    assert!(
        errors[0].contains("expected the end of the input"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("values in all (what the decode budget holds)"),
        "{}",
        errors[1]
    );
    let unread =
        "more decoded bytes (what is left of a decode budget of 134217728), found 67108864";
    assert!(
        errors[2..].iter().all(|e| e.contains(unread)),
        "{:?}",
        &errors[..3]
    );
}
