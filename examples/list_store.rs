//! Lists a store or bundle with each node's shape and dtype, read from its header only:
//! `cargo run --example list_store -- [PATH [REPEAT]]`. Without PATH, the DictStore
//! bundle python-blosc2 4.14.1 wrote in tests/data (it ships with the crate), whose
//! nodes it checks. With REPEAT, lists it that many times and prints the best time to
//! stderr (benches/containers.py uses it, with `--release`).

use std::time::{Duration, Instant};

use b2nd_meta::container;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let bundled = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/arrays/blosc2-4.14.1/store_dict.b2z"
    );
    let path = args.next().unwrap_or_else(|| bundled.to_owned());
    let repeat: usize = args.next().map_or(Ok(1), |r| r.parse())?;
    let mut best = Duration::MAX;
    let mut lines = Vec::new();
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let store = container::open(&path)?;
        lines.clear();
        for node in store.nodes() {
            let line = match store.node_header(&node.key) {
                Ok(header) => match header.array_metalayer() {
                    Some(m) => match b2nd_meta::from_slice::<b2nd_meta::Meta>(&m.content) {
                        Ok(meta) => format!(
                            "{} {:?} {}",
                            node.key,
                            meta.shape(),
                            meta.dtype().unwrap_or("?")
                        ),
                        Err(e) => format!("{} {e}", node.key),
                    },
                    None => format!("{} (no array metalayer)", node.key),
                },
                Err(e) => format!("{} error: {e}", node.key),
            };
            lines.push(line);
        }
        best = best.min(start.elapsed());
    }
    for line in &lines {
        println!("{line}");
    }
    if path == bundled {
        // What python-blosc2 4.14.1 reads there: each key's `shape` and `dtype`.
        let python = [
            "/dir/ext [30, 20] <i4",
            "/dir/zeros [5, 6] <i2",
            "/emb [6, 5] <f8",
        ];
        assert_eq!(lines, python);
    }
    if repeat > 1 {
        eprintln!(
            "best of {repeat}: {:.3} ms for {} nodes",
            best.as_secs_f64() * 1e3,
            lines.len()
        );
    }
    Ok(())
}
