"""What the sitemaps leave out without a word in them, counted for `wpsitemaps check`: videos
Google would reject (no thumbnail, no player, no title), each reason with its count and the
setting that changes it. One pass over the video candidates, as a request building every
video page would make: for a command, never for a request."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Connection

from wpsitemaps.sitemaps.providers.posts import settle_canonicals
from wpsitemaps.sitemaps.providers.video import VideoProvider
from wpsitemaps.sitemaps.providers.video import post_video_verdicts
from wpsitemaps.sitemaps.videos import load_page_videos
from wpsitemaps.wordpress.queries import posts as qp

# The setting (or what to do) that lists a video left out for this reason.
FIXES = {
    "no thumbnail": "set video_default_thumbnail to an image URL to list them",
    "no player_loc": "nothing to set: the post shows no player or file URL Google can use",
    "no title": "give the posts a title (or an excerpt)",
    "Yoast Video SEO": "switch videositemap-disable off on those posts",
}


@dataclass(frozen=True)
class VideoDrops:
    """Videos found on listed posts, and those left out by reason."""

    found: int
    left_out: Counter[str]

    def lines(self) -> list[str]:
        """One line per reason: count, reason, the fix."""
        total = self.found
        return [f"videos: {n} of {total} left out of the video sitemap: {why}; "
                f"{fix_for(why)}" for why, n in sorted(self.left_out.items())]


def fix_for(reason: str) -> str:
    """The setting or action that lists the videos left out for `reason`."""
    return next((fix for key, fix in FIXES.items() if key in reason), "see `wpsitemaps "
                "explain URL` for one post")


def video_drops(conn: Connection, provider: VideoProvider) -> VideoDrops | None:
    """Every video of every candidate post of the video sitemap, and why each left out is;
    None on a site too large to scan here (the provider builds it in the background)."""
    site = provider.site
    if provider.is_slow():
        return None
    found, left_out = 0, Counter[str]()
    for bound in provider.compute_bounds():
        rows = qp.page_rows(conn, site.tables, provider.condition, bound.first_key,
                            site.settings.entries_per_page)
        rows, _links = settle_canonicals(conn, site, rows)
        videos = load_page_videos(conn, site, rows)
        for row in rows:
            for _ref, verdict in post_video_verdicts(row, videos, site):
                found += 1
                if isinstance(verdict, str):
                    left_out[verdict] += 1
    return VideoDrops(found, left_out)
