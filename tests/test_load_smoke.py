"""A short run of bench/load.py (5 clients, 3 s), so the load test cannot rot."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench" / "load.py"


def load_module() -> Any:
    """Import bench/load.py (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_load_smoke() -> None:
    """gunicorn serves 5 clients for 3 s with no errors and complete documents."""
    result = load_module().run(clients=5, duration=3, workers=2, posts=200)
    assert result["requests"] > 10
    assert result["errors"] == 0, result
    assert result["statuses"] == {200: result["requests"]}
    assert result["server_errors_logged"] == 0
    assert len(result["worker_rss_mb"]) == 2
