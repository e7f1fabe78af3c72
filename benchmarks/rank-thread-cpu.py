#!/usr/bin/env python3
"""CPU of the rank JVMs of a running `dfr run --mode processes`, per kind of thread, over a window.

    benchmarks/rank-thread-cpu.py SECONDS

Reads utime + stime of every thread of every process running RankProcessMain from /proc/PID/task/TID/stat twice,
SECONDS apart, and prints the difference grouped by thread name with its digits replaced by '#' (so the 8 ranks'
`dfr-rank#-checkpoint-replicator` threads add up; Linux keeps the first 15 characters of a name). Start it once the
run printed its first iteration. Linux only; docs/bench.md, session 46.
"""
import collections
import os
import re
import sys
import time


def rank_pids():
    pids = []
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                with open(f'/proc/{p}/cmdline', 'rb') as f:
                    if b'RankProcessMain' in f.read():
                        pids.append(p)
            except OSError:
                pass
    return pids


def snapshot():
    ticks = {}
    for p in rank_pids():
        try:
            tids = os.listdir(f'/proc/{p}/task')
        except OSError:
            continue
        for t in tids:
            try:
                with open(f'/proc/{p}/task/{t}/comm') as f:
                    name = re.sub(r'[0-9]+', '#', f.read().strip())
                with open(f'/proc/{p}/task/{t}/stat') as f:
                    fields = f.read().rsplit(')', 1)[1].split()
                ticks[(p, t)] = (name, int(fields[11]) + int(fields[12]))
            except OSError:
                pass  # the thread ended between the listing and the read
    return ticks


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: rank-thread-cpu.py SECONDS")
    try:
        window = float(sys.argv[1])
        if window <= 0:
            raise ValueError
    except ValueError:
        print(f"rank-thread-cpu.py: SECONDS {sys.argv[1]!r} is not a positive number", file=sys.stderr)
        sys.exit(2)
    hz = os.sysconf('SC_CLK_TCK')
    start, before = time.time(), snapshot()
    if not before:
        print("rank-thread-cpu.py: no RankProcessMain process is running", file=sys.stderr)
        sys.exit(2)
    time.sleep(window)
    after, end = snapshot(), time.time()
    per_name = collections.Counter()
    for key, (name, t) in after.items():
        per_name[name] += t - before.get(key, (name, 0))[1]
    total = sum(per_name.values())
    print(f"window {end - start:.1f} s, {len(after)} threads, CPU {total * 1000 // hz} ms")
    for name, t in per_name.most_common():
        if t > 0:
            print(f"  {name:16s} {t * 1000 // hz:7d} ms")


if __name__ == '__main__':
    main()
