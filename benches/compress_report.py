#!/usr/bin/env python3
"""Runs the compress_table bench binary several times and prints the median of its runs.

Single runs of one case move 5-10% on a shared machine, so cases near 1.00x change sides
between runs; the median of a few runs does not. Build the binary first:

    cargo bench --all-features --bench compress_table --no-run
    python3 benches/compress_report.py [--runs 3] [--rounds 21] [--readme] [WORDS...]

WORDS filter case names as the bench's own arguments do. Prints BENCHMARKS.md's table
(each case's median ours/C time, the runs' ratios, C's time and the size ratio); with
`--readme`, the grid README shows (one row per codec and pipeline, one column per data).

A change against another build (say main's, built in another worktree): `--ab OTHER`
runs OTHER's binary (a path to the binary, or to a checkout whose target/ holds one) and
this one in turn, run by run, and prints each case's median ours/C time of both and
their ratio, so that both builds see the same minutes of a shared machine.
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys


def binary(checkout=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")):
    if os.path.isfile(checkout):
        return checkout
    root = os.path.join(checkout, "target", "release", "deps")
    found = [p for p in glob.glob(os.path.join(root, "compress_table-*")) if os.access(p, os.X_OK) and not p.endswith(".d")]
    if not found:
        sys.exit("no compress_table binary: run `cargo bench --all-features --bench compress_table --no-run` first")
    return os.path.realpath(max(found, key=os.path.getmtime))


def run(path, rounds, words):
    env = dict(os.environ, ROUNDS=str(rounds))
    out = subprocess.run([path, "--bench", *words], env=env, check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 8 or not cells[2].endswith("x") or cells[0] == "case":
            continue
        rows[(cells[0], cells[1])] = (float(cells[2][:-1]), float(cells[3].split()[0]), float(cells[4]))
    return rows


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--runs", type=int, default=3)
    args.add_argument("--rounds", type=int, default=21)
    args.add_argument("--readme", action="store_true")
    args.add_argument("--ab", metavar="OTHER", help="another build's binary or checkout, run in turn with this one")
    args.add_argument("words", nargs="*")
    a = args.parse_args()
    path = binary()
    if a.ab:
        return ab(binary(a.ab), path, a)
    runs = [run(path, a.rounds, a.words) for _ in range(a.runs)]
    cases = list(runs[0])
    median = {k: statistics.median(r[k][0] for r in runs) for k in cases}
    slower = sum(1 for k in cases if median[k] > 1.0)
    print("| case | data | ours/C time | the runs | C time | ours/C size |")
    print("|---|---|---|---|---|---|")
    for k in cases:
        each = " ".join(f"{r[k][0]:.2f}" for r in runs)
        c_ms = statistics.median(r[k][1] for r in runs)
        print(f"| {k[0]} | {k[1]} | {median[k]:.2f}x | {each} | {c_ms:.2f} ms | {runs[0][k][2]:.3f} |")
    print(f"\nslower than C: {slower} of {len(cases)}; sizes {min(runs[0][k][2] for k in cases):.3f}-"
          f"{max(runs[0][k][2] for k in cases):.3f} of C's")
    if a.readme:
        data = list(dict.fromkeys(k[1] for k in cases))
        names = list(dict.fromkeys(k[0] for k in cases))
        print("\n| codec, filters | " + " | ".join(data) + " |")
        print("|---|" + "---|" * len(data))
        for n in names:
            cells = []
            for d in data:
                k = (n, d)
                cells.append("" if k not in median else f"{median[k]:.2f}x ({runs[0][k][2]:.2f})")
            print(f"| {n} | " + " | ".join(cells) + " |")


def ab(before, after, a):
    """Both builds in turn (which goes first alternates), each case's medians."""
    runs = {before: [], after: []}
    for i in range(a.runs):
        for path in (before, after) if i % 2 == 0 else (after, before):
            runs[path].append(run(path, a.rounds, a.words))
    print(f"before: {before}\nafter: {after}\n")
    print("| case | data | before: ours/C time | after: ours/C time | after/before | before runs | after runs |")
    print("|---|---|---|---|---|---|---|")
    for k in runs[after][0]:
        b = statistics.median(r[k][0] for r in runs[before])
        n = statistics.median(r[k][0] for r in runs[after])
        each = [" ".join(f"{r[k][0]:.2f}" for r in runs[p]) for p in (before, after)]
        print(f"| {k[0]} | {k[1]} | {b:.3f}x | {n:.3f}x | {n / b:.3f} | {each[0]} | {each[1]} |")


if __name__ == "__main__":
    main()
