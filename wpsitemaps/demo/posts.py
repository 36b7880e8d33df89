"""Posts of the demo site, made the way the block editor makes them.

An auto-draft comes first (its ID), media is uploaded with post_parent set to it, then the
final save writes the post and its first revision (`<ID>-revision-v1`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from wpsitemaps.demo import content as text
from wpsitemaps.demo.media import Post
from wpsitemaps.demo.media import image
from wpsitemaps.demo.media import post_rows
from wpsitemaps.demo.media import video
from wpsitemaps.demo.model import ADMIN
from wpsitemaps.demo.model import ANNA
from wpsitemaps.demo.model import BOB
from wpsitemaps.demo.model import CHEN
from wpsitemaps.demo.model import DORA
from wpsitemaps.demo.model import POST_CATEGORIES
from wpsitemaps.demo.model import POST_TAGS
from wpsitemaps.demo.model import VIDEO_FORMAT
from wpsitemaps.demo.model import YEAR
from wpsitemaps.demo.model import Emitter
from wpsitemaps.demo.model import Row
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.demo.wp import sanitize_title

HOUR, DAY = 3600, 86400
HIDDEN_KINDS = ("draft", "private", "password", "future", "trash", "pending", "noindex",
                "auto-draft", "canonical", "rank-math-noindex", "aioseo-noindex")
# Public posts whose Yoast canonical override is their own permalink (1 in 8: a site where
# editors paste the URL into the field, as on the 20,000-post site of issue #13) stay listed.
SELF_CANONICAL_EVERY = 8
SYNDICATED = "https://syndicated.example.org/"
# Kinds that are published but must not be listed (password, Yoast noindex, canonical).
PUBLISHED_HIDDEN = frozenset({"password", "noindex", "canonical"})
# Published posts carrying the noindex meta of plugins the site ran before Yoast (Rank Math,
# AIOSEO 3): Yoast is the active plugin (options.py), those plugins no longer print a noindex,
# so the posts are listed as Yoast lists them (issue #24) and `check` names the leftovers.
LEFTOVER_KINDS = frozenset({"rank-math-noindex", "aioseo-noindex"})
RECENT = 6  # public posts dated inside the last 48 hours (the news sitemap)
Rows = Iterator[tuple[str, Row]]


@dataclass(frozen=True)
class Features:
    """What one post contains."""

    featured: bool
    inline: bool
    gallery: bool
    youtube: bool
    vimeo: bool
    local_video: bool
    pages: bool
    excerpt: bool
    metadesc: bool


def _features(em: Emitter, n: int) -> Features:
    """Pick a post's media: images at random, the rarer kinds on a fixed rhythm."""
    rng = em.rng
    return Features(featured=rng.random() < 0.6, inline=rng.random() < 0.45,
                    gallery=n % 10 == 7, youtube=n % 9 == 2, vimeo=n % 13 == 4,
                    local_video=n % 11 == 6, pages=n % 17 == 8,
                    excerpt=rng.random() < 0.2, metadesc=rng.random() < 0.15)


def _author(em: Emitter, kind: str) -> int:
    """Anna writes most; drafts are sometimes Dora's (a contributor)."""
    if kind in ("draft", "pending") and em.rng.random() < 0.4:
        return DORA
    return em.rng.choice((ANNA, ANNA, ANNA, BOB, CHEN, ADMIN))


def _paragraphs(em: Emitter, count: int) -> list[str]:
    """`count` paragraph blocks from the run's pool."""
    return [em.pool[em.rng.randrange(len(em.pool))] for _ in range(count)]


