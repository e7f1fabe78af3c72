#!/bin/bash
# What a pool of warm rank JVMs would save at start-up (issue 13, part 4; docs/bench.md, session 44).
# Starts 8 JVMs with dfr.jar on their class path; each first starts and stops WARMUPS solo Hazelcast members
# (what a pooled JVM would have done before), then all 8 start the run's members at one "go" and time the
# cluster's formation and their CPU from "go". Rank r>0 waits (r-1)*STAGGER ms (-Dstagger=STAGGER in PROBE_OPTS).
# usage: benchmarks/startup/pool-probe.sh WARMUPS BASEPORT   (BASEPORT below 32768: outside the ephemeral range)
# e.g.   PROBE_OPTS=-Dstagger=100 benchmarks/startup/pool-probe.sh 2 21000
set -u
W=${1:?WARMUPS}; BASE=${2:?BASEPORT}; N=8
D=$(mktemp -d /tmp/dfr-pool-probe.XXXX)
CP=${DFR_JAR:-$(cd "$(dirname "$0")/../.." && pwd)/jacobi-demo/target/dfr.jar}
for r in $(seq 0 $((N-1))); do
  java -XX:CompileThresholdScaling=5 -XX:+UseSerialGC -Xmx512m -Dhazelcast.logging.type=none $PROBE_OPTS -Djava.net.preferIPv4Stack=true --add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED -cp $CP "$(dirname "$0")/PoolProbe.java" $r $N $D $W probe-$$-$W $BASE > $D/out-$r 2>&1 &
done
deadline=$((SECONDS + 300))
while [ $(ls $D | grep -c '^ready-') -lt $N ]; do
  sleep 0.05
  if [ $SECONDS -gt $deadline ] || [ $(jobs -r | wc -l) -lt $N ]; then
    echo "a probe JVM failed or is slow before 'go':" >&2; grep -h -m1 -i "exception" $D/out-* >&2; kill $(jobs -p) 2>/dev/null; exit 1
  fi
done
sleep 1
touch $D/go
while [ $(ls $D | grep -c '^formed-') -lt $N ]; do sleep 0.05; if [ $(jobs -r | wc -l) -eq 0 ]; then break; fi; done
touch $D/done
wait
cat $D/out-* | grep "^rank" | sort -k2 -n
cat $D/out-* | grep "^rank" | awk '{f=$6; if(f>m)m=f; c+=$9} END {print "max formed ms", m, "sum cpu ms", c}'
