"""`wpsitemaps audit URL`: robots.txt, every sitemap, and the URLs they list, checked.

The checklist every sitemap set-up repeats by hand: robots.txt names the sitemap, the
sitemaps are valid (XSD) and within the limits, and every listed URL answers 200 itself
with a canonical equal to its loc, no noindex, and is not blocked by robots.txt under
Google's rules. robots.txt is read with Protego, a maintained parser implementing them
(longest match wins, Allow wins a tie, `*` and `$`).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from urllib.parse import urlsplit

from lxml import etree
from protego import Protego

from wpsitemaps.audit.http import Fetched
from wpsitemaps.audit.http import HostFetcher
from wpsitemaps.audit.http import origin
from wpsitemaps.audit.pages import page_problems
from wpsitemaps.audit.xsd import SM
from wpsitemaps.audit.xsd import parse
from wpsitemaps.audit.xsd import xsd_errors

MAX_SITEMAP_BYTES = 50 * 1024 * 1024  # sitemaps.org: 52,428,800 bytes uncompressed
MAX_URLS = 50_000  # sitemaps.org: per sitemap and per index
MAX_LOC = 2048  # sitemaps.org: a <loc> is less than 2,048 characters
PAGE_BYTES = 5 * 1024 * 1024  # enough for any <head>; bigger pages are read in part
MAX_DEPTH = 3


class CannotRun(RuntimeError):
    """The audit could not run at all (bad URL, host unreachable): exit code 2."""


@dataclass(frozen=True)
class Problem:
    """One finding: a short kind, the URL it concerns, and what is wrong."""

    kind: str
    url: str
    detail: str


@dataclass
class Report:
    """What the audit saw and found."""

    base: str
    robots_status: str = ""
    sitemap_lines: int = 0
    sitemaps: int = 0
    listed: int = 0
    checked: int = 0
    problems: list[Problem] = field(default_factory=list)


EXTENSION_NAMESPACES = ("http://www.google.com/schemas/sitemap-news/0.9",
                        "http://www.google.com/schemas/sitemap-video/1.1")


@dataclass
class Sitemap:
    """A fetched sitemap: its children (index) or its locs (urlset), and its problems."""

    url: str
    children: list[str] = field(default_factory=list)
    locs: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # A news or video sitemap repeats URLs of the content sitemaps by design (Google asks
    # for that), so its locs are not duplicates.
    extension: bool = False


class Auditor:
    """One audit run against one site."""

    def __init__(self, base: str, sample: int | None = None, concurrency: int = 8,
                 timeout: float = 10.0, agent: str = "Googlebot", seed: int = 0) -> None:
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CannotRun(f"{base!r} is not an absolute http(s) URL")
        self.root = f"{parts.scheme}://{parts.netloc}"
        self.home = base.split("?", 1)[0].rstrip("/")
        self.fetcher = HostFetcher(self.root, timeout)
        self.sample, self.concurrency, self.agent = sample, concurrency, agent
        self.rng = random.Random(seed)
        self.rules = Protego.parse("")
        self.report = Report(self.root)

    def run(self) -> Report:
        """robots.txt, then the sitemaps, then the listed URLs."""
        starts = self.read_robots()
        locs = self.walk(starts)
        self.check_pages(locs)
        return self.report

    def problem(self, kind: str, url: str, detail: str) -> None:
        """Record a finding."""
        self.report.problems.append(Problem(kind, url, detail))

    def read_robots(self) -> list[str]:
        """Fetch robots.txt; return the sitemap URLs to start from."""
        url = self.root + "/robots.txt"
        got = self.fetcher.get(url, 500 * 1024)
        if got.error:
            raise CannotRun(f"cannot reach {url}: {got.error}")
        self.report.robots_status = str(got.status)
        if got.status == 200:
            self.rules = Protego.parse(got.body.decode("utf-8", "replace"))
        else:
            # Google: 4xx means no rules; 5xx means "crawl nothing" for a while.
            self.problem("robots-unreachable", url, f"answered {got.status}, not 200")
        listed = list(dict.fromkeys(self.rules.sitemaps))
        self.report.sitemap_lines = len(listed)
        starts = []
        for sitemap in listed:
            if self.fetcher.allowed(sitemap):
                starts.append(sitemap)
            else:
                self.problem("sitemap-off-host", sitemap, "Sitemap: line on another host; "
                             "not fetched")
        if not listed:
            self.problem("robots-no-sitemap", url, "robots.txt has no Sitemap: line")
        return starts or [self.root + "/sitemap_index.xml"]

    def walk(self, starts: list[str]) -> list[str]:
        """Fetch sitemaps breadth-first (indexes, then theirs); return the unique locs."""
        seen_maps: set[str] = set()
        owner: dict[str, str] = {}
        level = list(dict.fromkeys(starts))
        depth = 0
        with ThreadPoolExecutor(self.concurrency) as pool:
            while level and depth < MAX_DEPTH:
                seen_maps.update(level)
                results = list(pool.map(self.read_sitemap, level))
                level = []
                for sitemap in results:
                    self.report.sitemaps += 1
                    self.report.problems.extend(sitemap.problems)
                    level += [c for c in sitemap.children if c not in seen_maps]
                    self.collect(sitemap, owner)
                level = list(dict.fromkeys(level))
                depth += 1
        self.report.listed = len(owner)
        return list(owner)

    def collect(self, sitemap: Sitemap, owner: dict[str, str]) -> None:
        """Add a urlset's locs, reporting duplicates across (and within) sitemaps.

        Exempt: news/video sitemaps, and the home URL, which Yoast lists first in both the
        post and the page sitemap when the front page shows the latest posts.
        """
        for loc in sitemap.locs:
            if sitemap.extension or loc.rstrip("/") in (self.root, self.home):
                owner.setdefault(loc, sitemap.url)
            elif loc in owner:
                self.problem("duplicate", loc, f"listed in {sitemap.url} and {owner[loc]}")
            else:
                owner[loc] = sitemap.url

    def read_sitemap(self, url: str) -> Sitemap:
        """Fetch, size-check, parse and XSD-validate one sitemap (runs in a worker)."""
        out = Sitemap(url)
        got = self.fetcher.get(url, MAX_SITEMAP_BYTES)
        body = self.sitemap_body(got, out)
        if body is None:
            return out
        try:
            root = parse(body)
        except ValueError as exc:
            out.problems.append(Problem("sitemap-invalid", url, str(exc)))
            return out
        for message in xsd_errors(root):
            out.problems.append(Problem("sitemap-invalid", url, f"XSD {message}"))
        is_index = etree.QName(root).localname == "sitemapindex"
        tag = f"{{{SM}}}sitemap" if is_index else f"{{{SM}}}url"
        entries = root.findall(tag)
        if len(entries) > MAX_URLS:
            out.problems.append(Problem("sitemap-too-many-urls", url,
                                        f"{len(entries)} entries (limit 50,000)"))
        locs = self.good_locs(url, (e.findtext(f"{{{SM}}}loc") or "" for e in entries), out)
        if is_index:
            out.children = locs
        else:
            out.locs = locs
            out.extension = any(etree.QName(child).namespace in EXTENSION_NAMESPACES
                                for entry in entries for child in entry)
        return out

    def sitemap_body(self, got: Fetched, out: Sitemap) -> bytes | None:
        """The uncompressed sitemap bytes, or None after recording why there are none."""
        if got.error or got.status != 200:
            kind = "sitemap-redirect" if 300 <= got.status < 400 else "sitemap-unreachable"
            detail = got.error or f"answered {got.status}" + (
                f" to {got.headers.get('Location')}" if kind == "sitemap-redirect" else "")
            out.problems.append(Problem(kind, got.url, detail))
            return None
        body = got.body
        if body[:2] == b"\x1f\x8b":  # a .xml.gz file (not a Content-Encoding)
            try:
                body = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(
                    body, MAX_SITEMAP_BYTES + 1)
            except zlib.error as exc:
                out.problems.append(Problem("sitemap-invalid", got.url, f"bad gzip: {exc}"))
                return None
        if got.truncated or len(body) > MAX_SITEMAP_BYTES:
            out.problems.append(Problem("sitemap-too-large", got.url,
                                        "over 50 MB (52,428,800 bytes) uncompressed"))
            return None
        return body

    def good_locs(self, sitemap: str, locs: Iterable[str], out: Sitemap) -> list[str]:
        """The locs fit to check: absolute, same scheme and host as the sitemap, < 2,048."""
        good = []
        home = origin(sitemap)
        for raw in locs:
            loc = raw.strip()
            parts = urlsplit(loc)
            if not parts.scheme or not parts.netloc:
                out.problems.append(Problem("loc-relative", loc or "(empty)",
                                            f"not an absolute URL (in {sitemap})"))
            elif origin(loc) != home:
                out.problems.append(Problem("loc-off-host", loc, f"not on the host and "
                                            f"scheme of {sitemap}; not fetched"))
            elif len(loc) > MAX_LOC:
                out.problems.append(Problem("loc-too-long", loc[:80] + "...",
                                            f"{len(loc)} characters (limit 2,048)"))
            else:
                good.append(loc)
        return good

    def check_pages(self, locs: list[str]) -> None:
        """Check all listed URLs, or a random sample, with bounded concurrency."""
        chosen = locs
        if self.sample is not None and self.sample < len(locs):
            chosen = self.rng.sample(locs, self.sample)
        self.report.checked = len(chosen)
        with ThreadPoolExecutor(self.concurrency) as pool:
            for loc, found in zip(chosen, pool.map(self.check_page, chosen), strict=True):
                for kind, detail in found:
                    self.problem(kind, loc, detail)

    def check_page(self, loc: str) -> list[tuple[str, str]]:
        """Problems of one listed URL; robots-blocked URLs are not fetched (as Google)."""
        if not self.rules.can_fetch(loc, self.agent):
            return [("robots-blocked", f"disallowed for {self.agent} by robots.txt")]
        return page_problems(loc, self.fetcher.get(loc, PAGE_BYTES))


def run_audit(base: str, **options: Any) -> Report:
    """Audit a site; raises CannotRun when it cannot be audited at all."""
    return Auditor(base, **options).run()


def format_report(report: Report) -> list[str]:
    """A summary table, then one line per problem."""
    kinds: dict[str, int] = {}
    for p in report.problems:
        kinds[p.kind] = kinds.get(p.kind, 0) + 1
    rows = [("site", report.base),
            ("robots.txt", f"{report.robots_status}, {report.sitemap_lines} Sitemap: lines"),
            ("sitemaps read", str(report.sitemaps)), ("URLs listed", str(report.listed)),
            ("URLs checked", str(report.checked)), ("problems", str(len(report.problems)))]
    rows += [(f"  {kind}", str(n)) for kind, n in sorted(kinds.items())]
    lines = [f"{name:<26}{value}" for name, value in rows]
    lines += [f"PROBLEM {p.kind}: {p.url}: {p.detail}" for p in report.problems]
    return lines
