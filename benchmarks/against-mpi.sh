#!/usr/bin/env bash
# dfr side by side with the C + MPI peer (classic checkpoint/restart), interleaved, in one command.
#
#   benchmarks/against-mpi.sh [PEER_DIR=../shared/peers/mpi-jacobi] [N=2048] [ITERS=60] [K=10] [KILL=1@15] [ROUNDS=3]
#
# Builds the peer in a scratch copy with its own setup.sh (installs MPICH or Open MPI where the machine
# allows it; if that fails this script says so and stops with exit code 3), then runs the peer's
# recovery.sh (fault-free and SIGKILL runs of both, interleaved) and throughput.sh, and prints the
# headline ratios dfr / MPI: the cost of one kill (run with the kill minus run without) and the
# fault-free cell updates per second on 2x4 ranks.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER=${1:-$ROOT/../shared/peers/mpi-jacobi}; N=${2:-2048}; IT=${3:-60}; K=${4:-10}; KILL=${5:-1@15}; R=${6:-3}
. "$ROOT/benchmarks/mpi-peer.sh"
build_mpi_peer against-mpi "$PEER"
(cd "$ROOT" && ./dfr --help >/dev/null)   # builds dfr.jar if needed, outside the timed runs

echo "== recovery: ${N}x${N}, 2x4 ranks, ${IT} iterations, checkpoint every ${K}, kill ${KILL}, ${R} rounds"
"$WORK/recovery.sh" "$ROOT" "$N" "$IT" "$K" "$KILL" "$R" dfr | tee "$WORK/recovery.out"
echo "== throughput: ${N}x${N}, ${IT} iterations, ${R} rounds"
"$WORK/throughput.sh" "$ROOT" "$N" "$IT" "$R" | tee "$WORK/throughput.out"

awk '
  /^mpi  fault-free/ { for (i = 1; i <= NF; i++) if ($i == "cost") { gsub("s", "", $(i+1)); mpi[++m] = $(i+1) } }
  /^dfr  fault-free/ { for (i = 1; i <= NF; i++) if ($i == "cost") { gsub("s", "", $(i+1)); dfr[++d] = $(i+1) } }
  END {
    n = m < d ? m : d
    for (i = 1; i <= n; i++) printf "round %d: cost of the kill: dfr %.3f s, MPI %.3f s, dfr/MPI %.2f\n", i, dfr[i], mpi[i], (mpi[i] > 0 ? dfr[i] / mpi[i] : 0)
  }' "$WORK/recovery.out"
awk '
  $1 == "mpi" && $2 == "2x4" { mpi[++m] = $3 }
  $1 == "dfr" && $2 == "2x4" { dfr[++d] = $3 }
  $1 == "dfr" && $2 == "2x4p" { dfrp[++p] = $3 }
  END {
    for (i = 1; i <= m; i++) printf "round %d: 2x4 cell updates/s: MPI %s, dfr embedded %s (%.2f), dfr processes %s (%.2f)\n", i, mpi[i], dfr[i], (mpi[i] > 0 ? dfr[i] / mpi[i] : 0), dfrp[i], (mpi[i] > 0 ? dfrp[i] / mpi[i] : 0)
  }' "$WORK/throughput.out"
