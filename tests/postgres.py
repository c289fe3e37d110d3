"""A throwaway PostgreSQL server for the storage tests: started on loopback in a temp dir.

Why a real server: the store's SQL must behave the same on both databases (row counts,
unique keys, `RETURNING`, transactions), and only PostgreSQL itself can say so.  The server
binaries come from the system packages (`.ci/run` installs them when missing); a test
never skips for want of them: it fails and says how to install them.

PostgreSQL refuses to run as root, so under root the server runs as the `postgres` system
user (created by the package) through `runuser`.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SERVER_USER = "postgres"
DATABASE_USER = "boneyard"
PORT_ATTEMPTS = 3


def find_bindir() -> Path:
    """The directory of `initdb` and `pg_ctl` (PG_BINDIR wins; then the newest installed)."""
    candidates = [os.environ.get("PG_BINDIR", "")]
    installed = Path("/usr/lib/postgresql").glob("*/bin")
    candidates += [str(p) for p in sorted(installed, key=lambda p: int(p.parent.name), reverse=True)]
    which = shutil.which("initdb")
    if which:
        candidates.append(str(Path(which).parent))
    for candidate in candidates:
        if candidate and (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    raise RuntimeError(
        "PostgreSQL server binaries not found (initdb, pg_ctl): install them with "
        "`apt-get install postgresql` (as .ci/run does) or set PG_BINDIR."
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    def __init__(self, *, durable: bool = False) -> None:
        """`durable`: PostgreSQL's own defaults (fsync, synchronous_commit and full-page writes
        on: every commit waits for its WAL flush), for benches whose figures must hold in
        production; the tests' server skips the flushes (the data is thrown away)."""
        self.durable = durable
        self.bindir = find_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="boneyard-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._as_root = os.geteuid() == 0
        if self._as_root:
            shutil.chown(self.root, SERVER_USER)

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._as_root:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", DATABASE_USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        for attempt in range(PORT_ATTEMPTS):
            try:
                self.resume()
                return
            except RuntimeError:
                if attempt == PORT_ATTEMPTS - 1:
                    raise
                # The free port was taken before the server bound it (by another test worker's
                # server, say): try another.
                self.port = _free_port()

    def halt(self) -> None:
        """Stop the server as an outage does (connections cut at once), keeping its data."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        """(Re)start the server on the same port and data, waiting until it accepts connections."""
        options = f"-p {self.port} -h 127.0.0.1 -k {self.root}"
        if not self.durable:
            options += " -F -c fsync=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "server.log"), "-w", "start")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{DATABASE_USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def running_server() -> Iterator[PostgresServer]:
    """A throwaway server, started (about a second) and stopped afterwards, whatever happens."""
    server = PostgresServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
