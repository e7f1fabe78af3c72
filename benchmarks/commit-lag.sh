#!/usr/bin/env bash
# The loop overhead of a checkpoint with the default commit lag and with a lag of K-1, interleaved.
# Usage: benchmarks/commit-lag.sh [CELLS] [ITERATIONS] [K] [ROUNDS] [MODE]
#   defaults: 4096x4096 60 10 3 embedded. Per round three runs: K = ITERATIONS (no checkpoint in the
#   loop), K with lag 1, K with lag K-1; prints each run's loop time and the overhead per checkpoint.
set -euo pipefail
cd "$(dirname "$0")/.."
CELLS=${1:-4096x4096}; N=${2:-60}; K=${3:-10}; ROUNDS=${4:-3}; MODE=${5:-embedded}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
IN_LOOP=$(( (N - 1) / K ))
loop() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['loopMillis'])" "$1"; }
for round in $(seq 1 "$ROUNDS"); do
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$N" --report "$OUT/none.json" >/dev/null
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$K" --commit-lag-iterations 1 \
      --report "$OUT/lag1.json" >/dev/null
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$K" --commit-lag-iterations $((K - 1)) \
      --report "$OUT/lagk.json" >/dev/null
  none=$(loop "$OUT/none.json"); lag1=$(loop "$OUT/lag1.json"); lagk=$(loop "$OUT/lagk.json")
  python3 - "$round" "$none" "$lag1" "$lagk" "$N" "$IN_LOOP" "$K" <<'PY'
import sys
r, none, lag1, lagk, n, inloop, k = sys.argv[1], *map(float, sys.argv[2:])
it = none / n
a, b = (lag1 - none) / inloop, (lagk - none) / inloop
print(f"round {r}: iteration {it:.1f} ms; per checkpoint: lag 1 {a:.0f} ms ({a / it:.1f} iterations),"
      f" lag {int(k) - 1} {b:.0f} ms ({b / it:.1f} iterations); ratio {b / a:.2f}")
PY
done
