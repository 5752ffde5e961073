"""Requests, bytes and time of a remote read: b2nd-meta (feature `remote`) against
python-blosc2 4.14.1's own `blosc2.open(url)` (fsspec over HTTP), both reading the same
files from one range-serving HTTP server on 127.0.0.1 that counts what it sends.

What: a 64 MB float32 array (256 x 256 x 256, python-blosc2's default chunks and
blocks, zstd) as a .b2nd, and the same array as node /g/a of a TreeStore .b2z; read: a
plane [128], a small box [100:103, 100:105, 100:105], and the box of the store node.
Each read from a fresh open (what a command costs; ours starts the command each time),
ROUNDS times (9), the two sides taking turns: the median time; the values are checked
equal.

How: python-blosc2 4.14.1 with fsspec and aiohttp in a venv of its own, then
    python3 -m venv ~/.cache/b2nd-meta/venvs/blosc2-4.14.1-fsspec
    ~/.cache/b2nd-meta/venvs/blosc2-4.14.1-fsspec/bin/pip install 'blosc2==4.14.1' 'fsspec[http]'
    cargo build --release --features cli,remote
    ~/.cache/b2nd-meta/venvs/blosc2-4.14.1-fsspec/bin/python benches/remote/compare.py target/release/b2nd-meta
Prints a Markdown table (README's "Reading over the network"); SHOW_RANGES=1 prints
each request on stderr.
"""

import http.server
import io
import os
import subprocess
import sys
import tempfile
import threading
import time

import blosc2
import numpy as np

COUNTS = {"requests": 0, "bytes": 0}
LOCK = threading.Lock()


class RangeHandler(http.server.BaseHTTPRequestHandler):
    """GET with one range (`bytes=A-B`, `A-`, `-N`) and HEAD, counted."""

    root = "."
    # Each answer's headers and body go out at once, as a real server sends them
    # (TCP_NODELAY): with Nagle's algorithm the body waited for the client's delayed
    # ACK of the headers, up to 40 ms a request on Linux, whoever the client.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    # The files' bytes, read once: a request costs the server its answer only, not a
    # read of the whole file (which the clients would wait for).
    files = {}

    def _file(self):
        path = os.path.join(self.root, self.path.lstrip("/"))
        if path not in self.files:
            if not os.path.isfile(path):
                self.send_error(404)
                return None
            with open(path, "rb") as f:
                self.files[path] = f.read()
        return self.files[path]

    def do_HEAD(self):
        with LOCK:
            COUNTS["requests"] += 1
        if os.environ.get("SHOW_RANGES"):
            print(f"  HEAD {self.path}", file=sys.stderr)
        data = self._file()
        if data is None:
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", f'"{len(data)}"')
        self.end_headers()

    def do_GET(self):
        with LOCK:
            COUNTS["requests"] += 1
        if os.environ.get("SHOW_RANGES"):
            print(f"  GET {self.path} {self.headers.get('Range', '')}", file=sys.stderr)
        data = self._file()
        if data is None:
            return
        total = len(data)
        spec = self.headers.get("Range", "")
        if spec.startswith("bytes="):
            a, _, b = spec[6:].partition("-")
            if a == "":
                start, end = max(0, total - int(b)), total - 1
            else:
                start, end = int(a), min(int(b) if b else total - 1, total - 1)
            body = data[start : end + 1]
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{total}")
        else:
            body = data
            self.send_response(200)
        # Counted before it is sent: a client may have what it asked and go on before
        # this thread would count it after.
        with LOCK:
            COUNTS["bytes"] += len(body)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", f'"{total}"')
        self.end_headers()
        self.wfile.write(body)


ROUNDS = int(os.environ.get("ROUNDS", "9"))


def measured(read):
    """The values of one read, its requests and bytes, and its time."""
    COUNTS.update(requests=0, bytes=0)
    start = time.perf_counter()
    values = read()
    return values, COUNTS["requests"], COUNTS["bytes"], time.perf_counter() - start


def median(times):
    return sorted(times)[len(times) // 2]


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="b2nd-meta-remote-")
    shape = (256, 256, 256)
    values = np.sin(np.arange(np.prod(shape), dtype=np.float32) / 1000).reshape(shape)
    blosc2.asarray(values, urlpath=os.path.join(work, "a.b2nd"), mode="w")
    with blosc2.TreeStore(os.path.join(work, "store.b2z"), mode="w") as store:
        store["/g/a"] = values
    RangeHandler.root = work
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), RangeHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    cases = [
        ("plane [128]", "a.b2nd", None, (128,), "128"),
        ("box [100:103, 100:105, 100:105]", "a.b2nd", None,
         (slice(100, 103), slice(100, 105), slice(100, 105)), "100:103, 100:105, 100:105"),
        ("store node /g/a, same box", "store.b2z", "/g/a",
         (slice(100, 103), slice(100, 105), slice(100, 105)), "100:103, 100:105, 100:105"),
    ]
    size = {n: os.path.getsize(os.path.join(work, n)) for n in ("a.b2nd", "store.b2z")}
    print(f"| read (file of {size['a.b2nd']:,} / {size['store.b2z']:,} bytes) | python-blosc2 4.14.1 requests | bytes | ms | b2nd-meta requests | bytes | ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, file, key, index, spec in cases:
        url = f"{base}/{file}"

        def python_read():
            opened = blosc2.open(url)
            return np.asarray((opened[key] if key else opened)[index])

        def ours():
            # The .npy on stdout, into memory as python's values are (a file would add
            # its durable write: staging, fsync, rename).
            args = [binary, "export", url, "--slice", spec, "-o", "-"]
            if key:
                args += ["--key", key]
            out = subprocess.run(args, check=True, stdout=subprocess.PIPE).stdout
            return np.load(io.BytesIO(out))

        if os.environ.get("SHOW_RANGES"):
            print(name, file=sys.stderr)
        p_times, o_times = [], []
        for _ in range(ROUNDS):
            try:
                want, p_req, p_bytes, p_time = measured(python_read)
                p_times.append(p_time)
            except Exception as e:  # noqa: BLE001 - said in the table
                want, p_req, p_bytes = None, "-", "-"
                print(f"python-blosc2 could not read {name}: {e}", file=sys.stderr)
            got, o_req, o_bytes, o_time = measured(ours)
            o_times.append(o_time)
        p_time, o_time = median(p_times or [0]), median(o_times)
        assert np.array_equal(got, values[index]), name
        if want is not None:
            assert np.array_equal(want, got), name
        p_fmt = f"{p_bytes:,}" if isinstance(p_bytes, int) else p_bytes
        print(f"| {name} | {p_req} | {p_fmt} | {p_time * 1000:.0f} | {o_req} | {o_bytes:,} | {o_time * 1000:.0f} |")
    server.shutdown()


if __name__ == "__main__":
    main()
