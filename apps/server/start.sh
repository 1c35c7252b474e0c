#!/bin/sh
# The built server as production runs it: `npm start -w @vigil/server` runs this (the root's `npm start` builds
# first). Arguments are node's own options, placed before the script (`npm start -w @vigil/server -- --trace-gc`).
#
# On the embedded database (no DATABASE_URL) glibc's allocator gets a fixed mmap threshold: a block of 128 KB or more
# is a mapping of its own, handed back to the system when freed. glibc's default raises the threshold once such a
# block is freed and keeps the pages of later ones, and compiling PGlite's WebAssembly at start frees many, which
# would stay resident for good. On PostgreSQL that fixed threshold buys nothing and costs a mapping, an unmapping and
# their page faults for most large answers, so glibc's default stays. Values set in the environment are kept.
#
# The embedded database's process also holds PostgreSQL's memory (its WebAssembly heap and compiled code), so there
# V8's heap gets less room: a young generation of two 4 MB halves and an old generation that grows by half its live
# size between full collections (by about twice with this old-space limit). On PostgreSQL the larger settings stay:
# its paced reads meet fewer full collections with them. Options given to the script come last, so they win.
# The measurements behind each setting: docs/operations.md, "Running in production".
set -eu
cd "$(dirname "$0")"
if [ -z "${DATABASE_URL:-}" ]; then
  export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
  export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"
  set -- --max-semi-space-size=4 --heap-growing-percent=50 "$@"
fi
exec node --max-old-space-size=2000 --max-semi-space-size=8 "$@" dist/server.js
