"""Text of the demo site: titles, paragraphs and the block markup the block editor saves."""

from __future__ import annotations

import json
import random

HIDDEN = "DEMO-HIDDEN"
TITLES = (
    "Größere Änderungen für Müller & Söhne {n}", "北京新闻发布会 {n}",
    "Новости дня: обзор событий {n}", "Plain ASCII headline {n}",
    "Café au lait – naïve résumé {n}", "Ελληνικά νέα {n}", "日本語のタイトル {n}",
    "Launch day 🚀🎉 {n}", "Quotes: \"double\" and 'single' {n}", "Ünïcödé & emoji 😀 mix {n}",
    "Weekly market report {n}", "Straßenfest in Köln {n}",
)
WORDS = (
    "news sitemap crawler index update report analysis market city river bridge council "
    "weather sport culture science festival concert latest breaking the a of and to in on "
    "for with by from is as that this Köln München Zürich Straße Größe schön müde über "
    "naïve café résumé Berlin 北京 上海 新闻 报道 Москва новости статья сегодня 😀 🚀"
).split()
YOUTUBE_IDS = ("M7lc1UVf-VE", "dQw4w9WgXcQ", "aqz-KE-bpKQ", "jNQXAC9IVRw", "ScMzIvxBSi4")
VIMEO_IDS = ("76979871", "76979873", "76979885", "76979897", "76979909")
CAMERAS = (("2.8", "Canon EOS R5", "50", "200", "0.004"),
           ("1.8", "iPhone 14 Pro", "6.86", "64", "0.0083333333333333"),
           ("4", "NIKON Z 6_2", "24", "400", "0.01"))


def paragraphs(rng: random.Random, count: int) -> tuple[str, ...]:
    """A pool of paragraph blocks, made once per run so posts only pick indexes."""
    pool = []
    for _ in range(count):
        words = [rng.choice(WORDS) for _ in range(rng.randint(18, 60))]
        text = " ".join(words)
        pool.append(f"<!-- wp:paragraph -->\n<p>{text[0].upper()}{text[1:]}.</p>\n"
                    "<!-- /wp:paragraph -->")
    return tuple(pool)


def sentence(rng: random.Random) -> str:
    """One sentence (excerpts, Yoast meta descriptions)."""
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 14)))
    return f"{text[0].upper()}{text[1:]}."


def title(n: int, hidden: bool, kses: bool) -> str:
    """The n-th post title; kses (authors without unfiltered_html) stores & as &amp;."""
    text = TITLES[n % len(TITLES)].format(n=n)
    if hidden:
        text = f"{text} {HIDDEN}"
    return text.replace("&", "&amp;") if kses else text


def image_block(att_id: int, large_url: str, alt: str) -> str:
    """core/image saved by the block editor at size 'large' (the -1024x683 file)."""
    attrs = json.dumps({"id": att_id, "sizeSlug": "large", "linkDestination": "none"},
                       separators=(",", ":"))
    return (f"<!-- wp:image {attrs} -->\n<figure class=\"wp-block-image size-large\">"
            f"<img src=\"{large_url}\" alt=\"{alt}\" class=\"wp-image-{att_id}\"/></figure>\n"
            "<!-- /wp:image -->")


def shortcode_block(shortcode: str) -> str:
    """core/shortcode wrapping a classic shortcode."""
    return f"<!-- wp:shortcode -->\n{shortcode}\n<!-- /wp:shortcode -->"


def gallery_block(ids: list[int]) -> str:
    """A classic [gallery ids=...] inside a shortcode block."""
    return shortcode_block(f"[gallery ids=\"{','.join(str(i) for i in ids)}\"]")


def youtube_block(video_id: str) -> str:
    """core/embed of a YouTube URL, exactly as the block editor saves it."""
    url = f"https://www.youtube.com/watch?v={video_id}"
    attrs = json.dumps({"url": url, "type": "video", "providerNameSlug": "youtube",
                        "responsive": True,
                        "className": "wp-embed-aspect-16-9 wp-has-aspect-ratio"},
                       separators=(",", ":"))
    return (f"<!-- wp:embed {attrs} -->\n<figure class=\"wp-block-embed is-type-video "
            "is-provider-youtube wp-block-embed-youtube wp-embed-aspect-16-9 "
            f"wp-has-aspect-ratio\"><div class=\"wp-block-embed__wrapper\">\n{url}\n"
            "</div></figure>\n<!-- /wp:embed -->")


def vimeo_line(video_id: str) -> str:
    """A bare Vimeo URL on its own line (classic auto-embed)."""
    return f"\nhttps://vimeo.com/{video_id}\n"


def video_shortcode(url: str, width: int, height: int) -> str:
    """[video mp4=...][/video] of a local attachment, as the classic editor inserts it."""
    return shortcode_block(f"[video width=\"{width}\" height=\"{height}\" mp4=\"{url}\"]"
                           "[/video]")


NEXTPAGE = "<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->"
HELLO_CONTENT = ("<!-- wp:paragraph -->\n<p>Welcome to WordPress. This is your first post. "
                 "Edit or delete it, then start writing!</p>\n<!-- /wp:paragraph -->")
SAMPLE_PAGE_CONTENT = ("<!-- wp:paragraph -->\n<p>This is an example page. It's different "
                       "from a blog post because it will stay in one place and will show up "
                       "in your site navigation (in most themes).</p>\n"
                       "<!-- /wp:paragraph -->")
COMMENT_CONTENT = ("Hi, this is a comment.\nTo get started with moderating, editing, and "
                   "deleting comments, please visit the Comments screen in the dashboard.\n"
                   "Commenter avatars come from <a href=\"https://en.gravatar.com/\">"
                   "Gravatar</a>.")
