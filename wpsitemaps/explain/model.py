"""What explain finds, as plain data (printed as text or as JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime

from wpsitemaps.entries import PageBound


@dataclass
class Listing:
    """One sitemap's verdict on the object: listed where, or every reason it is not."""

    sitemap: str  # what kind: 'content', 'video' or 'news'
    name: str  # the provider's name: 'post', 'category', 'author', 'video', 'news'
    listed: bool
    file: str | None = None  # 'post-sitemap2.xml'
    page: int | None = None
    pages: int | None = None
    loc: str | None = None
    until: datetime | None = None  # news: when the article leaves the 48-hour window
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class ImageFound:
    """An image:image entry of the object, and where it was found."""

    url: str
    source: str  # 'featured', 'content' or 'gallery'
    attachment_id: int | None = None


@dataclass
class VideoFound:
    """A video the post shows: in the video sitemap, or why not."""

    video: str
    listed: bool
    reason: str | None = None


@dataclass
class Explanation:
    """Everything explain says about one object."""

    kind: str  # 'post', 'term' or 'author'
    id: int
    subtype: str  # the post type, the taxonomy, or 'author'
    title: str
    found_by: str
    status: str | None = None
    url: str | None = None
    listings: list[Listing] = field(default_factory=list)
    images: list[ImageFound] = field(default_factory=list)
    videos: list[VideoFound] = field(default_factory=list)


class NotFound(LookupError):
    """No object (or more than one) answers to what was asked for."""


def sitemap_file(name: str, page: int) -> str:
    """The file a page is served as: {name}-sitemap.xml, then {name}-sitemap2.xml..."""
    return f"{name}-sitemap{'' if page == 1 else page}.xml"


def page_by_id(bounds: Sequence[PageBound], key: int) -> int:
    """The 1-based page holding `key` in ID-keyed bounds (the last page starting at or
    before it)."""
    page = 1
    for number, bound in enumerate(bounds, start=1):
        if bound.first_key <= key:
            page = number
    return page


def listed_at(sitemap: str, name: str, bounds: Sequence[PageBound], page: int,
              loc: str | None) -> Listing:
    """A positive verdict on page `page` of provider `name`."""
    return Listing(sitemap, name, True, sitemap_file(name, page), page, len(bounds), loc)
