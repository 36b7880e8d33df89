"""The video sitemap (video-sitemap.xml): one <url> per listable post that shows videos.

Which posts: exactly the post-type sitemap entries (each listed type's own SQL condition, plus
a static front page, whose URL is the home URL), narrowed in SQL to posts that MAY show a
video (wordpress.queries.video.may_have_videos). As in the post type sitemaps, the canonical
rule (a post whose Yoast or Rank Math canonical is not its own permalink is left out) is
settled on the rows of a page, where their permalinks are built anyway, not for the whole
site (which took 27 s and 200 MB per worker at 1,000,000 posts). Pages are keyset ranges of
`entries_per_page` such candidate posts by ID across all types, so the index needs one
aggregate query and a page parses at most `entries_per_page` posts, whatever the size of the
site.

Why a page may hold fewer URLs than `entries_per_page` (and, in theory, none): whether a
candidate really shows a video is only known once its content is parsed, and knowing that
for the index would mean parsing every candidate post of the site on every index request.
Every page but the last is full of candidates; the URLs are the candidates with videos.
bounds() builds the last page (at most one page's work) and drops it when it is empty.
"""

from __future__ import annotations

import html
import logging

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import or_

from wpsitemaps.cache.values import Values
from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.content.videofields import PostFacts
from wpsitemaps.content.videofields import VideoExtras
from wpsitemaps.content.videofields import tag_list
from wpsitemaps.content.videofields import video_description
from wpsitemaps.content.videofields import video_title
from wpsitemaps.content.videofields import video_verdict
from wpsitemaps.content.videos import VideoRef
from wpsitemaps.content.yoastvideo import YoastVideo
from wpsitemaps.content.yoastvideo import merge
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.entries import VideoEntry
from wpsitemaps.memo import memoized
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.posts import post_lastmod
from wpsitemaps.sitemaps.providers.posts import settle_canonicals
from wpsitemaps.sitemaps.translations import author_link
from wpsitemaps.sitemaps.videos import PageVideos
from wpsitemaps.sitemaps.videos import load_page_videos
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries import video as qv
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
# Google's limit is 50 MB uncompressed; the estimate below overcounts escaping, and the
# margin covers the XML around the entries.
MAX_PAGE_BYTES = 45_000_000


# Listable posts above which the video candidate scan never runs inside a request: on the
# benchmark's 100,000 posts it took 8 s, on 1,000,000 over 4 minutes.
BACKGROUND_FROM = 50_000
# IDs per statement of the candidates' scan: about a second of content matching each on
# the benchmark's million-post database (a single statement took minutes).
SCAN_SPAN = 50_000


