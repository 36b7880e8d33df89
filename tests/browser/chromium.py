"""Run Debian's headless Chromium the way issue #6 prescribes: --dump-dom and --screenshot."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
NO_XSLT = "--disable-blink-features=XSLT"
TIMEOUT = 90


def find() -> str | None:
    """Path of the chromium binary, or None."""
    return shutil.which("chromium")


def _run(binary: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    """Start Chromium with the fixed flags and a fresh profile; wait for it to exit."""
    with tempfile.TemporaryDirectory(prefix="wpsm-chromium-") as profile:
        cmd = [binary, *FLAGS, f"--user-data-dir={profile}", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, check=True)


def dump_dom(binary: str, url: str, *, xslt: bool = True, extra: tuple[str, ...] = ()) -> str:
    """The serialized DOM of `url` after load, with the browser's XSLT on or off."""
    args = [*([] if xslt else [NO_XSLT]), *extra, "--dump-dom", url]
    return _run(binary, args).stdout


def screenshot(binary: str, url: str, out: Path, *, xslt: bool = True,
               size: str = "1000,800") -> Path:
    """Write a PNG of `url` at the given window size."""
    args = [*([] if xslt else [NO_XSLT]), f"--window-size={size}", "--hide-scrollbars",
            f"--screenshot={out}", url]
    _run(binary, args)
    return out
