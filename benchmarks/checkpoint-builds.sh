#!/usr/bin/env bash
# The loop overhead of a checkpoint on an older build and on this one, interleaved.
# Usage: benchmarks/checkpoint-builds.sh BASE_REF [CELLS] [ITERATIONS] [K] [ROUNDS] [MODE] [BACKUPS]
#   defaults: 4096x4096 600 10 4 processes 2. Builds BASE_REF (a commit, tag or branch) in a temporary git
#   worktree, then per round three runs of `dfr run`: this build without a checkpoint in the loop
#   (--checkpoint-every ITERATIONS), BASE_REF with K, this build with K; prints the overhead per checkpoint of
#   both (from the reports' loopMillis, in ms and in iterations of the run without), this / base, and the digests.
#   Both builds must agree on the digest; the script says so when they do not. DEBUG=1 also prints each round's
#   loopMillis.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: benchmarks/checkpoint-builds.sh BASE_REF [CELLS] [ITERATIONS] [K] [ROUNDS] [MODE] [BACKUPS]" >&2
  exit 2
fi
REF=$1; CELLS=${2:-4096x4096}; N=${3:-600}; K=${4:-10}; ROUNDS=${5:-4}; MODE=${6:-processes}; B=${7:-2}
if ! git rev-parse --verify --quiet "$REF^{commit}" >/dev/null; then
  echo "checkpoint-builds: $REF is not a commit of this repository" >&2
  exit 2
fi
if [[ "$MODE" != processes && "$MODE" != embedded ]]; then
  echo "checkpoint-builds: mode $MODE, expected processes or embedded" >&2
  exit 2
fi
OUT=$(mktemp -d)
BASE="$OUT/base"
cleanup() {
  git worktree remove --force "$BASE" >/dev/null 2>&1 || true
  rm -rf "$OUT"
}
trap cleanup EXIT
git worktree add --detach --force "$BASE" "$REF" >/dev/null 2>&1
echo "building $REF in $BASE ..." >&2
(cd "$BASE" && ./mvnw -q -B -DskipTests package) >&2
./dfr --help >/dev/null # builds this one if needed, outside the timed runs
IN_LOOP=$(( (N - 1) / K ))
run() { # DIR CHECKPOINT_EVERY REPORT
  (cd "$1" && ./dfr run --mode "$MODE" --cells "$CELLS" --iterations "$N" --checkpoint-every "$2" \
      --checkpoint-backups "$B" --report "$3" >/dev/null)
}
fields() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['loopMillis'], r['fieldSha256'][:12])" "$1"; }
echo "$MODE, $CELLS, $N iterations, checkpoint every $K ($IN_LOOP in the loop), $B backups; base $REF"
for round in $(seq 1 "$ROUNDS"); do
  run . "$N" "$OUT/none.json"
  run "$BASE" "$K" "$OUT/old.json"
  run . "$K" "$OUT/new.json"
  read -r n _ < <(fields "$OUT/none.json")
  read -r o od < <(fields "$OUT/old.json")
  read -r w wd < <(fields "$OUT/new.json")
  [[ -n "${DEBUG:-}" ]] && echo "loopMillis: none $n, base $o, this $w" >&2
  python3 - "$round" "$n" "$o" "$w" "$N" "$IN_LOOP" "$od" "$wd" <<'PY'
import sys
r, n, o, w, N, inloop = sys.argv[1], *map(float, sys.argv[2:7])
od, wd = sys.argv[7], sys.argv[8]
it = n / N
oo, ow = (o - n) / inloop, (w - n) / inloop
ratio = f"{ow / oo:.2f}" if oo > 0 else "n/a"
same = "digests equal" if od == wd else f"DIGESTS DIFFER: base {od}, this {wd}"
print(f"round {r}: iteration {it:.1f} ms; per checkpoint: base {oo:.0f} ms ({oo / it:.2f} iterations),"
      f" this {ow:.0f} ms ({ow / it:.2f} iterations); this / base {ratio}; {same}", flush=True)
PY
done
