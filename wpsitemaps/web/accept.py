"""What a request accepts, read from its headers once per request (`Wants`, kept on `g`):
the browser's HTML view (web.xslt) and gzip in transit (RFC 9110 12.5.3)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import g
from flask import request

from wpsitemaps.web.xslt import wants_html


@dataclass(frozen=True)
class Wants:
    """What this request takes: the browser's HTML view, and gzip in transit."""

    html: bool
    gzip: bool


def wants() -> Wants:
    """The request's Wants, read from its headers once."""
    found: Wants | None = g.get("wpsitemaps_wants")
    if found is None:
        found = Wants(wants_html(request.headers),
                      gzip_quality(request.headers.get("Accept-Encoding")) > 0)
        g.wpsitemaps_wants = found
    return found


def gzip_quality(header: str | None) -> float:
    """The q-value Accept-Encoding gives gzip (RFC 9110 12.5.3); 0 when refused or absent.

    An explicit `gzip` (or `x-gzip`) entry wins over `*`, so `gzip;q=0, *` refuses gzip.
    No header at all means the client did not ask: we send identity.
    """
    explicit: float | None = None
    star: float | None = None
    for part in (header or "").split(","):
        token, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = max(0.0, min(1.0, float(value)))
                except ValueError:
                    q = 0.0
        name = token.strip().lower()
        if name in ("gzip", "x-gzip"):
            explicit = q if explicit is None else max(explicit, q)
        elif name == "*":
            star = q
    if explicit is not None:
        return explicit
    return star or 0.0
