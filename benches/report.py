#!/usr/bin/env python3
"""Prints the criterion times behind BENCHMARKS.md's first section, from criterion's estimates.

Run `cargo bench --features repo-tests --bench metalayer` first; this reads target/criterion/*/*/*/new/estimates.json
(median times) and prints each measurement as a ratio to C-Blosc2 in the same run.
"""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"


def median(*parts):
    path = root.joinpath(*parts, "new", "estimates.json")
    try:
        return json.loads(path.read_text())["median"]["point_estimate"]
    except FileNotFoundError:
        return None


def cell(ns, c_ns):
    if ns is None:
        return "n/a"
    if c_ns is None:
        return f"{ns:.0f} ns"
    return f"{ns:.0f} ns ({ns / c_ns:.2f}x)"


def main():
    if not root.exists():
        sys.exit("no criterion results: run `cargo bench --features repo-tests --bench metalayer` first")
    ndims = [0, 1, 3, 8, 16]
    print("| ndim | C decode | `from_slice::<Meta>` | `from_slice::<MetaB2ndV1>` | owned via view |"
          " MetaRef view | rmp-serde decode | C encode | encode_into | to_slice | to_vec |"
          " rmp-serde encode |")
    print("|---" * 12 + "|")
    for n in ndims:
        n = str(n)
        cd, ce = median("decode", "c", n), median("encode", "c", n)
        row = [n, cell(cd, None)]
        row += [cell(median("decode", b, n), cd) for b in ("meta", "owned", "owned_via_view", "view", "rmp_serde")]
        row += [cell(ce, None)]
        row += [cell(median("encode", b, n), ce) for b in ("encode_into", "to_slice", "to_vec", "rmp_serde")]
        print("| " + " | ".join(row) + " |")
    small, large = median("frame", "1KB"), median("frame", "1GB")
    if small and large:
        print(f"\nReading the metalayers of a 1 GB frame: {large / 1000:.1f} us, "
              f"of a 1 KB one: {small / 1000:.1f} us ({large / small:.2f}x).")


if __name__ == "__main__":
    main()