def _media(em: Emitter, post: Post, n: int, f: Features) -> tuple[list[Post], list[str]]:
    """Upload the post's media; returns the attachment rows and the content blocks."""
    atts: list[Post] = []
    blocks: list[str] = []
    if f.featured:
        size = (640, 960) if n % 3 == 0 else (1200, 800)
        img = image(em, post, f"featured {n}", size, f"Featured image {n}")
        atts.append(img.post)
        post.meta.append(("_thumbnail_id", str(img.post.id)))
    if f.inline:
        name = (f"照片 {n}" if n % 5 == 0 else f"Straßenfest Ü {n}" if n % 7 == 0
                else f"inline photo {n}")
        img = image(em, post, name, (3000, 2000) if n % 23 == 3 else (1200, 800), f"Inline {n}")
        atts.append(img.post)
        blocks.append(text.image_block(img.post.id, img.large_url, img.alt))
    if f.gallery:
        shots = [image(em, post, f"gallery {n}-{k}", (1200, 800), f"Gallery {n}-{k}",
                       caption=f"Caption {k}") for k in range(3)]
        atts.extend(s.post for s in shots)
        blocks.append(text.gallery_block([s.post.id for s in shots]))
    if f.youtube:
        blocks.append(text.youtube_block(text.YOUTUBE_IDS[n % len(text.YOUTUBE_IDS)]))
    if f.vimeo:
        blocks.append(text.vimeo_line(text.VIMEO_IDS[n % len(text.VIMEO_IDS)]))
    if f.local_video:
        att, url, width, height = video(em, post, f"clip {n}")
        atts.append(att)
        blocks.append(text.video_shortcode(url, width, height))
    return atts, blocks


def _content(em: Emitter, blocks: list[str], paged: bool) -> str:
    """Paragraphs around the media blocks, optionally split with <!--nextpage-->."""
    parts = _paragraphs(em, 1) + blocks + _paragraphs(em, 1)
    if paged:
        parts += [text.NEXTPAGE, *_paragraphs(em, 1), text.NEXTPAGE, *_paragraphs(em, 2)]
    return "\n\n".join(parts)


def revision(em: Emitter, post: Post) -> Post:
    """wp_save_post_revision(): a copy of the post at its last save (post_modified)."""
    rid = em.new_id("posts")
    title = post.title if text.HIDDEN in post.title else f"{post.title} {text.HIDDEN}"
    return Post(id=rid, author=post.author, date=post.modified, modified=post.modified,
                title=title, status="inherit", type="revision", name=f"{post.id}-revision-v1",
                content=post.content, excerpt=post.excerpt, parent=post.id,
                guid=f"{em.spec.home}/?p={rid}", comment_status="closed",
                ping_status="closed")


def status_fields(post: Post, kind: str) -> None:
    """Status, password, slug and meta of each kind, as wp_insert_post() stores them."""
    post.status = "publish" if kind in PUBLISHED_HIDDEN | LEFTOVER_KINDS else kind
    post.floating = kind in ("draft", "pending", "auto-draft")
    post.name = "" if post.floating else sanitize_title(post.title)
    if kind == "password":
        post.password = "demo-secret"
    if kind == "noindex":
        post.meta.append(("_yoast_wpseo_meta-robots-noindex", "1"))
    elif kind == "rank-math-noindex":
        post.meta.append(("rank_math_robots", php_serialize(["noindex", "nofollow"])))
    elif kind == "aioseo-noindex":
        post.meta.append(("_aioseop_noindex", "on"))
    elif kind == "canonical":
        # A foreign canonical (Yoast's field): the post points elsewhere and is not listed.
        post.meta.append(("_yoast_wpseo_canonical", f"{SYNDICATED}{post.name}/"))
    if post.type == "post" and (post.status == "publish" or kind == "trash"):
        # _publish_post_hook() runs on publish_post only; cron is off, so they stay.
        post.meta += [("_pingme", "1"), ("_encloseme", "1")]
    if kind == "trash":
        desired, post.name = post.name, post.name + "__trashed"
        post.meta += [("_wp_trash_meta_status", "publish"),
                      ("_wp_trash_meta_time", str(int(post.modified) + HOUR)),
                      ("_wp_desired_post_slug", desired)]


