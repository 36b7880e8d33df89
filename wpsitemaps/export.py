"""`wpsitemaps export DIR`: the whole sitemap set as static files, written atomically.

Every file is what the service answers for the same path, taken from serving.documents (the
XML and its gzip twin) and serving.robots, so static hosting and the live service share one
code path; a test holds every file byte-identical to the HTTP answer.
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

from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.network_check import all_blogs
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.serving import addresses
from wpsitemaps.serving import documents
from wpsitemaps.serving.documents import Document
from wpsitemaps.serving.documents import NoSuchDocument
from wpsitemaps.serving.robots import robots_text
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.variants import gz_file
from wpsitemaps.sitemaps.providers.base import NotReady
from wpsitemaps.wordpress.queries import network as qnet

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
INDEX = addresses.INDEX
SITEMAP_LINES = "robots-sitemap.txt"
STYLESHEET_RE = re.compile(rb"<\?xml-stylesheet\b[^>]*\bhref=\"([^\"]+)\"")
SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
Progress = Callable[[int], None]


class ExportError(RuntimeError):
    """The export cannot be completed (a document cannot be had, or the disk failed)."""


def fetch(session: SiteSession, path: str) -> Document:
    """The document at `path` ('/post-sitemap.xml'), its bytes loaded; a document that
    cannot be had (what HTTP would answer with a 404 or 503) stops the export."""
    try:
        return documents.get(session, documents.parse(path.lstrip("/"))).loaded()
    except NoSuchDocument as exc:
        raise ExportError(f"{path} answered 404 NOT FOUND: {exc}") from None
    except NotReady:
        raise ExportError(f"{path} answered 503 SERVICE UNAVAILABLE: being prepared") from None
    except SQLAlchemyError as exc:
        raise unreadable(session.service, path, exc) from None


def unreadable(service: Service, path: str, exc: SQLAlchemyError) -> ExportError:
    """The export stops on a database error: what it means, in one line."""
    return ExportError(f"{path} answered 503 SERVICE UNAVAILABLE: the database cannot be "
                       f"read: {service.outage.describe(exc)}")


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


def open_site(service: Service, host: str, path: str) -> SiteSession:
    """A session with the site that answers at host + path (ExportError where none does)."""
    try:
        res = service.resolve(host, path)
    except SQLAlchemyError as exc:
        raise unreadable(service, path, exc) from None
    if res.missing:
        raise ExportError(f"{path} answered 404 NOT FOUND: no site answers at {host}{path}")
    return SiteSession(service, res)


def site_files(service: Service, with_gzip: bool,
               start: Callable[[int], Progress] | None = None,
               base_url: str = "http://localhost", prefix: str = "",
               ) -> Iterator[tuple[str, bytes]]:
    """Yield (file name, bytes) for the index, every sitemap page, XSLs and robots lines.

    On a network, `base_url` and `prefix` say which site (its domain and path)."""
    host = urlsplit(base_url).netloc
    with open_site(service, host, prefix + "/") as session:
        home_path = urlsplit(session.site.options.home).path.rstrip("/")
        index = fetch(session, f"/{INDEX}")
        names = [local_name(el.text or "", home_path)
                 for el in ET.fromstring(index.data or b"").iter(SM + "loc")]
        step = start(len(names) + 1) if start else None
        xsl = dict.fromkeys(stylesheets(index.data or b"", home_path))
        for name in [INDEX, *names]:
            doc = index if name == INDEX else fetch(session, f"/{name}")
            body = doc.data or b""
            yield name, body
            if with_gzip:
                yield name + ".gz", gz_file(doc)[1].body
            xsl.update(dict.fromkeys(stylesheets(body, home_path)))
            if step:
                step(1)
    yield from xsl_files(xsl)
    yield from robots_files(service, host)


def xsl_files(named: dict[str, None]) -> Iterator[tuple[str, bytes]]:
    """The stylesheets the documents name, and every stylesheet of xsl/ (the bytes the
    stylesheet route serves: the files themselves)."""
    if XSL_DIR.is_dir():
        named.update(dict.fromkeys(p.name for p in sorted(XSL_DIR.glob("*.xsl"))))
    for name in named:
        source = XSL_DIR / name
        if source.is_file():
            yield name, source.read_bytes()


def robots_files(service: Service, host: str) -> Iterator[tuple[str, bytes]]:
    """robots.txt of the host (it lives at the root, whatever the site's path) and its
    Sitemap: lines alone."""
    with open_site(service, host, "/robots.txt") as session:
        try:
            robots = robots_text(session).encode("utf-8")
        except SQLAlchemyError as exc:
            raise unreadable(service, "/robots.txt", exc) from None
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


def network_targets(service: Service, blog_id: int | None) -> list[ExportSite] | None:
    """The sites of a network to export (one, or all); None when not a network service."""
    sites = service.sites
    if sites.mode(service.connect).network is None:
        return None
    with service.connect() as conn:
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
