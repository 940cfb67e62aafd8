"""A throwaway PostgreSQL server for the tests, made from the installed server binaries.

`PgServer.start()` runs `initdb` and `pg_ctl` in a temporary folder (as the unprivileged user
`nobody` when the tests run as root: initdb refuses root), listening only on a unix socket in
that folder. It sets up one template database with `dealer db init`'s schema and roles; each
test gets a fresh copy (`fresh_url`) and drops it after (`drop`). Both are done in the
background by two keeper threads, each with its own connection: the maker holds `READY` copies
ahead, so a test waits only when they run out; the dropper drops what the tests let go, which
waits for the connections it closes to end (a process keeps its last connection to a log), and
so never holds up a copy. A failure in either is raised in the test that next asks for a copy.
`stop()` stops the keepers and the server and removes the folder; it is also registered with
`atexit`, so no server outlives the test run.

The folder is in memory (`/dev/shm`) when there is `ROOM` there, else in the system's temporary
folder: on a disk busy with other work a copy of the template took 0.1-0.5 s even without
syncing, in memory 20-50 ms. A server holds its template, the few databases in use and its
write-ahead log (bounded by `max_wal_size`); a `durable` server stays on disk.

Where the binaries are: `initdb` on PATH, else the newest `/usr/lib/postgresql/<ver>/bin`
(Debian's postgresql package). None found: `PgServer.start()` returns None (the tests skip,
except under CI=true, where they fail: `.ci/run` installs the server first).
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import queue
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

OWNER = "floor_owner"
"""The server's superuser, who owns the test databases (as a floor's DBA would)."""
TEMPLATE = "dealer_template"
ROOM = 1 << 30
"""The free memory (bytes in /dev/shm) a server's folder is put there with."""
READY = 2
"""How many fresh copies the maker holds ready: a test takes one while the next is made."""


def server_bin() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    versions.sort(key=lambda bindir: int(bindir.parent.name) if bindir.parent.name.isdigit() else 0)
    return versions[-1] if versions else None


class PgServer:
    """One running server in a temporary folder."""

    def __init__(self, bindir: Path, folder: Path) -> None:
        self.bindir = bindir
        self.folder = folder
        self._numbers = itertools.count(1)
        self._running = False
        self._ready: queue.Queue[str | BaseException] = queue.Queue()
        self._to_make: queue.Queue[str | None] = queue.Queue()
        self._to_drop: queue.Queue[str | None] = queue.Queue()
        self._keepers = [
            threading.Thread(target=self._keep, args=args, daemon=True)
            for args in (
                (self._to_make, f"CREATE DATABASE {{}} TEMPLATE {TEMPLATE}", True),
                (self._to_drop, "DROP DATABASE {} WITH (FORCE)", False),
            )
        ]

    @classmethod
    def start(cls, *, durable: bool = False) -> PgServer | None:
        """Start a server and make the template database; None when no binaries are found.
        The tests' server skips syncing to disk (a crash loses nothing a test needs); a
        `durable` one keeps the server's defaults (fsync, full page writes, synchronous
        commits), as a floor's server runs: the benchmarks measure that, so it makes each copy
        when asked, none ahead (nothing runs beside a measurement)."""
        bindir = server_bin()
        if bindir is None:
            return None
        place = None if durable else _in_memory()
        server = cls(bindir, Path(tempfile.mkdtemp(prefix="dealer-pg-", dir=place)))
        atexit.register(server.stop)
        if os.geteuid() == 0:
            shutil.chown(server.folder, "nobody")
        server._run(
            "initdb",
            "-D",
            str(server.data),
            "-U",
            OWNER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        options = f"-k {server.folder} -c listen_addresses='' -c max_connections=60"
        if not durable:
            options += " -c fsync=off -c full_page_writes=off -c max_wal_size=256MB"
        server._run(
            "pg_ctl",
            "-D",
            str(server.data),
            "-o",
            options,
            "-l",
            str(server.folder / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        server._running = True
        server._make_template()
        for keeper in server._keepers:
            keeper.start()
        for _ in range(0 if durable else READY):
            server._to_make.put(server._new_name())
        return server

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str, user: str = OWNER) -> str:
        """The URL of `database` on this server, as `user`."""
        return f"postgresql://{user}@/{database}?host={self.folder}"

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bindir / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "nobody", "--", *command]
        subprocess.run(command, check=True, capture_output=True, cwd=self.folder)

    def sql(self, database: str, *statements: str) -> None:
        """Run statements as the owner, each in autocommit."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)  # type: ignore[arg-type]

    def _make_template(self) -> None:
        from dealer.desk.database import init

        self.sql("postgres", f"CREATE DATABASE {TEMPLATE} ENCODING 'UTF8'")
        init(self.url(TEMPLATE))

    def _new_name(self) -> str:
        return f"t{next(self._numbers)}"

    def _keep(self, jobs: queue.Queue[str | None], statement: str, made: bool) -> None:
        """A keeper thread: runs `statement` on each database named in `jobs` until None, and
        hands each database it `made` to `fresh_url`."""
        import psycopg

        try:
            with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
                while (name := jobs.get()) is not None:
                    conn.execute(statement.format(name))  # type: ignore[arg-type]
                    if made:
                        self._ready.put(name)
        except BaseException as exc:  # handed to the test that waits for a copy
            self._ready.put(exc)

    def fresh_url(self, user: str = OWNER) -> str:
        """A new database holding an empty, initialised audit log (one the maker made ahead;
        another is made in its place)."""
        self._to_make.put(self._new_name())
        name = self._ready.get()
        if isinstance(name, BaseException):
            self._ready.put(name)  # and to every later test
            raise RuntimeError("the test server's keeper failed") from name
        return self.url(name, user)

    def copy(self, url: str) -> str:
        """A new database copied from the one at `url` (a log a module built once, copied for
        each test), closing what still connects to it: a process keeps its last connection to a
        log for the next ruling, and takes a new one when that one was closed."""
        name, source = self._new_name(), _database(url)
        self.sql(
            "postgres",
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{source}'",
            f"CREATE DATABASE {name} TEMPLATE {source}",
        )
        return self.url(name)

    def login(self, url: str, login: str, role: str = "dealer_app") -> str:
        """`url` (one `fresh_url` made, as the owner) as the login `login`, a member of `role`:
        a terminal's (dealer_app) or an auditor's (dealer_auditor); made once per server."""
        self.sql(
            "postgres",
            f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{login}') THEN "
            f'CREATE ROLE "{login}" LOGIN IN ROLE {role}; END IF; END $$',
        )
        return url.replace(f"{OWNER}@", f"{login}@")

    def drop(self, url: str) -> None:
        """Drop the database at `url` (one `fresh_url` made) in the background, closing what
        still connects to it: each is some 8 MB on disk, and a run makes hundreds."""
        self._to_drop.put(_database(url))

    def stop(self) -> None:
        """Stop the keeper and the server (at once) and remove its folder."""
        if self._running:
            self._running = False
            for jobs in (self._to_make, self._to_drop):
                jobs.put(None)
            for keeper in self._keepers:
                if keeper.is_alive():
                    keeper.join()
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def _database(url: str) -> str:
    """The database's name in a URL this server made."""
    return url.split("?", 1)[0].rsplit("/", 1)[1]


def _in_memory() -> str | None:
    """/dev/shm when it is there, writable and has `ROOM`; else None (the temporary folder)."""
    try:
        free = os.statvfs("/dev/shm")
    except OSError:
        return None
    room = free.f_bavail * free.f_frsize >= ROOM
    return "/dev/shm" if room and os.access("/dev/shm", os.W_OK) else None