def _terms(em: Emitter, post: Post, f: Features) -> Rows:
    """One category, up to three tags, the video post format; counted when published."""
    counted = post.status == "publish"
    yield em.relate(post.id, POST_CATEGORIES[em.rng.randrange(len(POST_CATEGORIES))], counted)
    for tag in sorted(em.rng.sample(POST_TAGS, em.rng.randint(0, 3))):
        yield em.relate(post.id, tag, counted)
    if (f.youtube or f.vimeo or f.local_video) and post.id % 2 == 0:
        yield em.relate(post.id, VIDEO_FORMAT, counted)


def _post(em: Emitter, n: int, kind: str, when: float) -> Rows:
    """One post of type `post` with its media, meta, terms and revision."""
    if kind == "auto-draft":
        yield from _auto_draft(em, when)
        return
    f = _features(em, n)
    author = _author(em, kind)
    hidden = kind != "publish" and kind not in LEFTOVER_KINDS
    post = Post(id=em.new_id("posts"), author=author, date=when, modified=when,
                title=text.title(n, hidden, author in (BOB, CHEN, DORA)))
    post.guid = f"{em.spec.home}/?p={post.id}"
    if kind == "future":
        post.date = post.modified = em.spec.now + (n % 20 + 1) * DAY + 7 * HOUR
    elif kind == "publish" and em.rng.random() < 0.25:
        post.modified = min(when + em.rng.randint(HOUR, 40 * DAY), em.spec.now - 60)
    if f.metadesc:
        post.meta.append(("_yoast_wpseo_metadesc", text.sentence(em.rng)))
    if kind == "publish" and n % 31 == 5:
        post.meta.append(("_yoast_wpseo_meta-robots-noindex", "2"))  # explicit "index"
    atts, blocks = _media(em, post, n, f)
    post.content = _content(em, blocks, f.pages)
    post.excerpt = text.sentence(em.rng) if f.excerpt else ""
    status_fields(post, kind)
    if kind == "publish" and n % SELF_CANONICAL_EVERY == 5:
        post.meta.append(("_yoast_wpseo_canonical", _own_url(em, post)))
    elif kind == "publish" and n % 40 == 22:
        post.meta.append(("rank_math_canonical_url", _own_url(em, post)))
    yield from post_rows(em, post)
    for att in atts:
        yield from post_rows(em, att)
    yield from post_rows(em, revision(em, post))
    yield from _terms(em, post, f)
    if kind == "publish" and n == 2:
        em.sticky = post.id


def _own_url(em: Emitter, post: Post) -> str:
    """The post's permalink under /%postname%/, as an editor pastes it into a canonical field."""
    return f"{em.spec.home.rstrip('/')}/{post.name}/"


def _auto_draft(em: Emitter, when: float) -> Rows:
    """get_default_post_to_edit(): an abandoned 'Auto Draft' (no slug, zero GMT date)."""
    pid = em.new_id("posts")
    yield from post_rows(em, Post(id=pid, author=ANNA, date=when, modified=when,
                                  title=f"Auto Draft {text.HIDDEN}", status="auto-draft",
                                  guid=f"{em.spec.home}/?p={pid}", floating=True))


def published_time(em: Emitter, n: int) -> float:
    """post_date_gmt of the n-th public post: three years of history, the newest in 48 h."""
    size = em.spec.size
    if n >= size - RECENT:
        return em.spec.now - (size - 1 - n) * 7 * HOUR - 23 * 60
    span = 3 * YEAR - 3 * DAY
    step = span / max(1, size - RECENT)
    return em.install + n * step + em.rng.random() * step / 2


def posts(em: Emitter) -> Rows:
    """Public posts 1..size-1 ('Hello world!' is 0), with hidden ones in between."""
    hidden = 0
    for n in range(1, em.spec.size):
        when = published_time(em, n)
        yield from _post(em, n, "publish", when)
        if n <= len(HIDDEN_KINDS) or n % 12 == 0:
            kind = HIDDEN_KINDS[hidden % len(HIDDEN_KINDS)]
            hidden += 1
            # Numbers above `size` keep titles, slugs and file names unique.
            yield from _post(em, em.spec.size + hidden, kind, when + 30 * 60)
