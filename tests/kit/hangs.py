"""What a hung test leaves behind: pytest-timeout's signal method, plus every asyncio task's
await chain.

pytest-timeout's "thread" method ends the worker with `os._exit`, and pytest-xdist's
`--dist loadfile` then waits forever for the replacement worker (a clean-clone CI run sat
there until its 90 minutes were up, with nothing said). The "signal" method fails the test
and the run goes on; but a test waiting on a socket waits in the event loop's `select`, so
the threads' stacks say nothing about what it waits for. The await chain of each task, on
every running loop (the test's, and each in-process server's), does.
"""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import threading
import traceback
import types
from pathlib import Path
from typing import Any

import pytest

_ARMED = pytest.StashKey[bool]()
# The first words of a hung test's failure (a TimeoutError of a test's own is no hang).
HUNG = "Hung for more than"
ROOT = str(Path(__file__).resolve().parents[2])
# How many of our own frames the failure's message names: CI shows the tail of the output.
_WHERE_LINES = 8


def set_timer(item: pytest.Item, settings: Any) -> bool | None:
    if (
        settings.method != "signal"
        or not settings.timeout
        or threading.current_thread() is not threading.main_thread()
    ):
        return None  # pytest-timeout's own method

    def on_alarm(signum: int, frame: types.FrameType | None) -> None:
        __tracebackhide__ = True
        terminal = item.config.get_terminal_writer()
        terminal.sep("+", title=f"timeout: {item.nodeid}")
        terminal.write(thread_stacks() + task_chains())
        terminal.sep("+", title="timeout")
        pytest.fail(f"{HUNG} {settings.timeout:g} s, waiting at:\n{_where(frame)}")

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout)
    item.stash[_ARMED] = True
    return True


def cancel_timer(item: pytest.Item) -> bool | None:
    if not item.stash.get(_ARMED, False):
        return None  # not ours (or never set: a skip in setup)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    item.stash[_ARMED] = False
    return True


def terminal_summary(reporter: Any) -> None:
    """Repeat each hung test's "waiting at" just above the short summary, where the tail
    of a CI log still shows it."""
    for report in [*reporter.stats.get("failed", []), *reporter.stats.get("error", [])]:
        crash = getattr(report.longrepr, "reprcrash", None)
        message = getattr(crash, "message", "").removeprefix("Failed: ")
        if message.startswith(HUNG):
            reporter.write_sep("=", f"hung: {report.nodeid}")
            reporter.write_line(message)


def _where(frame: types.FrameType | None) -> str:
    """The project's frames where the main thread's test waits, innermost last: the await
    chain of its loop's tasks, or the stack of a test that is not a coroutine."""
    loop = asyncio._get_running_loop()
    if loop is not None:
        lines = [where for task in asyncio.all_tasks(loop) for where in _await_chain(task)]
    else:
        lines = [f"{f.filename}:{f.lineno} in {f.name}" for f in traceback.extract_stack(frame)]
    ours = [line for line in lines if line.startswith(ROOT) and "/.venv/" not in line]
    return "\n".join(f"  {line.removeprefix(ROOT + '/')}" for line in ours[-_WHERE_LINES:])


def _thread_names() -> dict[int | None, str]:
    return {thread.ident: thread.name for thread in threading.enumerate()}


def thread_stacks() -> str:
    names = _thread_names()
    parts = []
    for ident, frame in sys._current_frames().items():
        if ident == threading.get_ident():
            continue  # the main thread's stack is the failure's own traceback
        parts.append(f"--- thread {names.get(ident, ident)}\n")
        parts.append("".join(traceback.format_stack(frame)))
    return "".join(parts)


def task_chains() -> str:
    parts = []
    for name, loop in _running_loops():
        parts.append(f"--- tasks of the loop in thread {name}\n")
        for task in list(asyncio.all_tasks(loop)):
            parts.append(f"  {task.get_name()}:\n")
            parts.extend(f"    {where}\n" for where in _await_chain(task))
    return "".join(parts)


def _running_loops() -> list[tuple[str, asyncio.AbstractEventLoop]]:
    """Each thread's running loop, found as the `self` of its `run_forever` frame."""
    names = _thread_names()
    loops = []
    for ident, frame in sys._current_frames().items():
        at: types.FrameType | None = frame
        while at is not None:
            owner = at.f_locals.get("self") if at.f_code.co_name == "run_forever" else None
            if isinstance(owner, asyncio.AbstractEventLoop):
                loops.append((names.get(ident, str(ident)), owner))
                break
            at = at.f_back
    return loops


def _await_chain(task: asyncio.Task[Any]) -> list[str]:
    """Where the task waits, outermost coroutine first (Task.get_stack shows only the
    outermost frame of a suspended coroutine)."""
    chain = []
    awaited: Any = task.get_coro()
    while awaited is not None:
        awaited = _generator_of(awaited)
        frame = (
            getattr(awaited, "cr_frame", None)
            or getattr(awaited, "ag_frame", None)
            or getattr(awaited, "gi_frame", None)
        )
        if frame is None:
            chain.append(f"awaits {awaited!r:.200}")
            break
        chain.append(f"{frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        awaited = (
            getattr(awaited, "cr_await", None)
            or getattr(awaited, "ag_await", None)
            or getattr(awaited, "gi_yieldfrom", None)
        )
    return chain


def _generator_of(awaited: Any) -> Any:
    """An async generator's `__anext__()` (what an async fixture's setup awaits) has no
    frame of its own: its generator, found among what it refers to, has."""
    if type(awaited).__name__ in ("async_generator_asend", "async_generator_athrow"):
        for referent in gc.get_referents(awaited):
            if isinstance(referent, types.AsyncGeneratorType):
                return referent
    return awaited
