#!/usr/bin/env bash
# The loop overhead of one checkpoint, dfr (processes mode) side by side with the C + MPI peer, interleaved.
#
#   benchmarks/checkpoint-against-mpi.sh PEER_DIR [N=4096] [ITERS=600] [K=10] [ROUNDS=3]
#
# Builds the peer in a scratch copy with its own setup.sh (exit code 3 with a note where MPI cannot be installed).
# Per round four runs on 2x4 ranks: the peer without and with --checkpoint-every K (files in a scratch directory),
# then dfr without checkpoints in the loop and with --checkpoint-every K. Prints per checkpoint: ms and iterations
# of each (the peer: its loop `seconds` over `checkpoints_written`; dfr: the reports' loopMillis over the
# checkpoints in the loop), and dfr / MPI in ms.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER=${1:-${DFR_MPI_PEER:-}}; N=${2:-4096}; IT=${3:-600}; K=${4:-10}; R=${5:-3}
for v in "$N" "$IT" "$K" "$R"; do
  if ! [[ "$v" =~ ^[1-9][0-9]*$ ]]; then
    echo "checkpoint-against-mpi: $v is not a positive integer (N, ITERS, K and ROUNDS are)" >&2
    exit 2
  fi
done
if (( K >= IT )); then
  echo "checkpoint-against-mpi: K=$K must be below ITERS=$IT" >&2
  exit 2
fi
. "$ROOT/benchmarks/mpi-peer.sh"
build_mpi_peer checkpoint-against-mpi "$PEER"
MPIEXEC=(mpiexec -n 8)
if mpiexec --version 2>/dev/null | grep -qi "open mpi"; then MPIEXEC+=(--oversubscribe); fi
cd "$ROOT" && ./dfr --help >/dev/null   # builds dfr.jar if needed, outside the timed runs
IN_LOOP=$(( (IT - 1) / K ))
echo "${N}x${N}, 2x4 ranks, ${IT} iterations, checkpoint every ${K}, ${R} rounds"
for r in $(seq 1 "$R"); do
  rm -rf "$WORK/ck" && mkdir -p "$WORK/ck"
  plain=$("${MPIEXEC[@]}" "$WORK/jacobi" "$N" "$N" "$IT" 2 4)
  ckpt=$("${MPIEXEC[@]}" "$WORK/jacobi" "$N" "$N" "$IT" 2 4 --checkpoint-every "$K" --checkpoint-dir "$WORK/ck")
  ./dfr run --mode processes --cells "${N}x${N}" --iterations "$IT" --checkpoint-every "$IT" --report "$WORK/none.json" >/dev/null 2>&1
  ./dfr run --mode processes --cells "${N}x${N}" --iterations "$IT" --checkpoint-every "$K" --report "$WORK/k.json" >/dev/null 2>&1
  python3 - "$r" "$IT" "$IN_LOOP" "$WORK" "$plain" "$ckpt" <<'PY'
import json, sys
r, it, inloop, work, plain, ckpt = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
def field(out, key):
    return float(next(l.split()[1] for l in out.splitlines() if l.split()[:1] == [key]))
mn, mk, mc = field(plain, "seconds"), field(ckpt, "seconds"), field(ckpt, "checkpoints_written")
dn = json.load(open(f"{work}/none.json"))["loopMillis"] / 1000
dk = json.load(open(f"{work}/k.json"))["loopMillis"] / 1000
mi, di = mn / it, dn / it
mo, do = (mk - mn) / mc, (dk - dn) / inloop
print(f"round {r}: MPI iteration {mi * 1000:.1f} ms, per checkpoint {mo * 1000:.0f} ms ({mo / mi:.2f} iterations); "
      f"dfr iteration {di * 1000:.1f} ms, per checkpoint {do * 1000:.0f} ms ({do / di:.2f} iterations); "
      f"dfr / MPI {do / mo:.2f}", flush=True)
PY
done