class VideoProvider(Provider):
    """Videos of the listable posts of the given post type sitemaps."""

    stylesheet = "video"

    def __init__(self, conn: Connection, site: SiteContext, values: Values,
                 post_types: tuple[PostTypeProvider, ...], name: str = "video") -> None:
        super().__init__(conn, site, values)
        self.post_types = post_types
        self.name = name
        self._pages: dict[int, list[UrlEntry]] = {}

    @memoized
    def condition(self) -> ColumnElement[bool]:
        """Listable in its post type sitemap (or the static front page), may show videos."""
        site = self.site
        p = site.tables.posts
        listed: list[ColumnElement[bool]] = []
        for provider in self.post_types:
            listed.append(provider.bounds_condition)  # canonical rule: see _build
            front = site.options.page_on_front
            if provider.name == "page" and site.options.static_front and front > 0:
                # The page sitemap lists the front page as its first link (the home URL).
                listed.append(and_(p.c.ID == front, qp.listable(site.tables, ["page"],
                                                                seo=site.seo)))
        if not listed:
            return p.c.ID < 0
        return and_(or_(*listed), qv.may_have_videos(site.tables))

    def is_slow(self) -> bool:
        """Whether finding the candidates is too slow for a request: it reads post_content of
        every listable post, so above BACKGROUND_FROM listable posts it runs in the
        background only (Provider.bounds)."""
        pages = sum(len(p.bounds) for p in self.post_types)
        return pages * self.site.settings.entries_per_page > BACKGROUND_FROM

    def compute_bounds(self) -> list[PageBound]:
        """Pages of `entries_per_page` candidate posts, by ID across types."""
        rows = qp.page_bounds_in_ranges(self.conn, self.site.tables, self.condition,
                                        self.site.settings.entries_per_page, SCAN_SPAN)
        out = [span.bound for span in rows]
        # The last page is the one likely to hold only false positives (a small site whose
        # one candidate merely links to a YouTube channel): build it (one page's cost, kept
        # for the request) so that the index never lists an empty last page.
        if out and not self.entries(len(out), out[-1]):
            out.pop()
        return out

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """One <url> per candidate of the page that has at least one usable video."""
        if bound.first_key not in self._pages:
            self._pages[bound.first_key] = self._build(page, bound)
        return self._pages[bound.first_key]

    def _build(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """Build one page: parse its candidates, keep those with usable videos."""
        conn, site = self.conn, self.site
        rows = qp.page_rows(conn, site.tables, self.condition, bound.first_key,
                            site.settings.entries_per_page)
        rows, links = settle_canonicals(conn, site, rows)
        found = load_page_videos(conn, site, rows)
        out: list[UrlEntry] = []
        budget = MAX_PAGE_BYTES
        for row in rows:
            pid = int(row.ID)
            loc = encode_url(links.get(pid, ""))
            if not is_listable(loc):
                log.debug("post %s left out of the video sitemap: URL not listable", pid)
                continue
            videos = _post_videos(row, found, site)
            entry = UrlEntry(loc, post_lastmod(row), videos=tuple(videos))
            if not videos:
                continue
            size = _estimate(entry)
            if size > budget:
                log.warning("video sitemap page %d is full at %d bytes; post %s and later "
                            "posts of this page are left out", page, MAX_PAGE_BYTES - budget,
                            pid)
                break
            budget -= size
            out.append(entry)
        return out


def _post_facts(row: PostRow, found: PageVideos, site: SiteContext) -> PostFacts:
    """Title, description, date, featured image, tags and uploader of one post."""
    pid = int(row.ID)
    content = str(row.post_content or "")
    description = video_description(str(row.post_excerpt or ""), content,
                                    str(row.post_title or ""))
    uid = int(row.post_author or 0)
    nicename, display = found.authors.get(uid, ("", ""))
    uploader = html.unescape(display).strip() or None
    info = (encode_url(author_link(site, permalinks.author_url(site.links, site.author_type,
                                                                 uid, nicename)))
            if uploader and permalinks.author_problem(site.author_type, nicename) is None
            else None)
    return PostFacts(pid, video_title(str(row.post_title or ""), description), description,
                     utc(row.post_date_gmt), found.featured.get(pid),
                     tag_list(found.tags.get(pid, [])), uploader, info,
                     site.settings.video_default_thumbnail)


def _post_videos(row: PostRow, found: PageVideos, site: SiteContext) -> list[VideoEntry]:
    """The usable video:video entries of one post, Yoast Video SEO's values first."""
    return [v for _, v in post_video_verdicts(row, found, site) if isinstance(v, VideoEntry)]


def post_video_verdicts(row: PostRow, found: PageVideos, site: SiteContext,
                        ) -> list[tuple[VideoRef | None, VideoEntry | str]]:
    """Each video of one post with its entry or why it is left out (None as the ref: all
    of the post's videos are switched off)."""
    pid = int(row.ID)
    refs = found.refs.get(pid, [])
    yoast: YoastVideo | None = found.yoast.get(pid)
    target: int | None = None
    if yoast is not None:
        if yoast.disabled:
            log.debug("post %s: videos left out (Yoast videositemap-disable is on)", pid)
            return [(None, "Yoast Video SEO's videositemap-disable is on for the post")]
        refs, target = merge(refs, yoast)
    if not refs:
        return []
    post = _post_facts(row, found, site)
    out: list[tuple[VideoRef | None, VideoEntry | str]] = []
    for index, ref in enumerate(refs):
        att = found.attachments.get(ref.attachment_id or 0)
        extras = VideoExtras(duration=att.meta.duration if att else None,
                             attachment_thumbnail=found.attachment_thumbs.get(att.id)
                             if att else None)
        if yoast is not None and index == target:
            y = yoast.extras
            extras = VideoExtras(y.duration or extras.duration, extras.attachment_thumbnail,
                                 y.thumbnail, y.title, y.description, y.published, y.tags)
        out.append((ref, video_verdict(ref, post, extras)))
    return out


def _estimate(entry: UrlEntry) -> int:
    """An upper estimate of the entry's bytes in the document (escaping counted as &quot;)."""
    size = 200 + len(html.escape(entry.loc).encode())
    for video in entry.videos:
        texts = [video.thumbnail_loc, video.title, video.description, video.content_loc or "",
                 video.player_loc or "", video.uploader or "", video.uploader_info or "",
                 *video.tags]
        size += 600 + 40 * len(video.tags) + sum(len(html.escape(t).encode()) for t in texts)
    return size

