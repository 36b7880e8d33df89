"""The browser lane's WordPress site and a live server for it on 127.0.0.1."""

from __future__ import annotations

import html
import threading
import urllib.parse
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from werkzeug.serving import BaseWSGIServer
from werkzeug.serving import make_server

from tests.support.builder import Site
from tests.support.polylang import Polylang
from wpsitemaps import create_app

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
HARNESS_PATH = "/__client-xslt.html"
# A page holding one sitemap (?src=/path) in a full-size iframe: the browser's own XSLT renders
# it (an iframe is not a navigation), and the lane types and clicks in it.
FRAME_PATH = "/__frame.html"
FRAME = ('<!DOCTYPE html><html><head><title>frame</title><style>html, body {{ margin: 0; '
         'height: 100%; }} iframe {{ border: 0; width: 100%; height: 100%; display: block; }}'
         '</style></head><body><iframe id="view" src="{src}"></iframe></body></html>')
# Posts per sitemap page on the lane's site, so the post sitemap has two pages.
ENTRIES_PER_PAGE = 6
# Slugs as WordPress stores non-Latin titles (sanitize_title: lower-case escaped UTF-8).
NON_LATIN = {"北京新闻": "%e5%8c%97%e4%ba%ac%e6%96%b0%e9%97%bb",
             "Привет мир": "%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82-%d0%bc%d0%b8%d1%80"}

# A page that loads sitemaps where the request is not a top-level navigation (iframes send
# Sec-Fetch-Dest: iframe; fetch() sends empty/cors), so the server answers XML and only the
# browser's own XSLT can turn it into a table. It copies what each frame shows into this
# page, so --dump-dom of the main frame reports it.
HARNESS = """<!DOCTYPE html><html><head><title>client xslt</title></head><body>
<div id="results"></div>
<script>
const urls = %(urls)s;
const results = document.getElementById("results");
function record(url, frame, raw) {
  const s = document.createElement("section");
  s.dataset.url = url;
  s.dataset.rawStartsWithPi = String(/^<\\?xml[^>]*\\?>\\s*<\\?xml-stylesheet /.test(raw));
  const doc = frame.contentDocument;
  const table = doc && doc.querySelector("table");
  s.dataset.root = doc && doc.documentElement ? doc.documentElement.localName : "";
  if (table) s.appendChild(document.importNode(table, true));
  results.appendChild(s);
}
async function one(url) {
  const raw = await (await fetch(url)).text();
  const frame = document.createElement("iframe");
  const loaded = new Promise(r => frame.addEventListener("load", r, {once: true}));
  frame.src = url;
  document.body.appendChild(frame);
  await loaded;
  for (let i = 0; i < 20 && !frame.contentDocument.querySelector("table"); i++) {
    await new Promise(r => setTimeout(r, 100));
  }
  record(url, frame, raw);
}
(async () => { for (const u of urls) await one(u); document.body.dataset.done = "1"; })();
</script></body></html>"""


PLACEHOLDER = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9">'
               b'<rect width="16" height="9" fill="#8c8f94"/>'
               b'<path d="M6.5 2.5v4l3.5-2z" fill="#fff"/></svg>')


def browser_site(home: str = "http://example.test") -> Site:
    """Two non-Latin posts, posts with featured and inline images, two video posts and two
    fresh news posts: nine posts, two post sitemap pages."""
    site = Site(home=home)
    up = site.options["siteurl"] + "/wp-content/uploads/"
    for title, slug in NON_LATIN.items():
        site.post(title, name=slug)
    for n in range(1, 4):
        featured = site.attachment(f"2026/11/photo-{n}.jpg")
        inline = "".join(f'<img src="{up}2026/11/inline-{n}-{i}.jpg" alt="">' for i in range(n))
        site.post(f"Photo story {n}", name=f"photo-story-{n}", content=f"<p>Look.</p>{inline}",
                  meta={"_thumbnail_id": str(featured)})
    site.post("A video post", name="a-video-post",
              content='<!-- wp:embed {"url":"https://www.youtube.com/watch?v=dQw4w9WgXcQ",'
                      '"type":"video","providerNameSlug":"youtube"} -->\n'
                      '<figure class="wp-block-embed is-type-video is-provider-youtube">'
                      '<div class="wp-block-embed__wrapper">\n'
                      "https://www.youtube.com/watch?v=dQw4w9WgXcQ\n"
                      "</div></figure>\n<!-- /wp:embed -->")
    clip = site.attachment("2026/11/clip.mp4", mime="video/mp4",
                           metadata={"length": 95, "width": 1280, "height": 720})
    poster = site.attachment("2026/11/clip-poster.jpg")
    site.post("Our workshop in 95 seconds", name="workshop-video",
              content=f'[video width="1280" height="720" mp4="{up}2026/11/clip.mp4"][/video]',
              meta={"_thumbnail_id": str(poster)})
    site.rows["posts"][clip - 1]["post_parent"] = site._ids["posts"]
    for hours in (2, 20):
        site.post(f"Breaking news {hours}h ago", name=f"breaking-{hours}",
                  date=site.now - timedelta(hours=hours))
    about = site.post("About", post_type="page", name="about")
    # A Polylang translation, so the page sitemap carries hreflang links (issue #15).
    pll = Polylang(site, [("en", "en_US"), ("de", "de_DE")])
    ueber = site.post("Über uns", post_type="page", name="uber-uns")
    pll.translations("post", {"en": pll.post(about, "en"), "de": pll.post(ueber, "de")})
    return site


def with_harness(app: WSGIApp, urls: list[str]) -> WSGIApp:
    """Serve the client-side XSLT harness page (and placeholder uploads) next to the app."""
    import json

    body = (HARNESS % {"urls": json.dumps(urls)}).encode()

    def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == HARNESS_PATH:
            start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                      ("Content-Length", str(len(body)))])
            return [body]
        if path == FRAME_PATH:
            query = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""))
            src = query.get("src", ["/"])[0]
            page = FRAME.format(src=html.escape(src if src.startswith("/") else "/")).encode()
            start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                      ("Content-Length", str(len(page)))])
            return [page]
        if path.startswith("/wp-content/uploads/"):
            # Thumbnails in screenshots: a grey placeholder instead of a broken image.
            start_response("200 OK", [("Content-Type", "image/svg+xml"),
                                      ("Content-Length", str(len(PLACEHOLDER)))])
            return [PLACEHOLDER]
        return app(environ, start_response)

    return wsgi


@contextmanager
def live_server(db_dir: Path, make_site: Callable[[str], Site],
                harness_urls: list[str]) -> Iterator[str]:
    """Run the real app for `make_site(base URL)` on 127.0.0.1:<free port>; yields the URL."""
    server: BaseWSGIServer = make_server("127.0.0.1", 0, lambda e, s: [], threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    site = make_site(base)
    # The site's home (in the content too) and HOME_URL are the server itself, so the
    # stylesheet PI, the locs and the uploads are same-origin.
    app = create_app({"TESTING": True, "DATABASE_URL": site.write_sqlite(db_dir / "b.sqlite"),
                      "TABLE_PREFIX": site.prefix, "NOW": "option:test_now",
                      "HOME_URL": base, "ENTRIES_PER_PAGE": ENTRIES_PER_PAGE})
    server.app = with_harness(app, harness_urls)
    thread = threading.Thread(target=server.serve_forever, name="wpsm-live", daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
