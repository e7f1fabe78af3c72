#!/usr/bin/env python3
"""How long after SIGKILL a process's listening socket refuses connections, by memory touched.

The kernel tears a killed process down in order: its address space first (exit_mm), its files and
sockets after (exit_files). So a peer can see a SIGKILLed process's connections end, and its port
refuse, only once its memory is freed: the floor of any detection through sockets.

    python3 benchmarks/socket-close-after-sigkill.py [MB ...]      (default 10 500 1500 3000)
"""
import os
import signal
import socket
import sys
import time


def child(mb, port_pipe):
    buf = bytearray(mb * 1024 * 1024)
    for i in range(0, len(buf), 4096):  # touch every page, as a JVM's used heap is
        buf[i] = 1
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(65535)  # probes are never accepted: a full queue would delay them by a SYN retry (1 s)
    os.write(port_pipe, str(s.getsockname()[1]).encode())
    os.close(port_pipe)
    time.sleep(100)


for mb in [int(a) for a in sys.argv[1:]] or [10, 500, 1500, 3000]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        child(mb, w)
        os._exit(0)
    os.close(w)
    port = int(os.read(r, 20))
    os.close(r)
    time.sleep(0.2)
    t0 = time.perf_counter()
    os.kill(pid, signal.SIGKILL)
    while True:
        c = socket.socket()
        try:
            c.connect(("127.0.0.1", port))
            c.close()
            time.sleep(0.0002)
        except ConnectionRefusedError:
            break
    t1 = time.perf_counter()
    os.waitpid(pid, 0)
    print(f"{mb} MB touched: listening socket refused {1000 * (t1 - t0):.1f} ms after SIGKILL")
