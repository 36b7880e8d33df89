"""image:image entries for a page of posts: parse content, then two batched queries."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection

from wpsitemaps.content import images
from wpsitemaps.entries import ImageEntry
from wpsitemaps.wordpress.ids import parse_id
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext


def _featured(meta: dict[str, str]) -> int | None:
    return parse_id(meta.get("_thumbnail_id"))


def page_images(conn: Connection, site: SiteContext, rows: Sequence[PostRow],
                meta: dict[int, dict[str, str]]) -> dict[int, tuple[ImageEntry, ...]]:
    """{post ID: images} in Yoast's order: featured, content <img>, galleries."""
    return {pid: tuple(ImageEntry(img.url) for img in found)
            for pid, found in page_image_sources(conn, site, rows, meta).items()}


def page_image_sources(conn: Connection, site: SiteContext, rows: Sequence[PostRow],
                       meta: dict[int, dict[str, str]],
                       ) -> dict[int, list[images.ResolvedImage]]:
    """{post ID: images with where each was found} (page_images() without the origins)."""
    home = site.options.home
    found = [(int(r.ID), _featured(meta.get(int(r.ID), {})),
              images.find_images(site.options.public_content(str(r.post_content or "")), home))
             for r in rows]
    needs = images.image_needs(found)
    children = qp.attached_images(conn, site.tables, needs.parents) if needs.parents else {}
    wanted = set(needs.ids) | {c for ids in children.values() for c in ids}
    files = qp.attachment_files(conn, site.tables, wanted) if wanted else {}
    base = site.options.upload_baseurl
    urls = {aid: images.attachment_url(base, f) for aid, f in files.items()}
    out: dict[int, list[images.ResolvedImage]] = {}
    for post_id, featured, refs in found:
        resolved = images.resolve_image_sources(featured, refs, urls, children.get(post_id, []))
        if resolved:
            out[post_id] = resolved
    return out
