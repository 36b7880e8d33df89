"""Rows the database reads for one warm request of each document (MariaDB Handler_read%).

The app runs in this process (no HTTP), on the same database and settings as the server,
with the same store as the measured server when one is given; after two warm-up requests,
tests/support/handlers.py reads `SHOW SESSION STATUS LIKE 'Handler_read%'` on the request's
connection before and after one more request. tests/test_rows_examined.py asserts the same
figures are flat between 2,000 and 20,000 posts; the bench shows them at 100k and 1M.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.handlers import HandlerReads  # noqa: E402
from tests.support.handlers import rows_read  # noqa: E402
from wpsitemaps import create_app  # noqa: E402
from wpsitemaps.changes.model import SourceHealth  # noqa: E402
from wpsitemaps.demo.run import DEMO_CONFIG  # noqa: E402
from wpsitemaps.web.context import service_of  # noqa: E402


def rows_examined(db: str, paths: dict[str, str], tmp: Path, store: str = "off",
                  per_page: int = 0, settings: dict[str, str] | None = None,
                  live_source: str | None = None) -> dict[str, int]:
    """{label: Handler_read% total of one warm request of path}; `settings`: extra
    create_app() keys (e.g. a change source), overriding these; `live_source`: an event
    source reported healthy before each request, as its notification endpoint does on a beat."""
    toml = tmp / "rows.toml"
    toml.write_text(DEMO_CONFIG, encoding="utf-8")
    config: dict[str, object] = {
        "DATABASE_URL": f"mysql+pymysql://root@127.0.0.1/{db}?charset=utf8mb4",
        "TABLE_PREFIX": "wp_", "CONFIG": str(toml),
        "NOW": "option:demo_generated_at", "STORE": store,
        # Window 0: the measured request revalidates its stored page (the warm path
        # once the window has passed), instead of serving it without asking.
        "STORE_WINDOW": 0.0,
        # A first render at 1M posts takes longer than a request's 4 s default: the rows
        # of a request cut short would be counted otherwise.
        "DB_TIMEOUT": 600.0}
    if per_page:
        config["ENTRIES_PER_PAGE"] = per_page
    app = create_app({**config, **(settings or {})})
    client = app.test_client()
    out: dict[str, int] = {}
    service = service_of(app)
    if live_source:
        # Live before anything is stored, as under the crawl's beats (a source that comes
        # back makes every stored page be checked once).
        service.report_health(SourceHealth(live_source, True, 0.0, time.time(), "beat"))
    for label, path in paths.items():
        for _ in range(2):
            client.get(path)
        if live_source:
            service.report_health(SourceHealth(live_source, True, 0.0, time.time(), "beat"))
        reads = HandlerReads(service.engine)
        try:
            client.get(path)
        finally:
            reads.close()
        out[label] = sum(rows_read(d) for d in reads.deltas)
    return out
