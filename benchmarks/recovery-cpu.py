#!/usr/bin/env python3
"""Where the CPU of the rank JVMs goes during one recovery, against a window of the same length before the kill.

    benchmarks/recovery-cpu.py [DFR_RUN_ARGUMENT...]

Runs `./dfr run --mode processes` (by default `--cells 2048x2048 --iterations 60 --checkpoint-every 10 --fail 1@15`,
the issue-13 scenario; arguments given replace these) with the runtime's DEBUG log in a scratch directory, and reads
the on-CPU time of every thread of every rank JVM (the first field of /proc/PID/task/TID/schedstat, nanoseconds)
every 20 ms meanwhile. The recovery window runs from the kill (the first survivor's "rank R is dead" line minus the
report's detection) to the resume (plus the report's recovery wall). It prints the CPU per kind of thread (digits
replaced by N; Hazelcast's threads together) in that window and in the same length just before it. Must be run from
the repository root; Linux only; docs/bench.md, session 48. The sampler takes some CPU too (about a tenth of a core).
"""
import collections
import datetime
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

DEFAULT = ['--cells', '2048x2048', '--iterations', '60', '--checkpoint-every', '10', '--fail', '1@15']


def _rank_thread_cpu():
    """benchmarks/rank-thread-cpu.py as a module (its name has dashes): its rank_pids finds the rank JVMs."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rank-thread-cpu.py')
    spec = importlib.util.spec_from_file_location('rank_thread_cpu', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rank_pids = _rank_thread_cpu().rank_pids


def snapshot(pids):
    snap = {}
    for p in pids:
        try:
            tids = os.listdir(f'/proc/{p}/task')
        except OSError:
            continue
        for t in tids:
            try:
                with open(f'/proc/{p}/task/{t}/schedstat') as f:
                    ns = int(f.read().split()[0])
                with open(f'/proc/{p}/task/{t}/comm') as f:
                    comm = f.read().strip()
            except OSError:
                continue
            snap[f'{p}/{t}'] = (comm, ns)
    return snap


def sample(samples, done):
    pids, scanned = [], 0.0
    while not done.is_set():
        now = time.time()
        if now - scanned > 0.5:
            pids, scanned = rank_pids(), now
        samples.append((now, snapshot(pids)))
        time.sleep(0.02)


def kind(comm):
    if comm.startswith('hz.'):
        return 'Hazelcast'
    return re.sub(r'\d+', 'N', comm)


def cpu_between(samples, start, end):
    first = min(samples, key=lambda s: abs(s[0] - start))
    last = min(samples, key=lambda s: abs(s[0] - end))
    by_kind = collections.Counter()
    for key, (comm, ns) in last[1].items():
        before = first[1].get(key, (comm, 0))[1]
        if ns > before:
            by_kind[kind(comm)] += ns - before
    return last[0] - first[0], by_kind


def main():
    run_args = sys.argv[1:] or DEFAULT
    scratch = tempfile.mkdtemp(prefix='recovery-cpu-')
    report = os.path.join(scratch, 'report.json')
    env = dict(os.environ, DFR_JAVA_OPTS=(os.environ.get('DFR_JAVA_OPTS', '') + ' -Ddfr.log=DEBUG').strip())
    samples, done = [], threading.Event()
    sampler = threading.Thread(target=sample, args=(samples, done), daemon=True)
    sampler.start()
    try:
        subprocess.run(['./dfr', 'run', '--mode', 'processes', *run_args, '--report', report, '--rank-log-dir', scratch],
                       env=env, stdout=subprocess.DEVNULL, check=True)
    finally:
        done.set()
        sampler.join()
    recovery = json.load(open(report))['recoveries'][0]
    found = []
    for name in os.listdir(scratch):
        if name.startswith('rank-') and name.endswith('.log'):
            for line in open(os.path.join(scratch, name), errors='replace'):
                if re.search(r'rank \d+ is dead \(', line):
                    found.append(line[:12])
                    break
    if not found:
        sys.exit('no "is dead" line in the rank logs of ' + scratch)
    day = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    detected = min(datetime.datetime.fromisoformat(f'{day}T{t}+00:00').timestamp() for t in found)
    kill = detected - recovery['detectionMillis'] / 1000
    resume = detected + recovery['wallMillis'] / 1000
    length = resume - kill
    window, during = cpu_between(samples, kill, resume)
    _, before = cpu_between(samples, kill - length - 0.05, kill - 0.05)
    print(f'recovery window {length * 1000:.0f} ms (sampled {window * 1000:.0f} ms), logs in {scratch}')
    print(f'{"threads":<28}{"recovery":>12}{"before":>12}')
    for k, _ in (during + before).most_common():
        print(f'{k:<28}{during[k] / 1e6:>10.1f} ms{before[k] / 1e6:>10.1f} ms')
    print(f'{"all":<28}{sum(during.values()) / 1e6:>10.1f} ms{sum(before.values()) / 1e6:>10.1f} ms')


if __name__ == '__main__':
    main()
