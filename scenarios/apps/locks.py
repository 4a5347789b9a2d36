# locks.py: Python's threading locks contended across threads, as the apps
# session's py_locks runs it (scenarios/apps/session.tsv): a threading.Lock
# taken by 2 threads, held while they start so that each one's first
# acquire waits (a non-blocking acquire failed: contended); a
# threading.Condition passing a turn between two threads; and two
# threading.Events passing one back and forth. One line, each part printed
# as it ends: on a crash the output says how far it came.
import os
import threading

WORKERS, ROUNDS, HANDOFFS = 2, 1000, 20


def part(text):
    print(text, end="", flush=True)


def mutex():
    lock = threading.Lock()
    taken, contended = [0], [0] * WORKERS

    def work(me):
        for _ in range(ROUNDS):
            if not lock.acquire(blocking=False):
                contended[me] += 1
                lock.acquire()
            taken[0] += 1
            lock.release()

    lock.acquire()
    workers = [threading.Thread(target=work, args=(i,)) for i in range(WORKERS)]
    for t in workers:
        t.start()
    while not all(contended):
        os.sched_yield()
    lock.release()
    for t in workers:
        t.join()
    part("mutex %d of %d (%d contended), " % (taken[0], WORKERS * ROUNDS, sum(contended)))


def condition():
    changed = threading.Condition()
    state = {"turn": 0, "passed": 0}

    def other():
        for _ in range(HANDOFFS):
            with changed:
                changed.wait_for(lambda: state["turn"] == 1)
                state["turn"] = 0
                state["passed"] += 1
                changed.notify()

    t = threading.Thread(target=other)
    t.start()
    for _ in range(HANDOFFS):
        with changed:
            state["turn"] = 1
            changed.notify()
            changed.wait_for(lambda: state["turn"] == 0)
    t.join()
    part("condition %d of %d, " % (state["passed"], HANDOFFS))


def event():
    ping, pong = threading.Event(), threading.Event()
    returned = [0]

    def other():
        for _ in range(HANDOFFS):
            ping.wait()
            ping.clear()
            returned[0] += 1
            pong.set()

    t = threading.Thread(target=other)
    t.start()
    for _ in range(HANDOFFS):
        ping.set()
        pong.wait()
        pong.clear()
    t.join()
    part("event %d of %d\n" % (returned[0], HANDOFFS))


mutex()
condition()
event()
