"""``goodput dashboard`` stays on this machine: it listens on 127.0.0.1 only and makes no
outbound connection, at start-up or while its pages are used.

The server runs as users start it (``goodput dashboard``, outside the repository) with a
``sitecustomize`` that refuses, and records, every connection and name lookup that is not
loopback in it and every process it starts; the browser refuses and records every request
that leaves 127.0.0.1.  Each page must draw with no exception, none of them must have been
refused, and Streamlit must not have printed a network or external URL (which it looks up
from outside services).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from urllib.parse import urlparse

import psutil
import pytest
from goodput_lab.dashboard.navigation import PAGE_SPECS

from tests.browser.conftest import wait_idle
from tests.load.driver import free_port

pytestmark = pytest.mark.browser

#: The pages drawn (tests/browser/test_app_browser.py draws them all): the first page and the
#: one that runs the sweep engine.  A page takes 5-20 s on a shared 2-core machine, so not
#: all twelve here.
PAGES = ("overview", "sensitivity")

#: Loaded in every Python process of the server (the dashboard, Streamlit, Dask workers).
SITECUSTOMIZE = """
import errno, ipaddress, os, socket

_LOG = os.environ["GOODPUT_REFUSED_LOG"]
_connect, _connect_ex, _getaddrinfo = socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo


def _loopback(host):
    if host in (None, "", "localhost", b"localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host, "ascii") if isinstance(host, bytes) else host.split("%")[0]).is_loopback
    except ValueError:
        return False


def _refuse(what):
    with open(_LOG, "a") as f:
        f.write(f"{os.getpid()} {what}\\n")


def connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
        _refuse(f"connect {address!r}")
        raise ConnectionRefusedError(errno.ECONNREFUSED, "outbound connection refused (test)")
    return _connect(self, address)


def connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(address[0]):
        _refuse(f"connect_ex {address!r}")
        return errno.ECONNREFUSED
    return _connect_ex(self, address)


def getaddrinfo(host, *args, **kwargs):
    if not _loopback(host):
        _refuse(f"getaddrinfo {host!r}")
        raise socket.gaierror(socket.EAI_NONAME, "name lookup refused (test)")
    return _getaddrinfo(host, *args, **kwargs)


socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo = connect, connect_ex, getaddrinfo
"""


@pytest.fixture(scope="module")
def local_dashboard(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("local")
    (tmp / "site").mkdir()
    (tmp / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    refused = tmp / "refused.log"
    refused.touch()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(tmp / "site"), os.environ.get("PYTHONPATH")])
        ),
        "GOODPUT_REFUSED_LOG": str(refused),
    }
    port = free_port()
    log = tmp / "server.log"
    start = time.monotonic()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "goodput_lab._console", "dashboard", "--port", str(port)],
            cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() - start > 120:
                pytest.fail(f"goodput dashboard did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield {"url": url, "port": port, "proc": proc, "log": log, "refused": refused,
               "started_s": time.monotonic() - start}  # fmt: skip
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _listening(pid: int) -> set[str]:
    """``ip:port`` of every socket the server's processes listen on."""
    procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    found: set[str] = set()
    for p in procs:
        try:
            conns = p.net_connections(kind="inet")
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        found |= {f"{c.laddr.ip}:{c.laddr.port}" for c in conns if c.status == psutil.CONN_LISTEN}
    return found


def test_pages_serve_with_outbound_connections_refused_on_loopback_only(local_dashboard, browser):
    blocked: list[str] = []

    def route(r):
        if urlparse(r.request.url).hostname in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(60_000)
    times = {}
    try:
        for spec in [s for s in PAGE_SPECS if s.slug in PAGES]:
            t = time.monotonic()
            page.goto(local_dashboard["url"] + ("/" if spec is PAGE_SPECS[0] else f"/{spec.slug}"))
            wait_idle(page, settle_ms=200)
            times[spec.slug] = time.monotonic() - t
            assert page.locator('[data-testid="stMain"] h1').count() >= 1, spec.slug
    finally:
        context.close()
    # after the pages, so that whatever they started (the engine's cluster) is listening too
    listening = _listening(local_dashboard["proc"].pid)
    assert f"127.0.0.1:{local_dashboard['port']}" in listening
    assert all(a.startswith("127.0.0.1:") for a in listening), listening
    refused = local_dashboard["refused"].read_text()
    log = local_dashboard["log"].read_text()
    assert refused == "", refused
    assert blocked == []
    assert "External URL" not in log and "Network URL" not in log, log
    assert f"URL: http://127.0.0.1:{local_dashboard['port']}" in log, log
    assert "Traceback" not in log, log[-3000:]
    # no delay: a start-up that waited on a lookup would show here (timeouts of 1-5 s each)
    assert local_dashboard["started_s"] < 60, local_dashboard["started_s"]
    assert len(times) == len(PAGES) and max(times.values()) < 60, times


def test_the_refusing_hook_works(tmp_path):
    """The check can fail: with the hook, a connection to a public address is refused and
    recorded (no packet leaves: the refusal comes before the system call)."""
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE)
    log = tmp_path / "refused.log"
    code = (
        "import socket\n"
        "s = socket.socket()\n"
        "try:\n    s.connect(('203.0.113.9', 80))\nexcept ConnectionRefusedError:\n    print('refused')\n"
        "try:\n    socket.getaddrinfo('checkip.amazonaws.com', 80)\nexcept socket.gaierror:\n    print('no lookup')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "GOODPUT_REFUSED_LOG": str(log)}
    res = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert res.stdout.split() == ["refused", "no", "lookup"], res.stderr
    assert "203.0.113.9" in log.read_text() and "checkip.amazonaws.com" in log.read_text()
