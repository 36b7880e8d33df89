"""`wpsitemaps export DIR`: the whole sitemap set as static files, written atomically.

Every file is what the app answers for the same path, fetched through Flask's test client
of the same app, so static hosting and the live service share one code path.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit
from xml.etree import ElementTree as ET

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from wpsitemaps.paths import XSL_DIR
from wpsitemaps.web.context import BACKGROUND_ENVIRON_KEY
from wpsitemaps.web.context import load_site
from wpsitemaps.wordpress.queries import network as qnet

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
INDEX = "sitemap_index.xml"
SITEMAP_LINES = "robots-sitemap.txt"
STYLESHEET_RE = re.compile(rb"<\?xml-stylesheet\b[^>]*\bhref=\"([^\"]+)\"")
SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
Progress = Callable[[int], None]


class ExportError(RuntimeError):
    """The export cannot be completed (a path did not answer 200, or the disk failed)."""


def fetch(client: FlaskClient | SiteClient, path: str) -> bytes:
    """The body the app answers for `path`; anything but 200 stops the export."""
    resp = client.get(path)
    if resp.status_code != 200:
        raise ExportError(f"{path} answered {resp.status}")
    return resp.get_data()


def local_name(url: str, home_path: str) -> str:
    """File name of a sitemap or stylesheet URL under the home URL (one path segment)."""
    path = urlsplit(url).path
    if home_path and path.startswith(home_path + "/"):
        path = path[len(home_path):]
    name = path.lstrip("/")
    if not SAFE_NAME.match(name) or name.startswith("."):
        raise ExportError(f"{url} does not map to a file name in the export directory")
    return name


def stylesheets(body: bytes, home_path: str) -> list[str]:
    """File names of the xml-stylesheet PIs of a document."""
    return [local_name(href.decode(), home_path) for href in STYLESHEET_RE.findall(body[:2048])]


def xsl_file(client: FlaskClient | SiteClient, name: str) -> bytes | None:
    """A stylesheet as the app serves it, else the file from xsl/, else None."""
    resp = client.get(f"/{name}")
    if resp.status_code == 200:
        return resp.get_data()
    source = XSL_DIR / name
    return source.read_bytes() if source.is_file() else None


class SiteClient:
    """A test client bound to one site's address: its host and its path prefix (`/fr`)."""

    def __init__(self, app: Flask, base_url: str, prefix: str) -> None:
        self.client = app.test_client()
        self.base_url, self.prefix = base_url, prefix

    def get(self, path: str) -> TestResponse:
        """GET a root-relative path of the site (no client waits: the long time limits)."""
        return self.client.get(self.prefix + path, base_url=self.base_url,
                               environ_base={BACKGROUND_ENVIRON_KEY: True})


def site_files(app: Flask, with_gzip: bool,
               start: Callable[[int], Progress] | None = None,
               base_url: str = "http://localhost", prefix: str = "",
               ) -> Iterator[tuple[str, bytes]]:
    """Yield (file name, bytes) for the index, every sitemap page, XSLs and robots lines.

    On a network, `base_url` and `prefix` say which site (its domain and path)."""
    client = SiteClient(app, base_url, prefix)
    with app.test_request_context(prefix + "/", base_url=base_url):
        home_path = urlsplit(load_site().options.home).path.rstrip("/")
    index = fetch(client, f"/{INDEX}")
    names = [local_name(el.text or "", home_path)
             for el in ET.fromstring(index).iter(SM + "loc")]
    step = start(len(names) + 1) if start else None
    xsl = dict.fromkeys(stylesheets(index, home_path))
    for name in [INDEX, *names]:
        body = index if name == INDEX else fetch(client, f"/{name}")
        yield name, body
        if with_gzip:
            yield name + ".gz", fetch(client, f"/{name}.gz")
        xsl.update(dict.fromkeys(stylesheets(body, home_path)))
        if step:
            step(1)
    if XSL_DIR.is_dir():
        xsl.update(dict.fromkeys(p.name for p in sorted(XSL_DIR.glob("*.xsl"))))
    for name in xsl:
        data = xsl_file(client, name)
        if data is not None:
            yield name, data
    # robots.txt lives at the root of the host, whatever the site's path.
    robots = fetch(SiteClient(app, base_url, ""), "/robots.txt")
    yield "robots.txt", robots
    lines = [line for line in robots.splitlines(keepends=True) if line.startswith(b"Sitemap:")]
    yield SITEMAP_LINES, b"".join(lines)


def write_atomically(target: Path, files: Iterator[tuple[str, bytes]]) -> int:
    """Write files into a temporary directory beside `target`, then swap it into place.

    A failure at any point leaves an existing `target` untouched. The swap is two renames
    on one file system (target -> backup, temporary -> target), then the backup goes.
    """
    target = target.absolute()
    if target.exists() and not target.is_dir():
        raise ExportError(f"{target} exists and is not a directory")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    count = 0
    try:
        for name, data in files:
            (tmp / name).write_bytes(data)
            os.chmod(tmp / name, 0o644)
            count += 1
        os.chmod(tmp, 0o755)  # mkdtemp makes it 0700; the web server must read it
        _swap(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return count


def _swap(tmp: Path, target: Path) -> None:
    """Rename tmp to target, keeping the old target until the new one is in place."""
    if not target.exists():
        os.rename(tmp, target)
        return
    backup = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rmdir(backup)
    os.rename(target, backup)
    try:
        os.rename(tmp, target)
    except OSError:
        os.rename(backup, target)
        raise
    shutil.rmtree(backup, ignore_errors=True)


@dataclass(frozen=True)
class ExportSite:
    """One site to export: its directory name, address and path prefix."""

    name: str
    base_url: str
    prefix: str
    skip: str | None = None  # why it is not written (a 410 site)


def network_targets(app: Flask, blog_id: int | None) -> list[ExportSite] | None:
    """The sites of a network to export (one, or all); None when not a network service."""
    from wpsitemaps.network_check import all_blogs
    from wpsitemaps.web.context import ENGINE
    from wpsitemaps.web.context import SITES

    sites = app.extensions[SITES]
    engine = app.extensions[ENGINE]
    if sites.mode(engine.connect).network is None:
        return None
    with engine.connect() as conn:
        blogs = list(all_blogs(conn, sites.base_prefix))
        homes = qnet.homes(conn, sites.base_prefix, [b.blog_id for b in blogs if not b.gone])
    out = []
    for blog in blogs:
        if blog_id is not None and blog.blog_id != blog_id:
            continue
        scheme = urlsplit(homes.get(blog.blog_id, "")).scheme or "http"
        out.append(ExportSite(f"blog{blog.blog_id}", f"{scheme}://{blog.domain}", blog.prefix,
                          f"410 {blog.gone}" if blog.gone else None))
    if blog_id is not None and not out:
        raise ExportError(f"no site with blog_id {blog_id} in this network")
    return out
