"""The headless API's own URL scheme: `{baseUrl}/detail/{dataType}/{id}/{slug}`.

A front end's URL, not a WordPress permalink, so it lives here and not in wordpress.permalinks.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from slugify import slugify

HTML_TAG_RE = re.compile(r"<[^>]*>")
MAX_DETAIL_SLUG = 120


def detail_slug(title: str) -> str:
    """Slug of a headless detail URL: ASCII lower case, '-' between words, <= 120 characters.

    Tags are stripped first, as sanitize_title() does. The cut keeps whole words
    (word_boundary) in their order (save_order); a first word longer than 120 characters is
    cut at 120.
    """
    text = HTML_TAG_RE.sub(" ", title)
    slug: str = slugify(text, max_length=MAX_DETAIL_SLUG, word_boundary=True, save_order=True)
    return slug


def detail_url(base_url: str, data_type: str, post_id: int, title: str) -> str:
    """`{base_url}/detail/{data_type}/{id}/{slug}`, each segment URL-encoded; no slug, no '/'."""
    segments = [data_type, str(post_id)]
    slug = detail_slug(title)
    if slug:
        segments.append(slug)
    return base_url + "/detail/" + "/".join(quote(s, safe="") for s in segments)
