#!/usr/bin/env bash
# The loop overhead of a checkpoint in processes mode with the copies through shared memory (the default)
# and over loopback TCP (-Ddfr.sharedMemoryRoot=none), interleaved.
# Usage: benchmarks/shared-memory-copies.sh [CELLS] [ITERATIONS] [K] [ROUNDS] [BACKUPS]
#   defaults: 4096x4096 200 10 3 2. Per round three runs of `dfr run --mode processes`: no checkpoint in the
#   loop (--checkpoint-every ITERATIONS), K with shared memory, K over TCP; prints the overhead per checkpoint
#   of both (from the reports' loopMillis), the copies handed through shared memory and the digests.
set -euo pipefail
cd "$(dirname "$0")/.."
CELLS=${1:-4096x4096}; N=${2:-200}; K=${3:-10}; ROUNDS=${4:-3}; B=${5:-2}
# DFR_JAVA_OPTS replaces ./dfr's JVM options: the same ones, and the property for the TCP runs
BASE="-XX:MaxRAMPercentage=60 -XX:InitialRAMPercentage=25 -XX:+UseParallelGC -XX:MetaspaceSize=256m"
if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
  BASE="$BASE -XX:+UseTransparentHugePages" # as ./dfr does by default
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
fields() {
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['loopMillis'], sum(a['sharedMemoryCopies'] for a in r['ranks']), r['fieldSha256'][:12])" "$1"
}
run() { ./dfr run --mode processes --cells "$CELLS" --iterations "$N" --checkpoint-backups "$B" "$@" >/dev/null; }
for round in $(seq 1 "$ROUNDS"); do
  run --checkpoint-every "$N" --report "$OUT/none.json"
  run --checkpoint-every "$K" --report "$OUT/shm.json"
  DFR_JAVA_OPTS="$BASE -Ddfr.sharedMemoryRoot=none" run --checkpoint-every "$K" --report "$OUT/tcp.json"
  read -r n _ nd < <(fields "$OUT/none.json")
  read -r s sc sd < <(fields "$OUT/shm.json")
  read -r t tc td < <(fields "$OUT/tcp.json")
  python3 - "$round" "$n" "$s" "$t" "$N" "$K" "$sc" "$tc" "$nd $sd $td" <<'PY'
import sys
r, n, s, t, N, K = sys.argv[1], *map(float, sys.argv[2:7])
inloop = (N - 1) // K
it = n / N
os_, ot = (s - n) / inloop, (t - n) / inloop
print(f"round {r}: iteration {it:.1f} ms; per checkpoint: shared memory {os_:.0f} ms ({os_ / it:.1f} iterations,"
      f" {sys.argv[7]} copies), TCP {ot:.0f} ms ({ot / it:.1f} iterations, {sys.argv[8]} copies);"
      f" ratio {os_ / ot:.2f}; digests {sys.argv[9]}")
PY
done
