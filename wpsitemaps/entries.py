"""What a sitemap holds, independent of where it came from and how it is rendered."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ImageEntry:
    """One image:image (Google reads only image:loc since 2022)."""

    loc: str


@dataclass(frozen=True, slots=True)
class VideoEntry:
    """One video:video, fields in the order the schema requires."""

    thumbnail_loc: str
    title: str
    description: str
    content_loc: str | None = None
    player_loc: str | None = None
    duration: int | None = None
    publication_date: datetime | None = None
    tags: tuple[str, ...] = ()
    uploader: str | None = None
    uploader_info: str | None = None


@dataclass(frozen=True, slots=True)
class NewsEntry:
    """One news:news."""

    publication_name: str
    language: str
    publication_date: datetime
    title: str


@dataclass(frozen=True, slots=True)
class Alternate:
    """One xhtml:link rel="alternate": a translation of the entry (hreflang), or x-default."""

    hreflang: str
    href: str


@dataclass(frozen=True, slots=True)
class UrlEntry:
    """One <url> of a urlset."""

    loc: str
    lastmod: datetime | None = None
    images: tuple[ImageEntry, ...] = ()
    videos: tuple[VideoEntry, ...] = ()
    news: NewsEntry | None = None
    alternates: tuple[Alternate, ...] = ()


@dataclass(frozen=True, slots=True)
class SitemapRef:
    """One <sitemap> of the index."""

    loc: str
    lastmod: datetime | None = None


@dataclass(frozen=True, slots=True)
class PageBound:
    """Where one sitemap page starts (keyset), and the newest lastmod of its entries.

    last_key, seen_to, seen_at, row_count (a post type's last page, as its bounds pass found
    it): the page's highest ID, the highest post ID of any type and the site's clock when
    the pass looked, and how many rows the page held. The rows newer than the pass (above
    seen_to, or dated since seen_at) are read live: they fill that page up to
    entries_per_page and go on new pages after it (providers/posts.py, sitemaps/tails.py).
    """

    first_key: int
    lastmod: datetime | None = None
    last_key: int | None = None
    seen_to: int | None = None
    seen_at: datetime | None = None
    row_count: int | None = None
