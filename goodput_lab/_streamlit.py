"""``python -m goodput_lab._streamlit run APP [flags]``: ``streamlit run`` that makes no
outbound request.

Streamlit, when it is not told a specific address to serve on, looks up the machine's public
address at start-up (an HTTP request to an outside service) and its LAN address (a UDP
socket towards a public resolver), to print "External URL" and "Network URL" lines and to
match cross-origin requests.  A dashboard of a company's cluster costs and failure logs
should not announce itself to anyone: both lookups answer "unknown" here, so Streamlit
prints the local URL only, whatever ``--server.address`` is.  ``goodput dashboard`` and
``python3 tasks.py dashboard`` start the app through this module; usage statistics are off
in the settings (``browser.gatherUsageStats = false``).
"""

from __future__ import annotations

import sys


def _unknown() -> None:
    return None


def main(argv: list[str] | None = None) -> None:
    from streamlit import net_util

    net_util.get_external_ip = _unknown
    net_util.get_internal_ip = _unknown
    from streamlit.web import cli

    sys.argv = ["streamlit", *(sys.argv[1:] if argv is None else argv)]
    cli.main(prog_name="streamlit")  # click: exits with the server's status


if __name__ == "__main__":
    main()
