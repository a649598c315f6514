"""A sweep: the games cut into batches of a fixed size and mapped over an executor.

The batches do not depend on how many workers there are, each game's seed comes from the
sweep's seed and the game's number alone, and the results are put back in game order: the same
seed gives the same records with 1 job, 2 jobs or a Dask cluster. Local processes by default
(concurrent.futures); a Dask cluster when its address is given (an optional extra).
"""

import concurrent.futures
import os
import signal

from cheeseboard.lab.runner import play_batch

BATCH = 25  # games per task: big enough to pay for the trip, small enough to spread
CONNECT_S = 5  # how long a Dask scheduler has to answer
LOOK_S = 0.2  # how often the lab looks for a Ctrl-C while its workers play


class SweepError(Exception):
    """The sweep cannot run (a Dask address that does not answer, say)."""


def batches(games):
    """(first, count) of each batch, in game order."""
    return [(first, min(BATCH, games - first)) for first in range(0, games, BATCH)]


def run(spec, games, jobs=1, dask=None, progress=None):
    """Every game's record, in game order. progress(k) is called as k more games are done."""
    cuts = batches(games)
    if dask:
        results = _on_dask(dask, spec, cuts, progress)
    elif jobs <= 1:
        results = []
        for first, count in cuts:
            results.append(play_batch(spec, first, count))
            if progress:
                progress(count)
    else:
        results = _on_processes(jobs, spec, cuts, progress)
    return [record for batch in results for record in batch]


def _on_processes(jobs, spec, cuts, progress):
    # A terminal's Ctrl-C reaches every process of the group. A worker just ends, at once
    # (wherever it is, its start included: it inherits this handler), where Python would print
    # its traceback; it holds nothing to put away. The lab's own notes it and stops at its next
    # look. Raised from the handler, an exception could fall in a callback run at a worker's
    # start (logging's in the lab, threading's in the worker), where Python only reports it.
    lab = os.getpid()
    interrupted = []

    def ctrl_c(signum, frame):
        if os.getpid() != lab:
            os._exit(130)
        interrupted.append(signum)

    previous = signal.signal(signal.SIGINT, ctrl_c)
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs)
    try:
        futures = [pool.submit(play_batch, spec, first, count) for first, count in cuts]
        games = {future: count for future, (_, count) in zip(futures, cuts, strict=True)}
        playing = set(futures)
        while playing and not interrupted:
            done, playing = concurrent.futures.wait(
                playing, timeout=LOOK_S, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                future.result()  # a worker's error, raised here
                if progress:
                    progress(games[future])
    except concurrent.futures.process.BrokenProcessPool:
        if not interrupted:  # else the workers ended on the Ctrl-C, as they should
            raise
    finally:
        # On the way out for any reason (a Ctrl-C, a worker's error), the batches not yet
        # begun are dropped: a plain `with` would play every one of them first.
        pool.shutdown(wait=True, cancel_futures=True)
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt
    return [f.result() for f in futures]


def _on_dask(address, spec, cuts, progress):
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise SweepError("--dask needs Dask: pip install 'cheeseboard[lab-dask]'") from None
    try:
        client = Client(address, timeout=CONNECT_S)
    except (OSError, TimeoutError, ValueError) as e:
        raise SweepError("cannot reach the Dask scheduler at %s: %s" % (address, e)) from None
    try:
        futures = [client.submit(play_batch, spec, first, count, pure=False)
                   for first, count in cuts]
        sizes = {f.key: count for f, (_, count) in zip(futures, cuts, strict=True)}
        for future in as_completed(futures):
            if progress:
                progress(sizes[future.key])
        return client.gather(futures)
    finally:
        client.close()
