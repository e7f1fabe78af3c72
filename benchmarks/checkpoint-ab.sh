#!/usr/bin/env bash
# The loop overhead of a checkpoint under two sets of run options, interleaved.
# Usage: benchmarks/checkpoint-ab.sh CELLS ITERATIONS K ROUNDS MODE "A OPTIONS" "B OPTIONS"
#   Per round three runs of `dfr run --mode MODE --cells CELLS --iterations ITERATIONS`: one with no checkpoint
#   in the loop (--checkpoint-every ITERATIONS), one with --checkpoint-every K and the A options, one with K and
#   the B options; prints the overhead per checkpoint of A and B (from the reports' loopMillis) and B / A.
#   benchmarks/commit-lag.sh and benchmarks/checkpoint-backups.sh are its two uses.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -ne 7 ]]; then
  echo "usage: benchmarks/checkpoint-ab.sh CELLS ITERATIONS K ROUNDS MODE \"A OPTIONS\" \"B OPTIONS\"" >&2
  exit 2
fi
CELLS=$1; N=$2; K=$3; ROUNDS=$4; MODE=$5; A=$6; B=$7
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
IN_LOOP=$(( (N - 1) / K ))
loop() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['loopMillis'])" "$1"; }
for round in $(seq 1 "$ROUNDS"); do
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$N" --report "$OUT/none.json" >/dev/null
  # shellcheck disable=SC2086
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$K" $A --report "$OUT/a.json" >/dev/null
  # shellcheck disable=SC2086
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$K" $B --report "$OUT/b.json" >/dev/null
  none=$(loop "$OUT/none.json"); a=$(loop "$OUT/a.json"); b=$(loop "$OUT/b.json")
  python3 - "$round" "$none" "$a" "$b" "$N" "$IN_LOOP" "$A" "$B" <<'PY'
import sys
r, none, a, b, n, inloop, la, lb = sys.argv[1], *map(float, sys.argv[2:7]), sys.argv[7], sys.argv[8]
it = none / n
oa, ob = (a - none) / inloop, (b - none) / inloop
print(f"round {r}: iteration {it:.1f} ms; per checkpoint: [{la}] {oa:.0f} ms ({oa / it:.1f} iterations),"
      f" [{lb}] {ob:.0f} ms ({ob / it:.1f} iterations); ratio {ob / oa:.2f}")
PY
done
