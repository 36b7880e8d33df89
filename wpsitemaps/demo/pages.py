"""Install defaults, events (a custom post type) and nested pages of the demo site."""

from __future__ import annotations

from wpsitemaps.demo import content as text
from wpsitemaps.demo.media import Post
from wpsitemaps.demo.media import image
from wpsitemaps.demo.media import post_rows
from wpsitemaps.demo.model import ADMIN
from wpsitemaps.demo.model import ANNA
from wpsitemaps.demo.model import GENRES
from wpsitemaps.demo.model import Emitter
from wpsitemaps.demo.posts import DAY
from wpsitemaps.demo.posts import HOUR
from wpsitemaps.demo.posts import Rows
from wpsitemaps.demo.posts import revision
from wpsitemaps.demo.posts import status_fields

EVENT_TITLES = ("Jazz Night 🎷 {n}", "Konzert: Müller & Band {n}", "音乐会 {n}",
                "Oper für alle {n}", "Open Air Rock {n}")
# (key, title, parent key, kind, featured image, multi-page)
PAGES = (
    ("about", "About", "", "publish", True, False),
    ("team", "Team", "about", "publish", False, False),
    ("leadership", "Leadership", "team", "publish", False, False),
    ("kontakt", "Kontakt & Impressum", "", "publish", False, False),
    ("uber", "Über uns", "", "publish", False, False),
    ("guanyu", "关于我们", "", "publish", False, False),
    ("paged", "Paged Page", "", "publish", False, True),
    ("private", "Private Page", "", "private", False, False),
    ("draft", "Draft Page", "", "draft", False, False),
    ("password", "Password Page", "", "password", False, False),
    ("noindex", "Noindex Page", "", "noindex", False, False),
    ("archive", "Archive", "", "publish", False, False),
)


def install_posts(em: Emitter) -> Rows:
    """wp_install_defaults(): 'Hello world!', 'Sample Page' and the draft privacy page."""
    home, when = em.spec.home, em.install
    yield from post_rows(em, Post(id=em.new_id("posts"), author=ADMIN, date=when,
                                  modified=when, title="Hello world!", name="hello-world",
                                  content=text.HELLO_CONTENT, guid=f"{home}/?p=1",
                                  comment_count=1))
    yield em.relate(1, 1, True)
    template = [("_wp_page_template", "default")]
    yield from post_rows(em, Post(id=em.new_id("posts"), author=ADMIN, date=when,
                                  modified=when, title="Sample Page", type="page",
                                  name="sample-page", content=text.SAMPLE_PAGE_CONTENT,
                                  guid=f"{home}/?page_id=2", comment_status="closed",
                                  meta=list(template)))
    yield from post_rows(em, Post(id=em.new_id("posts"), author=ADMIN, date=when,
                                  modified=when, title=f"Privacy Policy {text.HIDDEN}",
                                  status="draft", type="page", name="privacy-policy",
                                  content="<!-- wp:heading --><h2>Who we are</h2>"
                                  "<!-- /wp:heading -->", guid=f"{home}/?page_id=3",
                                  comment_status="closed", meta=list(template)))


def _event_kind(e: int) -> str:
    """Most events are published; some are drafts or scheduled."""
    return {3: "draft", 5: "future"}.get(e % 6, "publish")


def events(em: Emitter) -> Rows:
    """Posts of the custom type `event` (slug `events`), tagged with `genre` terms."""
    count = max(6, em.spec.size // 25)
    for e in range(1, count + 1):
        kind = _event_kind(e)
        when = em.spec.now - (count - e + 1) * (300 * DAY // count)
        title = EVENT_TITLES[e % len(EVENT_TITLES)].format(n=e)
        post = Post(id=em.new_id("posts"), author=ANNA, date=when, modified=when,
                    title=title if kind == "publish" else f"{title} {text.HIDDEN}",
                    type="event", comment_status="closed", ping_status="closed",
                    content="\n\n".join(em.pool[(e + k) % len(em.pool)] for k in range(2)))
        post.guid = f"{em.spec.home}/?post_type=event&#038;p={post.id}"
        if kind == "future":
            post.date = post.modified = em.spec.now + e * DAY
        start = post.date + 30 * DAY
        post.meta.append(("_event_start", em.local(start)[:16].replace(" ", "T")))
        poster = (f"event poster {e}", f"Poster {e}") if e % 2 == 1 else None
        yield from _with_featured(em, post, kind, poster)
        yield em.relate(post.id, GENRES[e % len(GENRES)], post.status == "publish")


def _with_featured(em: Emitter, post: Post, kind: str,
                   featured: tuple[str, str] | None) -> Rows:
    """The post's rows, its featured image (name, caption) if any, then its revision."""
    atts = []
    if featured is not None:
        img = image(em, post, featured[0], (1200, 800), featured[1])
        atts.append(img.post)
        post.meta.append(("_thumbnail_id", str(img.post.id)))
    status_fields(post, kind)
    yield from post_rows(em, post)
    for att in atts:
        yield from post_rows(em, att)
    yield from post_rows(em, revision(em, post))


def _page_list(em: Emitter) -> list[tuple[str, str, str, str, bool, bool]]:
    """PAGES plus the archive's children (more of them on bigger sites)."""
    children = [(f"archive{k}", f"Archive page {k}", "archive", "publish", False, False)
                for k in range(1, 4 + min(em.spec.size // 500, 40))]
    return [*PAGES, *children]


def pages(em: Emitter) -> Rows:
    """Pages nested three levels deep (about/team/leadership), hidden ones included."""
    ids: dict[str, int] = {}
    for k, (key, title, parent, kind, featured, paged) in enumerate(_page_list(em)):
        when = em.install + (k + 2) * DAY + 5 * HOUR
        post = Post(id=em.new_id("posts"), author=ADMIN, date=when, modified=when,
                    title=title if kind == "publish" else f"{title} {text.HIDDEN}",
                    type="page", parent=ids.get(parent, 0), comment_status="closed",
                    ping_status="closed", content=em.pool[k % len(em.pool)])
        post.guid = f"{em.spec.home}/?page_id={post.id}"
        ids[key] = post.id
        if paged:
            post.content = f"{post.content}\n\n{text.NEXTPAGE}\n\n{em.pool[0]}"
        header = (f"{key} header", f"{title} header") if featured else None
        yield from _with_featured(em, post, kind, header)
