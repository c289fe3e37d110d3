"""The two-process bench's per-core run: each process and its server backends on a core of their own.

The bench's scaling figure is only meaningful if the pinning really holds the database
work of process i on core i, so this checks it on the real throwaway server.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time

import asyncpg

from bench.processes import _named, _wait
from tests.postgres import PostgresServer

_CLIENT = """
import asyncio, sys, asyncpg
async def main():
    connection = await asyncpg.connect(sys.argv[1])
    print("connected", flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


async def _backend_cores(admin_url: str) -> dict[str, set[int]]:
    connection = await asyncpg.connect(admin_url)
    try:
        rows = await connection.fetch("SELECT pid, application_name FROM pg_stat_activity")
    finally:
        await connection.close()
    return {
        str(r["application_name"]): os.sched_getaffinity(int(r["pid"]))
        for r in rows
        if str(r["application_name"]).startswith("bench_")
    }


def test_each_bench_process_and_its_backends_run_on_their_own_core(postgres_server: PostgresServer) -> None:
    assert len(os.sched_getaffinity(0)) >= 2, "the per-core run needs two cores"
    admin_url = postgres_server.url()
    clients = [
        subprocess.Popen(
            [sys.executable, "-c", _CLIENT, _named(admin_url, f"bench_{i}")], stdout=subprocess.PIPE, text=True
        )
        for i in range(2)
    ]
    try:
        for client in clients:
            assert client.stdout is not None and client.stdout.readline().strip() == "connected"
        _wait(clients, admin_url, time.time() + 0.5)
        assert [os.sched_getaffinity(c.pid) for c in clients] == [{0}, {1}]
        assert asyncio.run(_backend_cores(admin_url)) == {"bench_0": {0}, "bench_1": {1}}
    finally:
        for client in clients:
            client.kill()
            client.wait()


def test_a_named_url_keeps_its_other_parameters() -> None:
    assert _named("postgresql://h/db", "bench_0") == "postgresql://h/db?application_name=bench_0"
    assert _named("postgresql://h/db?sslmode=disable", "bench_1").endswith("?sslmode=disable&application_name=bench_1")
