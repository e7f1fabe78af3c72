#!/usr/bin/env bash
# The loop overhead of a checkpoint with two backups (the default) and with one, interleaved.
# Usage: benchmarks/checkpoint-backups.sh [CELLS] [ITERATIONS] [K] [ROUNDS] [MODE]
#   defaults: 4096x4096 60 10 3 embedded. Per round three runs: K = ITERATIONS (no checkpoint in the
#   loop), K with --checkpoint-backups 2, K with --checkpoint-backups 1; prints each run's overhead per
#   checkpoint and the ratio one backup / two.
set -euo pipefail
cd "$(dirname "$0")/.."
CELLS=${1:-4096x4096}; N=${2:-60}; K=${3:-10}; ROUNDS=${4:-3}; MODE=${5:-embedded}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
IN_LOOP=$(( (N - 1) / K ))
loop() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['loopMillis'])" "$1"; }
for round in $(seq 1 "$ROUNDS"); do
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$N" --report "$OUT/none.json" >/dev/null
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$K" --checkpoint-backups 2 \
      --report "$OUT/two.json" >/dev/null
  ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$K" --checkpoint-backups 1 \
      --report "$OUT/one.json" >/dev/null
  none=$(loop "$OUT/none.json"); two=$(loop "$OUT/two.json"); one=$(loop "$OUT/one.json")
  python3 - "$round" "$none" "$two" "$one" "$N" "$IN_LOOP" <<'PY'
import sys
r, none, two, one, n, inloop = sys.argv[1], *map(float, sys.argv[2:])
it = none / n
a, b = (two - none) / inloop, (one - none) / inloop
print(f"round {r}: iteration {it:.1f} ms; per checkpoint: 2 backups {a:.0f} ms ({a / it:.1f} iterations),"
      f" 1 backup {b:.0f} ms ({b / it:.1f} iterations); ratio {b / a:.2f}")
PY
done
