#!/usr/bin/env bash
# The loop overhead of a checkpoint with two backups (the default) and with one, interleaved.
# Usage: benchmarks/checkpoint-backups.sh [CELLS] [ITERATIONS] [K] [ROUNDS] [MODE]
#   defaults: 4096x4096 60 10 3 embedded (benchmarks/checkpoint-ab.sh does the runs).
set -euo pipefail
CELLS=${1:-4096x4096}; N=${2:-60}; K=${3:-10}; ROUNDS=${4:-3}; MODE=${5:-embedded}
exec "$(dirname "$0")/checkpoint-ab.sh" "$CELLS" "$N" "$K" "$ROUNDS" "$MODE" \
    "--checkpoint-backups 2" "--checkpoint-backups 1"
