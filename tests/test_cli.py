"""The first minutes with the command (issue #25): `--version`, ports and workers checked,
a port in use named in one line before anything else is printed, no directory made behind
the user's back. Each runs `wpsitemaps` as a user does, in a subprocess."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.support.data import small_site

REPO = Path(__file__).resolve().parent.parent


def wpsitemaps(*args: str, env: dict[str, str] | None = None,
               timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """`wpsitemaps ARGS` with only `env` (and PATH) in the environment."""
    return subprocess.run([sys.executable, "-m", "wpsitemaps.cli", *args],
                          env={"PATH": "/usr/bin:/bin", **(env or {})}, capture_output=True,
                          text=True, timeout=timeout, cwd=REPO)


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port another program listens on while the test runs."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.fixture
def site_env(tmp_path: Path) -> dict[str, str]:
    """The settings of a small SQLite site."""
    return {"WPSITEMAPS_DATABASE_URL": small_site().write_sqlite(tmp_path / "site.sqlite")}


def test_version() -> None:
    """`--version` prints the installed version."""
    proc = wpsitemaps("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"wpsitemaps, version {version('wpsitemaps')}"


@pytest.mark.parametrize("port", ["0", "65536", "99999", "-1"])
def test_port_outside_the_range_is_refused(port: str, site_env: dict[str, str]) -> None:
    """A port outside 1..65535 is a usage error (exit 2), never a traceback."""
    proc = wpsitemaps("serve", "--port", port, env=site_env)
    assert proc.returncode == 2
    assert "1<=x<=65535" in proc.stderr and "Traceback" not in proc.stderr


def test_zero_workers_are_refused(site_env: dict[str, str]) -> None:
    """`--workers 0` is a usage error."""
    proc = wpsitemaps("serve", "--workers", "0", env=site_env)
    assert proc.returncode == 2 and "--workers" in proc.stderr


def test_port_in_use_is_one_line_before_anything(taken_port: int,
                                                 site_env: dict[str, str]) -> None:
    """`serve` on a port in use says so in one line, prints nothing else and starts no
    gunicorn (no seconds of retries)."""
    proc = wpsitemaps("serve", "--port", str(taken_port), env=site_env, timeout=20)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"wpsitemaps: --host/--port: cannot listen on 127.0.0.1:{taken_port}: Address already "
        "in use (port in use: is another server running there?)"]


def test_metrics_port_in_use_is_one_line(taken_port: int, site_env: dict[str, str]) -> None:
    """The metrics listener's address is checked the same way."""
    env = {**site_env, "WPSITEMAPS_METRICS_BIND": f"127.0.0.1:{taken_port}"}
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    proc = wpsitemaps("serve", "--port", str(port), env=env, timeout=20)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("wpsitemaps: metrics_bind: cannot listen on")


def test_demo_on_a_port_in_use_prints_no_url(taken_port: int, tmp_path: Path) -> None:
    """`demo` checks its port before generating or printing its URL."""
    db = tmp_path / "demo.sqlite"
    proc = wpsitemaps("demo", "--port", str(taken_port), "--db", str(db), "--size", "5")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "port in use" in proc.stderr and not db.exists()


def test_demo_makes_no_directory_for_its_db(tmp_path: Path) -> None:
    """`demo --db` into a folder that does not exist is one error line; nothing is made."""
    target = tmp_path / "nonexistent" / "dir" / "x.sqlite"
    proc = wpsitemaps("demo", "--generate-only", "--db", str(target), "--size", "5")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f"wpsitemaps: --db: {target.parent} does not exist (create it first)"]
    assert not (tmp_path / "nonexistent").exists()


def test_demo_writes_its_db_into_an_existing_folder(tmp_path: Path) -> None:
    """The same command into an existing folder generates the database."""
    target = tmp_path / "x.sqlite"
    proc = wpsitemaps("demo", "--generate-only", "--db", str(target), "--size", "5")
    assert proc.returncode == 0, proc.stderr
    assert target.is_file()
