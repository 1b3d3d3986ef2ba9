"""The ``goodput`` console script: Ctrl-C exits with status 130 and no traceback.

The command line's modules import numpy and scipy, which takes a few seconds on a cold
start.  An interrupt during those imports cannot be caught as KeyboardInterrupt (numpy turns
it into an ImportError), so until they are loaded a SIGINT handler exits at once: nothing
has been written yet.  Then Python's own handler is back, and
:func:`goodput_lab.cli.main.main` turns an interrupt during the work into the same
quiet exit after ``finally`` blocks have removed any temporary file.

A command that reaches for an optional library the install lacks (streamlit, plotly or
playwright: the ``[dashboard]`` and ``[pdf]`` extras) ends with one line naming the extra to
install and status 2, never a traceback.  The commands check first where they can
(``goodput dashboard``, ``goodput report``); this is the net under the rest.
"""

from __future__ import annotations

import os
import signal
import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it
EXIT_USAGE = 2


def _exit_now(signum, frame) -> None:  # pragma: no cover - exercised in a subprocess
    sys.stderr.write("goodput: interrupted\n")
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def main(argv: list[str] | None = None) -> int:
    watching = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if watching:
        signal.signal(signal.SIGINT, _exit_now)
    try:
        from goodput_lab.cli.main import main as cli_main
    finally:
        if watching:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return cli_main(argv)
    except ModuleNotFoundError as exc:
        from goodput_lab._extras import extra_for_import_error, missing_extra_message

        extra = extra_for_import_error(exc)
        if extra is None:
            raise
        sys.stderr.write(f"goodput: {missing_extra_message(extra, [exc.name.split('.')[0]])}\n")
        return EXIT_USAGE


if __name__ == "__main__":
    raise SystemExit(main())
