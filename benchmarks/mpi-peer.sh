# Sourced by the scripts that run the C + MPI peer beside dfr: build_mpi_peer NAME PEER_DIR checks PEER_DIR, copies
# the peer into a scratch directory $WORK (deleted on exit) and builds it with its own setup.sh. Exits with code 2
# when PEER_DIR is not a directory, 3 with a note where MPI cannot be installed. A script that calls another passes
# its own build on in DFR_MPI_PEER_BUILT, so the peer is built once (the caller deletes it).
build_mpi_peer() {
  local name=$1 peer=$2
  if [[ -n "${DFR_MPI_PEER_BUILT:-}" && -x "$DFR_MPI_PEER_BUILT/jacobi" ]]; then
    WORK=$DFR_MPI_PEER_BUILT
    return 0
  fi
  if [[ -z "$peer" ]]; then
    echo "$name: no MPI peer given: name the directory of the C + MPI peer as the first argument or in DFR_MPI_PEER (docs/bench.md, \"The C + MPI peer\"; it is not part of this repository)" >&2
    exit 2
  fi
  if [[ ! -d "$peer" ]]; then
    echo "$name: no MPI peer at $peer (give its directory as the first argument)" >&2
    exit 2
  fi
  WORK=$(mktemp -d /tmp/dfr-mpi-peer.XXXXXX)
  trap 'rm -rf "$WORK"' EXIT
  cp -r "$peer/." "$WORK/" && chmod -R u+w "$WORK"
  if ! (cd "$WORK" && ./setup.sh >"$WORK/setup.log" 2>&1); then
    echo "$name: the MPI peer cannot be built here (see its setup.sh); skipped. Last lines:" >&2
    tail -5 "$WORK/setup.log" >&2
    exit 3
  fi
}
