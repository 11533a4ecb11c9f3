"""Processes that die with the command that started them, ``kill -9`` included.

A process killed with SIGKILL runs no cleanup, so whatever it started keeps running unless the children
notice by themselves. Two mechanisms, one per kind of child:

- **Children we start** (``encode --workers N``: multiprocessing *spawn* workers) call :func:`die_with_parent`
  first: on Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` has the kernel kill the child the moment its parent
  dies; everywhere, a daemon thread checks every half second that the parent is still its parent (a child
  whose parent died is re-parented) and ends the process if not.
- **Processes a library starts for us** (``--engine ray``: ``ray.init()`` starts a GCS server, a raylet, and
  a dashboard agent and a runtime-env agent under the raylet; after the driver is SIGKILLed the first two die
  with it but the agents were measured alive 40 s later): :func:`start_reaper` starts a small watchdog process
  that records this process's descendants (pid and start time) twice a second, and when this process is gone
  (its end of a pipe closes, which the kernel does on any death) sends them SIGTERM, then SIGKILL to those
  still running 3 s later. A pid that was reused by another program is never touched (its start time differs).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
import time

__all__ = ["die_with_parent", "start_reaper"]

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_S = 0.5
GRACE_S = 3.0

_reaper: subprocess.Popen[bytes] | None = None


def die_with_parent(parent_pid: int) -> None:
    """Call first thing in a child process: it ends (SIGKILL) when ``parent_pid`` dies."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the line above: nobody will signal us
        os._exit(1)
    threading.Thread(
        target=_watch_parent, args=(parent_pid,), daemon=True, name="lingualite-lifeline"
    ).start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_S)
    os._exit(1)


def start_reaper() -> None:
    """Start (once per process) the watchdog that ends this process's descendants when it dies."""
    global _reaper
    if _reaper is not None and _reaper.poll() is None:
        return
    _reaper = subprocess.Popen(
        [sys.executable, "-m", "lingualite.encoding.lifeline", str(os.getpid())],
        stdin=subprocess.PIPE,  # our end closes when we die, however we die
        stdout=subprocess.DEVNULL,  # not our stdout: `lingualite encode ... | tail` must not wait for it
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # not killed with us by a terminal's Ctrl-C or hang-up: it has work to do then
        close_fds=True,
    )


def _descendants(pid: int) -> dict[int, float]:
    import psutil

    try:
        return {p.pid: p.create_time() for p in psutil.Process(pid).children(recursive=True)}
    except psutil.Error:
        return {}


def _reap(watched: int) -> None:
    """The watchdog's main loop: record ``watched``'s descendants until it dies, then end them."""
    import psutil

    me, seen = os.getpid(), {}
    stdin_closed = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), stdin_closed.set()), daemon=True).start()
    while not stdin_closed.is_set() and psutil.pid_exists(watched):
        seen.update((pid, started) for pid, started in _descendants(watched).items() if pid != me)
        stdin_closed.wait(POLL_S)
    alive = []
    for pid, started in seen.items():
        with contextlib.suppress(psutil.Error):
            process = psutil.Process(pid)
            if process.create_time() == started:  # the same process, not a reused pid
                process.terminate()
                alive.append(process)
    _, still = psutil.wait_procs(alive, timeout=GRACE_S)
    for process in still:
        with contextlib.suppress(psutil.Error):
            process.kill()


if __name__ == "__main__":
    _reap(int(sys.argv[1]))
