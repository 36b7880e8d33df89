"""Small WSGI sites on 127.0.0.1 for the audit tests: a server thread and a faulty site."""

from __future__ import annotations

import threading
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import make_server
from werkzeug.wrappers import Request
from werkzeug.wrappers import Response

WSGIApp = Callable[..., Any]
URLSET = ('<?xml version="1.0" encoding="UTF-8"?>\n'
          '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{}</urlset>\n')
INDEX = ('<?xml version="1.0" encoding="UTF-8"?>\n'
         '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{}</sitemapindex>\n')


class Holder:
    """A WSGI app whose target is set after the server knows its port; counts requests."""

    def __init__(self) -> None:
        self.app: WSGIApp | None = None
        self.paths: list[str] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.paths.append(environ.get("PATH_INFO", ""))
        assert self.app is not None
        return self.app(environ, start_response)


@contextmanager
def serve() -> Iterator[tuple[str, Holder]]:
    """Serve a Holder on 127.0.0.1 (free port) in a thread; yield (base URL, holder)."""
    holder = Holder()
    server = make_server("127.0.0.1", 0, holder, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", holder
    finally:
        server.shutdown()
        thread.join(5)
        server.server_close()


def page(url: str, canonical: str | None = None, meta: str = "") -> Response:
    """An HTML page whose canonical is `canonical` (default: its own URL)."""
    link = f'<link rel="canonical" href="{canonical or url}">'
    return Response(f"<!doctype html><html><head>{meta}{link}<title>x</title></head>"
                    "<body>x</body></html>", content_type="text/html; charset=utf-8")


def urlset(locs: list[str]) -> Response:
    """A urlset of these locs."""
    body = URLSET.format("".join(f"<url><loc>{loc}</loc></url>" for loc in locs))
    return Response(body, content_type="application/xml")


def index(locs: list[str]) -> Response:
    """A sitemap index of these locs."""
    body = INDEX.format("".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs))
    return Response(body, content_type="application/xml")


def good_pages(request: Request) -> Response:
    """Any page: 200, canonical to itself (what a healthy WordPress front end does)."""
    return page(request.base_url)


def faulty_site(base: str, other: str, oversized: bool = False) -> WSGIApp:
    """A site whose sitemaps list one URL per fault; `other` is a second host."""
    pages = {
        "/ok/": lambda r: page(r.base_url),
        "/redirects/": lambda r: Response("", 301, {"Location": base + "/ok/"}),
        "/wrong-canonical/": lambda r: page(r.base_url, canonical=base + "/ok/"),
        "/noindex-header/": lambda r: _with(page(r.base_url), "X-Robots-Tag", "noindex"),
        "/noindex-meta/": lambda r: page(r.base_url, meta='<meta name="robots" '
                                         'content="noindex, follow">'),
        "/blocked": lambda r: page(r.base_url),
        "/gone/": lambda r: Response("gone", 404),
    }
    maps = {
        "/sitemap_index.xml": lambda: index([base + "/a.xml", base + "/b.xml",
                                             other + "/c.xml"]
                                            + ([base + "/big.xml"] if oversized else [])),
        "/a.xml": lambda: urlset([base + p for p in pages] + ["relative-page"]),
        "/b.xml": lambda: urlset([base + "/ok/", other + "/elsewhere/"]),
        "/big.xml": lambda: urlset([f"{base}/ok/{n}" for n in range(50_001)]),
    }
    robots = f"User-agent: *\nDisallow: /blocked$\n\nSitemap: {base}/sitemap_index.xml\n"

    @Request.application  # type: ignore[misc]
    def app(request: Request) -> Response:
        if request.path == "/robots.txt":
            return Response(robots, content_type="text/plain")
        if request.path in maps:
            return maps[request.path]()
        if request.path in pages:
            return pages[request.path](request)
        return good_pages(request)

    return app  # type: ignore[no-any-return]


def _with(resp: Response, name: str, value: str) -> Response:
    resp.headers[name] = value
    return resp
