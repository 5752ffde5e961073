//! Listing stores and bundles: open, list every entry and read each node's metadata
//! (header and trailer), never the data. On the committed python-blosc2 fixtures (1,000
//! embedded nodes in a TreeStore `.b2z`, a DictStore `.b2z`), and on a big bundle when
//! `B2ND_BUNDLE` names one (benches/containers.py writes a 1,000-node `.b2z` of 1 MiB
//! arrays with python-blosc2 and times python-blosc2 on it).
//!
//! Run with `cargo bench --bench containers --all-features`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use b2nd_meta::container;
use criterion::{criterion_group, criterion_main, Criterion};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/containers/blosc2-4.14.1")
        .join(name)
}

/// Open, list, and read every node's header (shape, dtype: what python reads).
fn headers(path: &Path) -> usize {
    let c = container::open(path).unwrap();
    let mut n = 0;
    for node in c.nodes() {
        let header = c.node_header(&node.key).unwrap();
        n += black_box(header.array_metalayer()).is_some() as usize;
    }
    n
}

/// Open, list, and read every entry's metadata; the number of entries.
fn list(path: &Path) -> usize {
    let c = container::open(path).unwrap();
    for e in c.entries() {
        black_box(c.entry_info(e).unwrap());
    }
    c.entries().len()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("list");
    g.measurement_time(Duration::from_secs(5));
    for name in ["tree_many.b2z", "embed_many.b2e", "dict.b2z", "tree.b2z"] {
        let path = fixture(name);
        g.bench_function(name, |b| b.iter(|| list(&path)));
    }
    if let Some(big) = std::env::var_os("B2ND_BUNDLE") {
        let path = PathBuf::from(big);
        g.sample_size(10);
        g.bench_function("B2ND_BUNDLE", |b| b.iter(|| list(&path)));
        g.bench_function("B2ND_BUNDLE headers", |b| b.iter(|| headers(&path)));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
