#!/usr/bin/env bash
# What the exit watch costs the processes-mode loop: runs without checkpoints in the loop, interleaved, with
# the default watch and with each of the given rank JVM options (e.g. -Ddfr.exitWatch=false,
# -Ddfr.exitWatchPollMicros=10000); prints the reports' loopMillis.
# Usage: benchmarks/exit-watch-cost.sh CELLS ITERATIONS ROUNDS OPTION...
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 4 ]]; then
  echo "usage: benchmarks/exit-watch-cost.sh CELLS ITERATIONS ROUNDS OPTION..." >&2
  exit 2
fi
CELLS=$1; N=$2; ROUNDS=$3; shift 3
BASE="-XX:MaxRAMPercentage=60 -XX:InitialRAMPercentage=25 -XX:+UseParallelGC -XX:MetaspaceSize=256m"
if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
  BASE="$BASE -XX:+UseTransparentHugePages" # as ./dfr does by default
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
loop() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['loopMillis'])" "$1"; }
for round in $(seq 1 "$ROUNDS"); do
  ./dfr run --mode processes --cells "$CELLS" --iterations "$N" --checkpoint-every "$N" --report "$OUT/r.json" >/dev/null
  line="round $round: default $(loop "$OUT/r.json") ms"
  for opt in "$@"; do
    DFR_JAVA_OPTS="$BASE -Ddfr.rankJvmOptions=$opt" ./dfr run --mode processes --cells "$CELLS" --iterations "$N" \
        --checkpoint-every "$N" --report "$OUT/r.json" >/dev/null
    line="$line, [$opt] $(loop "$OUT/r.json") ms"
  done
  echo "$line"
done
