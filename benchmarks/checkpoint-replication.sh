#!/usr/bin/env bash
# The loop overhead of a checkpoint replicated through the checkpoint map (the default) and over the data plane,
# interleaved.
# Usage: benchmarks/checkpoint-replication.sh [CELLS] [ITERATIONS] [K] [ROUNDS] [MODE] [EXTRA OPTIONS]
#   defaults: 4096x4096 60 10 3 embedded (benchmarks/checkpoint-ab.sh does the runs); EXTRA OPTIONS go to both
#   (e.g. "--checkpoint-backups 1").
set -euo pipefail
CELLS=${1:-4096x4096}; N=${2:-60}; K=${3:-10}; ROUNDS=${4:-3}; MODE=${5:-embedded}; EXTRA=${6:-}
exec "$(dirname "$0")/checkpoint-ab.sh" "$CELLS" "$N" "$K" "$ROUNDS" "$MODE" \
    "--checkpoint-replication hazelcast $EXTRA" "--checkpoint-replication data-plane $EXTRA"
