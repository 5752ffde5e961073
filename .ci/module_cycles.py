#!/usr/bin/env python3
"""Fails when a module of src/ imports a module that imports it (directly or round a
longer loop). Edges are the `crate::`, `super::` and `self::` paths a module names, in
`use` lines or inline; a module's own submodules count as part of it. A name taken
through a module's re-export (`use crate::frame::FrameError`, which frame/mod.rs takes
from `error`) is followed to the module that defines it. lib.rs (re-exports only) and
the binary are left out. Usage: python3 .ci/module_cycles.py [src] [-v]"""
import pathlib
import re
import sys

args = [a for a in sys.argv[1:] if a != "-v"]
src = pathlib.Path(args[0] if args else "src")
verbose = "-v" in sys.argv


def module_of(path):
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "mod":
        parts.pop()
    return parts


mods = {}
for f in src.rglob("*.rs"):
    rel = f.relative_to(src).parts
    if f.name == "lib.rs" or "bin" in rel:
        continue
    mods["::".join(module_of(f))] = f


def resolve(segs, depth=0):
    for i in range(len(segs), 0, -1):
        cand = "::".join(segs[:i])
        if cand in mods:
            # A name the module re-exports: the module that defines it.
            if i < len(segs) and (cand, segs[i]) in reexports and depth < 8:
                return resolve(reexports[(cand, segs[i])], depth + 1) or cand
            return cand
    return None


def absolute(module, path):
    """`path` as named inside `module`, made absolute (a list of segments)."""
    segs = path.split("::")
    if segs[0] == "crate":
        return segs[1:]
    base = module.split("::") if module else []
    if segs[0] == "self":
        return base + segs[1:]
    while segs and segs[0] == "super":
        base = base[:-1]
        segs = segs[1:]
    return base + segs


def expand(prefix, body):
    """`a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e (enough for our use lines)."""
    out, depth, item = [], 0, ""
    for ch in body + ",":
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            item = item.strip()
            if item:
                m = re.match(r"([\w:]*?)::\{(.*)\}$", item, re.S)
                if m:
                    out += expand(prefix + "::" + m.group(1), m.group(2))
                else:
                    out.append(prefix + "::" + item.split(" as ")[0].strip())
            item = ""
        else:
            item += ch
    return out


# (module, name) -> the absolute path a `pub use` / `pub(crate) use` line takes it from.
reexports = {}
for m, f in mods.items():
    text = re.sub(r"//.*", "", f.read_text())
    for body in re.findall(r"pub(?:\([\w: ]+\))?\s+use\s+([^;]+);", text):
        body = re.sub(r"\s+", "", body)
        m2 = re.match(r"(.*?)::\{(.*)\}$", body)
        items = expand(m2.group(1), m2.group(2)) if m2 else [body]
        for item in items:
            segs = item.split("::")
            if segs[0] not in ("crate", "super", "self") and "::".join(
                (m.split("::") if m else []) + segs[:1]
            ) not in mods:
                continue
            path = absolute(m, item) if segs[0] in ("crate", "super", "self") else (
                (m.split("::") if m else []) + segs
            )
            name = segs[-1]
            if name not in ("*", "self"):
                reexports[(m, name)] = path

graph = {m: set() for m in mods}
for m, f in mods.items():
    text = re.sub(r"//.*", "", f.read_text())
    paths = re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", text)
    for prefix, body in re.findall(r"use ((?:crate|super|self)(?:::\w+)*)::\{(.*?)\};", text, re.S):
        paths += expand(prefix, body)
    for p in paths:
        t = resolve(absolute(m, p))
        if t and t != m and not t.startswith(m + "::") and not m.startswith(t + "::"):
            graph[m].add(t)

index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]


def strong(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in graph[v]:
        if w not in index:
            strong(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))


sys.setrecursionlimit(10000)
for v in sorted(graph):
    if v not in index:
        strong(v)
if verbose:
    for m in sorted(graph):
        print(f"{m} -> {', '.join(sorted(graph[m])) or '-'}")
if sccs:
    print("module cycles:", "; ".join(" <-> ".join(c) for c in sccs))
    sys.exit(1)
print(f"no module cycles among {len(mods)} modules")
