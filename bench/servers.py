"""Start and stop the servers the benchmark measures: `wpsitemaps serve` and WordPress core.

Both run on 127.0.0.1. The app is started exactly as README "## Production" says (gunicorn sync
workers through `wpsitemaps serve`); WordPress is Debian's package under `php -S` with
bench/wordpress/router.php in place of wp-config.php (offline: no cron, no HTTP calls).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from wpsitemaps.demo.run import DEMO_CONFIG

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
ROUTER = BENCH / "wordpress" / "router.php"
WP_DIR = Path(os.environ.get("WPSM_WP_DIR", "/usr/share/wordpress"))


def port_free(port: int) -> bool:
    """Whether nothing listens on 127.0.0.1:port."""
    with socket.socket() as sock:
        # As gunicorn binds: a port in TIME_WAIT after the last run is free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port(preferred: int = 0) -> int:
    """`preferred` when free, else any free port."""
    if preferred and port_free(preferred):
        return preferred
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def status_of(port: int, path: str, timeout: float = 5) -> int:
    """The status of one GET on a fresh connection (body discarded)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def wait_ready(proc: subprocess.Popen[bytes], port: int, path: str, log: Path,
               timeout: float = 120) -> None:
    """Poll `path` until it answers 200; raise with the log tail if the server dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: "
                               f"{log.read_text(errors='replace')[-2000:]}")
        try:
            if status_of(port, path, timeout=timeout) == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    stop(proc)
    raise RuntimeError(f"{path} did not answer 200 within {timeout} s")


def app_env(database_url: str, config: Path, per_page: int = 0,
            store: str = "") -> dict[str, str]:
    """The environment of `wpsitemaps serve` on a demo database (clock from the database)."""
    config.write_text(DEMO_CONFIG, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WPSITEMAPS_")}
    env.update({"WPSITEMAPS_DATABASE_URL": database_url, "WPSITEMAPS_TABLE_PREFIX": "wp_",
                "WPSITEMAPS_CONFIG": str(config),
                # The demo's news posts are dated relative to its build time.
                "WPSITEMAPS_NOW": "option:demo_generated_at"})
    if per_page:
        env["WPSITEMAPS_ENTRIES_PER_PAGE"] = str(per_page)
    if store:
        env["WPSITEMAPS_STORE"] = store  # a directory, redis://..., or off (issue #13)
    return env


def start_app(database_url: str, port: int, workers: int, tmp: Path,
              per_page: int = 0, store: str = "",
              env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`wpsitemaps serve` (gunicorn, sync workers), ready when robots.txt answers 200;
    `env`: extra WPSITEMAPS_* settings of the run."""
    log = tmp / f"app-{store.rsplit('/', 1)[-1] or 'default'}.log"
    cmd = [sys.executable, "-m", "wpsitemaps.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", str(workers)]
    with log.open("wb") as err:
        full = {**app_env(database_url, tmp / "demo.toml", per_page, store), **(env or {})}
        proc = subprocess.Popen(cmd, env=full, cwd=REPO, stdout=subprocess.DEVNULL, stderr=err)
    wait_ready(proc, port, "/robots.txt", log)
    return proc


def wordpress_available() -> bool:
    """Whether `php` (with mysqli) and Debian's WordPress are installed."""
    php = shutil.which("php")
    if not php or not (WP_DIR / "wp-settings.php").is_file():
        return False
    mods = subprocess.run([php, "-m"], capture_output=True, text=True).stdout
    return "mysqli" in mods


def start_wordpress(db: str, port: int, tmp: Path) -> subprocess.Popen[bytes]:
    """WordPress core under `php -S` on the same database, ready when its sitemap answers."""
    log = tmp / "wordpress.log"
    env = {**os.environ, "WPSM_DB": db, "WPSM_HOME": f"http://127.0.0.1:{port}",
           "WPSM_WP_DIR": str(WP_DIR), "PHP_CLI_SERVER_WORKERS": "1"}
    # memory_limit as WordPress's own WP_MAX_MEMORY_LIMIT default; no opcache in php-cli
    # unless enabled, so turn it on as any production PHP has it.
    cmd = ["php", "-d", "memory_limit=256M", "-d", "opcache.enable_cli=1",
           "-d", "display_errors=stderr", "-S", f"127.0.0.1:{port}", str(ROUTER)]
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, env=env, cwd=WP_DIR, stdout=err, stderr=err)
    wait_ready(proc, port, "/wp-sitemap.xml", log, timeout=600)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server we started and wait for it."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def children(pid: int) -> list[int]:
    """PIDs whose parent is `pid` (gunicorn's workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(stat[1]) == pid:
                out.append(int(entry.name))
    return out


def peak_rss_mb(pid: int) -> float:
    """VmHWM (peak resident set size) of a process, in MB; NaN when it is gone."""
    try:
        found = re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    except OSError:
        return float("nan")
    return int(found[1]) / 1024 if found else float("nan")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (gone ones count 0)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / tick


def database_pids() -> list[int]:
    """PIDs of the local MariaDB/MySQL server (its work counts as the app's while settling)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if name in ("mariadbd", "mysqld"):
                out.append(int(entry.name))
    return out


def settle(proc: subprocess.Popen[bytes], quiet: float = 3.0, idle_cpu: float = 0.3,
           limit: float = 1800.0) -> float:
    """Wait until the app's start-up work is done: the gunicorn master, its workers and the
    database together use under `idle_cpu` CPU seconds in `quiet` seconds. Returns the
    seconds waited (the start-up refresh passes: page bounds, term and author lists, the
    video candidates' scan), or `limit` when it never settled."""
    started = time.monotonic()
    window: list[float] = []
    while time.monotonic() - started < limit:
        window.append(cpu_seconds([proc.pid, *children(proc.pid), *database_pids()]))
        window = window[-int(quiet) - 1:]
        if len(window) > quiet and window[-1] - window[0] < idle_cpu:
            return time.monotonic() - started - quiet
        time.sleep(1.0)
    return limit
