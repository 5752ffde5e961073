//! What the interleaved tables (`compress_table.rs`, `write_table.rs`) share: their
//! command line and their medians.

/// The words a case's name must contain (none: every case), or `None` when cargo only
/// lists or tests the benches (`--list`, `--test`): nothing to run then.
pub fn words() -> Option<Vec<String>> {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return None;
    }
    Some(
        std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect(),
    )
}

/// Whether the case `full` is one of the `words`' (every case when there are none).
pub fn wanted(words: &[String], full: &str) -> bool {
    words.is_empty() || words.iter().any(|w| full.contains(w.as_str()))
}

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Rounds of one call of `c` and one of `ours` taking turns (which goes first
/// alternates), so that both see the same machine, after one untimed call of each:
/// `rounds` of them, or fewer (at least 5) once `budget` is spent; each round's two
/// results.
pub fn alternate<A, B>(
    rounds: usize,
    budget: std::time::Duration,
    mut c: impl FnMut() -> A,
    mut ours: impl FnMut() -> B,
) -> Vec<(A, B)> {
    c();
    ours();
    let started = std::time::Instant::now();
    let mut out = Vec::new();
    for round in 0..rounds {
        out.push(if round % 2 == 0 {
            let a = c();
            (a, ours())
        } else {
            let b = ours();
            (c(), b)
        });
        if round >= 4 && started.elapsed() > budget {
            break;
        }
    }
    out
}
