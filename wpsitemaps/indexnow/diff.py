"""What changed between two renderings of a sitemap page: the `<url>` entries that appeared,
whose lastmod changed, or that went away (a URL that stopped being listed: trashed,
unpublished, noindexed, its slug changed). Only what a sitemap lists is ever reported, so a
draft or a private post never is, except as the deletion of a URL that was listed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
# A news or video sitemap lists a subset of the posts the post sitemaps list (the last 48
# hours' articles, the posts with a video), newest first: an article leaving it has aged
# out, not gone. Changes are read from the post sitemaps, which list every one of them.
SUBSETS = ("{http://www.google.com/schemas/sitemap-news/0.9}",
           "{http://www.google.com/schemas/sitemap-video/1.1}")


def entries(body: bytes) -> dict[str, str]:
    """loc -> lastmod ('' without one) of a `<urlset>`; {} for anything else (an index, a
    news or video sitemap)."""
    try:
        root = ET.fromstring(body)  # noqa: S314 - our own rendering, no DTD, no entities
    except ET.ParseError:
        return {}
    if root.tag != f"{NS}urlset":
        return {}
    out = {}
    for url in root.iter(f"{NS}url"):
        if any(child.tag.startswith(SUBSETS) for child in url):
            return {}
        loc = (url.findtext(f"{NS}loc") or "").strip()
        if loc:
            out[loc] = (url.findtext(f"{NS}lastmod") or "").strip()
    return out


def changed(old: bytes, new: bytes) -> list[str]:
    """URLs added, changed (lastmod) or removed from `old` to `new`, in document order."""
    before, after = entries(old), entries(new)
    touched = [loc for loc, mod in after.items() if before.get(loc) != mod]
    return touched + [loc for loc in before if loc not in after]


def sitemaps(body: bytes) -> set[str]:
    """The `<sitemap><loc>`s of a `<sitemapindex>` (empty for anything else)."""
    try:
        root = ET.fromstring(body)  # noqa: S314 - our own rendering
    except ET.ParseError:
        return set()
    if root.tag != f"{NS}sitemapindex":
        return set()
    return {(s.findtext(f"{NS}loc") or "").strip() for s in root.iter(f"{NS}sitemap")}
