#!/usr/bin/env python3
"""Prints BENCHMARKS.md's "Decoding chunks" table from criterion's estimates of one run.

Run `cargo bench --bench chunk --all-features` first; this reads
target/criterion/chunk/<decoder>/<case>/new/estimates.json (median times) and prints,
per case and size, the throughput of C-Blosc2 3.3.5, C-Blosc2 2.15.3 and ours
(`decode_into`, `decode`) with ours/C-3.3.5 (lower is faster). `--group lz4_stage`
prints that group instead; `--check` exits 1 when a case misses the goal (1.0x for
`decode_into`, 1.1x for `decode`); `--readme` prints BENCHMARKS.md's compact table (one row
per case, one column per size).
"""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"
CODECS = ["blosclz", "lz4", "lz4hc", "zstd"]
FILTERS = ["shuffle", "bitshuffle"]
DATA = ["f64ramp", "i32counter"]
SIZES = [65536, 1048576, 4194304]
GOAL_INTO, GOAL_DECODE = 1.0, 1.1


def median(group, decoder, case):
    # criterion writes the id's slashes as underscores.
    path = root.joinpath(group, decoder, case.replace("/", "_"), "new", "estimates.json")
    try:
        return json.loads(path.read_text())["median"]["point_estimate"]
    except FileNotFoundError:
        return None


def gibs(size, ns):
    return size / ns * 1e9 / 2**30


def readme(group):
    labels = {65536: "64 KiB", 1048576: "1 MiB", 4194304: "4 MiB"}
    print("| codec | filter | data | " + " | ".join(
        f"{labels[s]}: C 3.3.5 / `decode_into` GiB/s, ours/C (`decode`) [ours/C 2.15.3]"
        if s == SIZES[0] else labels[s] for s in SIZES) + " |")
    print("|---" * (3 + len(SIZES)) + "|")
    for data in DATA:
        for codec in CODECS:
            for filt in FILTERS:
                cells = []
                for size in SIZES:
                    case = f"{codec}/{filt}/{data}/{size}"
                    t = {d: median(group, d, case) for d in ["c335", "c2153", "ours_into", "ours"]}
                    if None in t.values():
                        cells.append("n/a")
                        continue
                    cells.append(f"{gibs(size, t['c335']):.2f} / {gibs(size, t['ours_into']):.2f}, "
                                 f"**{t['ours_into'] / t['c335']:.2f}x** ({t['ours'] / t['c335']:.2f}x) "
                                 f"[{t['ours_into'] / t['c2153']:.2f}x]")
                print(f"| {codec} | {filt} | {data} | " + " | ".join(cells) + " |")


def main():
    args = sys.argv[1:]
    group = args[args.index("--group") + 1] if "--group" in args else "chunk"
    if "--readme" in args:
        return readme(group)
    missed = []
    print("| codec | filter | data | size | C 3.3.5 GiB/s | C 2.15.3 | ours `decode_into`"
          " | ours `decode` | into/C3.3.5 | decode/C3.3.5 | into/C2.15.3 |")
    print("|---" * 11 + "|")
    for data in DATA:
        for codec in CODECS:
            for filt in FILTERS:
                for size in SIZES:
                    case = f"{codec}/{filt}/{data}/{size}"
                    t = {d: median(group, d, case) for d in ["c335", "c2153", "ours_into", "ours"]}
                    if t["c335"] is None or t["ours_into"] is None:
                        continue
                    into, dec = t["ours_into"] / t["c335"], t["ours"] / t["c335"]
                    old = t["ours_into"] / t["c2153"]
                    if into > GOAL_INTO or dec > GOAL_DECODE:
                        missed.append(case)
                    label = {65536: "64 KiB", 1048576: "1 MiB", 4194304: "4 MiB"}[size]
                    cells = [f"{gibs(size, t[d]):.2f}" for d in ["c335", "c2153", "ours_into", "ours"]]
                    print(f"| {codec} | {filt} | {data} | {label} | " + " | ".join(cells)
                          + f" | **{into:.2f}x** | {dec:.2f}x | {old:.2f}x |")
    if missed:
        print(f"\nmissing the goal: {', '.join(missed)}")
        if "--check" in args:
            sys.exit(1)


if __name__ == "__main__":
    main()
