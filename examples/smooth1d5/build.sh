#!/usr/bin/env bash
# Builds smooth1d5.jar against dfr's API with nothing but the JDK: javac with dfr.jar on the class
# path, then jar. Run from anywhere; the jar lands next to this script.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DFR_JAR="${DFR_JAR:-$HERE/../../jacobi-demo/target/dfr.jar}"
OUT="$HERE/target"
rm -rf "$OUT" && mkdir -p "$OUT/classes"
javac --release 17 -cp "$DFR_JAR" -d "$OUT/classes" $(find "$HERE/src/main/java" -name '*.java')
cp -r "$HERE/src/main/resources/." "$OUT/classes/"
jar --create --file "$HERE/smooth1d5.jar" -C "$OUT/classes" .
echo "built $HERE/smooth1d5.jar"
