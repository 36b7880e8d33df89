"""The caching headers every sitemap and stylesheet carries (rendered or served from the store)."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from werkzeug.wrappers.response import Response as BaseResponse

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def set_headers(resp: BaseResponse, etag: str, lastmod: datetime | None) -> BaseResponse:
    """Vary, X-Robots-Tag, Cache-Control, Last-Modified and ETag (a strong tag)."""
    resp.vary.update(("Sec-Fetch-Dest", "Sec-Fetch-Mode"))
    resp.headers["X-Robots-Tag"] = "noindex, follow"
    resp.headers["Cache-Control"] = "public, max-age=300"
    # Empty documents have no date of their own; the epoch is stable, and the ETag still
    # changes with the content.
    resp.last_modified = (lastmod or EPOCH).replace(microsecond=0)
    resp.set_etag(etag)
    return resp
