#!/usr/bin/env bash
# Instructions per operation (callgrind), for comparing changes on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --features repo-tests --bench icount --no-run 2>/dev/null
bin=$(ls -t target/release/deps/icount-* | grep -v '\.d$' | head -1)
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 \
    | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
for ndim in ${NDIMS:-3 8}; do
  for op in ${OPS:-c_decode owned owned_meta decode_from view c_encode encode_into encode_to_vec to_slice to_vec}; do
    a=$(count "$op" "$ndim" 1); b=$(count "$op" "$ndim" 1001)
    echo "ndim $ndim $op: $(( (b - a) / 1000 )) instructions"
  done
done
