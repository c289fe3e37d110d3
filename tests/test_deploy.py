"""The deployment files say what the README says: the same install and run commands, the same
database location, the exit statuses the entry point really uses, and pinned versions that
satisfy pyproject.toml.  (No container engine runs here; these keep the files from drifting.)"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.__main__ import EXIT_DATABASE, EXIT_SETTINGS
from bot.infra.shards import ShardLayout
from tests.test_readme import ROOT, _setup_commands


def readme_run_command() -> list[str]:
    """The README's first command split at `&&`: create the venv, install, run."""
    steps = [step.strip() for step in _setup_commands()[0].split("&&")]
    assert len(steps) == 3, steps
    return steps


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text()


def instruction(text: str, name: str) -> list[str]:
    """The arguments of every Dockerfile instruction `name` (continuation lines joined)."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line.split(None, 1)[1].strip() for line in joined.splitlines() if line.startswith(f"{name} ")]


def unit(name: str) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            values.setdefault(key, []).append(value)
    return values


def test_the_dockerfile_installs_and_runs_with_the_readme_commands() -> None:
    venv, install, run = readme_run_command()
    assert f"{venv} && {install}" in instruction(dockerfile(), "RUN")
    (cmd,) = instruction(dockerfile(), "CMD")
    assert json.loads(cmd) == run.split()


def test_the_image_is_slim_runs_as_a_user_and_keeps_the_database_on_its_volume() -> None:
    (base,) = instruction(dockerfile(), "FROM")
    assert re.fullmatch(r"python:3\.(\d+)-slim", base)
    assert int(base.split(".")[1].split("-")[0]) >= 11  # requires-python >= 3.11
    (user,) = instruction(dockerfile(), "USER")
    assert user not in ("root", "0")
    (volume,) = instruction(dockerfile(), "VOLUME")
    (environment,) = [line for line in instruction(dockerfile(), "ENV") if "DATABASE_PATH" in line]
    database = re.search(r"DATABASE_PATH=(\S+)", environment)
    assert database is not None and str(Path(database[1]).parent) == volume
    for copied in instruction(dockerfile(), "COPY"):
        for source in copied.split()[:-1]:
            assert (ROOT / source).exists(), f"COPY {source}: no such file"


def test_compose_mounts_the_volume_the_image_declares() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    (volume,) = instruction(dockerfile(), "VOLUME")
    assert re.search(rf"^\s+- boneyard-data:{re.escape(volume)}$", compose, re.MULTILINE)
    assert re.search(rf"DATABASE_PATH: {re.escape(volume)}/boneyard\.sqlite3", compose)
    assert "env_file: .env" in compose


def test_the_build_context_leaves_secrets_and_databases_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ".env" in ignored and "*.sqlite3*" in ignored and ".venv" in ignored


def test_the_systemd_unit_runs_the_readme_command_and_stops_restarting_on_permanent_errors() -> None:
    service = unit("boneyard.service")
    (directory,) = service["WorkingDirectory"]
    _, install, run = readme_run_command()
    assert service["ExecStart"] == [f"{directory}/{run}"]
    assert {int(code) for code in service["RestartPreventExitStatus"][0].split()} == {EXIT_SETTINGS, EXIT_DATABASE}
    assert service["Restart"] == ["on-failure"] and service["User"] == ["boneyard"]
    header = (ROOT / "deploy" / "boneyard.service").read_text()
    assert install in header, "the install steps use the README's install command"

    backup = unit("boneyard-backup.service")
    assert backup["ExecStart"] == [f"{directory}/{run} backup /var/lib/boneyard/backups"]
    assert backup["Environment"] == service["Environment"]


def test_every_dependency_is_pinned_within_its_pyproject_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(text) for text in project["dependencies"] + project["optional-dependencies"]["test"]]
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line}"
            pins[canonicalize_name(name)] = version
    for requirement in wanted:
        pinned = pins.get(canonicalize_name(requirement.name))
        assert pinned is not None, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned), f"{requirement.name}=={pinned} is outside {requirement}"


def test_the_license_is_the_mit_license_pyproject_names() -> None:
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def test_the_postgres_compose_file_runs_every_shard_once_on_postgresql() -> None:
    """compose.postgres.yaml: one process per shard id, all with the same SHARD_COUNT, every id
    from 0 to SHARD_COUNT-1 run once (else some servers' clocks would never fire), each a valid
    layout for the settings check, and all on PostgreSQL (two processes cannot share SQLite)."""
    text = (ROOT / "compose.postgres.yaml").read_text()
    counts = {int(n) for n in re.findall(r'SHARD_COUNT: "(\d+)"', text)}
    ids = [int(n) for n in re.findall(r'SHARD_IDS: "(\d+)"', text)]
    assert len(counts) == 1, counts
    (count,) = counts
    assert count > 1 and sorted(ids) == list(range(count))
    for shard in ids:
        assert ShardLayout.parse(str(count), str(shard)).ids == frozenset({shard})
    assert text.count("DATABASE_URL: postgresql://") == count
