#!/usr/bin/env bash
# dfr side by side with the C + MPI peer (classic checkpoint/restart), interleaved, in one command.
#
#   benchmarks/against-mpi.sh PEER_DIR [N=2048] [ITERS=60] [K=10] [KILL=1@15] [ROUNDS=3]
#                             [CKPT_N=4096] [CKPT_ITERS=600]
#
# Builds the peer in a scratch copy with its own setup.sh (installs MPICH or Open MPI where the machine
# allows it; if that fails this script says so and stops with exit code 3), then, each part in interleaved
# rounds:
#   1. recovery: the peer's recovery.sh, fault-free and SIGKILL runs of both on NxN, 2x4 ranks (dfr in
#      processes mode); per side the total wall time of the run with the kill and without, and kill to
#      caught up: for the peer its kill_to_caught_up (the relaunched job back at the iteration the rank died
#      in), for dfr the report's detection (death to the first survivor knowing) plus recovery wall
#      (detection to every rank resumed at that iteration);
#   2. checkpoint cost: benchmarks/checkpoint-against-mpi.sh on CKPT_NxCKPT_N, CKPT_ITERS iterations, every K
#      (the loop overhead of one checkpoint, in ms and in iterations of each side); CKPT_ITERS=0 skips it;
#   3. throughput: the peer's throughput.sh, fault-free cell updates per second.
# Then the headline: per round and as medians, dfr / MPI for kill to caught up, checkpoint cost and
# throughput. The difference of two whole runs ("cost" in part 1) is printed too, but it carries the
# start-up of 8 JVMs, which varies by seconds: kill to caught up is the figure that compares.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEER=${1:-${DFR_MPI_PEER:-}}; N=${2:-2048}; IT=${3:-60}; K=${4:-10}; KILL=${5:-1@15}; R=${6:-3}
CKPT_N=${7:-4096}; CKPT_IT=${8:-600}
for v in "$N" "$IT" "$K" "$R" "$CKPT_N"; do
  if ! [[ "$v" =~ ^[1-9][0-9]*$ ]]; then
    echo "against-mpi: $v is not a positive integer (N, ITERS, K, ROUNDS and CKPT_N are)" >&2
    exit 2
  fi
done
if ! [[ "$CKPT_IT" =~ ^[0-9]+$ ]] || { (( CKPT_IT > 0 )) && (( CKPT_IT <= K )); }; then
  echo "against-mpi: CKPT_ITERS=$CKPT_IT must be 0 (skip the checkpoint part) or above K=$K" >&2
  exit 2
fi
if ! [[ "$KILL" =~ ^[0-7]@[1-9][0-9]*$ ]] || (( ${KILL#*@} >= IT )); then
  echo "against-mpi: KILL=$KILL must be RANK@ITERATION with a rank of 0-7 and an iteration of 1-$((IT - 1))" >&2
  exit 2
fi
. "$ROOT/benchmarks/mpi-peer.sh"
build_mpi_peer against-mpi "$PEER"
(cd "$ROOT" && ./dfr --help >/dev/null)   # builds dfr.jar if needed, outside the timed runs

echo "== recovery: ${N}x${N}, 2x4 ranks, ${IT} iterations, checkpoint every ${K}, kill ${KILL}, ${R} rounds"
"$WORK/recovery.sh" "$ROOT" "$N" "$IT" "$K" "$KILL" "$R" dfr | tee "$WORK/recovery.out"
if (( CKPT_IT > 0 )); then
  echo "== checkpoint cost: ${CKPT_N}x${CKPT_N}, 2x4 ranks, ${CKPT_IT} iterations, checkpoint every ${K}, ${R} rounds"
  DFR_MPI_PEER_BUILT="$WORK" "$ROOT/benchmarks/checkpoint-against-mpi.sh" "$PEER" "$CKPT_N" "$CKPT_IT" "$K" "$R" 2>&1 \
    | grep -v "^WARNING" | tee "$WORK/checkpoint.out"
fi
echo "== throughput: ${N}x${N}, ${IT} iterations, ${R} rounds"
"$WORK/throughput.sh" "$ROOT" "$N" "$IT" "$R" | tee "$WORK/throughput.out"

echo "== dfr / MPI"
python3 - "$WORK/recovery.out" "$WORK/checkpoint.out" "$WORK/throughput.out" <<'PY'
import re, statistics, sys

def lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []

def number(pattern, line):
    m = re.search(pattern, line)
    return float(m.group(1)) if m else None

def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None

rec, ckpt, tput = (lines(p) for p in sys.argv[1:4])
mpi = [l for l in rec if l.startswith("mpi  fault-free")]
dfr = [l for l in rec if l.startswith("dfr  fault-free")]
ratios = {"kill to caught up": [], "checkpoint (ms)": [], "checkpoint (iterations)": [], "throughput": []}
for i, (m, d) in enumerate(zip(mpi, dfr), 1):
    m_caught = number(r"kill->caught-up ([\d.]+)s", m)
    detection, wall = number(r"detection (\d+) ms", d), number(r"recovery wall(?: \(detection to resume\))? (\d+) ms", d)
    m_ff, m_k = number(r"fault-free ([\d.]+)s", m), number(r"with-kill ([\d.]+)s", m)
    d_ff, d_k = number(r"fault-free ([\d.]+)s", d), number(r"with-kill ([\d.]+)s", d)
    same = m.split()[-1] == d.split()[-1]
    if None in (m_caught, detection, wall):
        print(f"round {i}: kill to caught up missing (MPI: {m_caught}, dfr detection/wall: {detection}/{wall}); see the lines above")
        continue
    d_caught = (detection + wall) / 1000
    ratios["kill to caught up"].append(d_caught / m_caught)
    print(f"round {i}: kill to caught up dfr {d_caught * 1000:.0f} ms (detection {detection:.0f} + recovery {wall:.0f}), "
          f"MPI {m_caught * 1000:.0f} ms, dfr/MPI {d_caught / m_caught:.2f}; whole runs without / with the kill: "
          f"dfr {d_ff:.1f} / {d_k:.1f} s, MPI {m_ff:.1f} / {m_k:.1f} s; digests {'equal' if same else 'DIFFER'}")
for l in ckpt:
    if l.startswith("round "):
        ms = number(r"dfr / MPI (-?[\d.]+)", l)
        mi = number(r"per checkpoint -?\d+ ms \((-?[\d.]+) iterations\); dfr", l)
        di = number(r"dfr iteration [\d.]+ ms, per checkpoint -?\d+ ms \((-?[\d.]+) iterations\)", l)
        ratios["checkpoint (ms)"].append(ms)
        ratios["checkpoint (iterations)"].append(di / mi if di is not None and mi else None)
def figure(line):
    # a run that failed prints its label and nothing after it
    parts = line.split()
    try:
        return float(parts[2]) if len(parts) > 2 else None
    except ValueError:
        return None
mpi_t = [figure(l) for l in tput if l.startswith("mpi 2x4 ")]
dfr_t = [figure(l) for l in tput if l.startswith("dfr 2x4p ")]
for m, d in zip(mpi_t, dfr_t):
    ratios["throughput"].append(d / m if m and d is not None else None)
print("medians over the rounds, dfr (processes mode) / MPI:")
for name, values in ratios.items():
    med = median(values)
    if med is not None:
        shown = ", ".join("-" if v is None else f"{v:.2f}" for v in values)
        print(f"  {name:24s} {med:.2f}   (rounds: {shown})")
PY
