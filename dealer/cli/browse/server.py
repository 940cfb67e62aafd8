"""The browser's server: Datasette over a verified copy of the audit log, with our plugin, on a
socket bound before it starts (so the address printed is the one served, a free port by
default).

Decisions: the log is copied as it stands, its WAL included, into a private temporary folder
(0700, removed when the server stops) and verified there (`dealer.desk.browse.verified_copy`);
Datasette and the dealer pages read that copy alone, read-only (`mode=ro`: never `immutable`,
which would ignore a WAL), so every view shows what verify checked. Arbitrary SQL is off
(`default_allow_sql`), since a hand-written query could run long; canned queries are fixed,
read-only SQL, written in the audit layer (`dealer.audit.browser_queries`) and handed over by
the desk; the `users` table is denied and the database file cannot be downloaded (the copy
holds the PINs only withheld, as every copy for reading does, and the pages are what is
served). Ctrl-C stops the server: uvicorn
closes the connections and the command returns normally."""

from __future__ import annotations

import socket
import tempfile
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from datasette.app import Datasette

from dealer.cli.browse.plugin import DealerPlugin, allowed_hosts
from dealer.desk.browse import CANNED_QUERIES, ChainState, verified_copy
from dealer.kernel.errors import DealerError

SETTINGS: dict[str, Any] = {
    "default_allow_sql": False,
    "allow_download": False,
    "sql_time_limit_ms": 2000,
}
"""No hand-written SQL, no download of the file, a time limit on every query."""


def build(db: Path, chain: ChainState, hosts: frozenset[str], rounds: int) -> Datasette:
    """Datasette serving the copy `db` read-only with our plugin (`chain`: what verify found on
    it; `hosts`: the `Host` headers answered; `rounds`: the statistics' simulated rounds)."""
    from datasette.plugins import pm

    pm.set_blocked("datasette.handle_exception")  # ours renders every error page
    pm.register(DealerPlugin(db, chain, hosts, rounds), name="dealer-browse")
    metadata = {
        "title": "dealer: the audit log",
        "allow_sql": False,
        "databases": {
            db.stem: {"queries": CANNED_QUERIES, "tables": {"users": {"allow": False}}},
        },
    }
    return Datasette(files=[str(db)], settings=SETTINGS, metadata=metadata)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port` (0: a free port chosen by the system); DealerError
    naming them when it cannot be had (in use, not an address of this machine)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise DealerError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return sock


def address(sock: socket.socket) -> str:
    """The address a browser opens for the bound socket."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/-/dealer" if ":" in host else f"http://{host}:{port}/-/dealer"


def serve(
    db: Path,
    host: str,
    port: int,
    *,
    open_browser: bool,
    announce: Callable[[str], None],
    rounds: int,
) -> None:
    """Serve a verified copy of `db` until Ctrl-C; `announce` the address once listening (then
    open a browser on it unless told not to). The socket is bound first: a port in use is
    refused before the log is read. The copy is removed when the server stops. The statistics
    pages simulate the base wager's edge over `rounds` rounds (as `dealer stats --rounds`)."""
    sock = bind(host, port)
    try:
        with tempfile.TemporaryDirectory(prefix="dealer-browse-") as folder:
            _serve(db, Path(folder), sock, host, open_browser, announce, rounds)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def _serve(
    db: Path,
    folder: Path,
    sock: socket.socket,
    host: str,
    open_browser: bool,
    announce: Callable[[str], None],
    rounds: int,
) -> None:
    copy, chain = verified_copy(db, folder)
    bound, port = sock.getsockname()[:2]
    hosts = allowed_hosts(host, port) | allowed_hosts(bound, port)  # the address printed too
    server = uvicorn.Server(
        uvicorn.Config(build(copy, chain, hosts, rounds).app(), log_level="warning", lifespan="off")
    )
    url = address(sock)
    announce(url)
    if open_browser:
        webbrowser.open(url)
    server.run(sockets=[sock])
