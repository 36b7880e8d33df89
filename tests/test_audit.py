"""`wpsitemaps audit`: against the app on 127.0.0.1 and a fake site with deliberate faults."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from werkzeug.wrappers import Request
from werkzeug.wrappers import Response

from tests.support.builder import Site
from tests.support.fakesite import Holder
from tests.support.fakesite import faulty_site
from tests.support.fakesite import good_pages
from tests.support.fakesite import serve
from wpsitemaps import cli
from wpsitemaps.audit.command import Report
from wpsitemaps.audit.command import run_audit
from wpsitemaps.audit.pages import has_noindex

APP_PATHS = ("/robots.txt", "/sitemap_index.xml")


def audit_cli(*args: str) -> Any:
    """Run `wpsitemaps audit ARGS`."""
    return CliRunner().invoke(cli.main, ["audit", *args])


def front_page_site() -> Site:
    """Posts and pages with a static front page.

    With show_on_front = posts the home URL is in both page-sitemap and post-sitemap (as
    Yoast lists it), which the audit rightly reports as a duplicate; see test below.
    """
    site = Site()
    site.post("First post", name="first-post")
    site.post("Second post", name="second-post")
    home = site.post("Home", post_type="page", name="home")
    site.post("About", post_type="page", name="about")
    site.option("show_on_front", "page")
    site.option("page_on_front", str(home))
    return site


@pytest.fixture
def app_site(make_app: Callable[..., Flask]) -> Iterator[str]:
    """The app (robots.txt and sitemaps) plus healthy pages, served on 127.0.0.1."""
    with serve() as (base, holder):
        app = make_app(front_page_site(), HOME_URL=base)

        @Request.application  # type: ignore[misc]
        def pages(request: Request) -> Response:
            return good_pages(request)

        def dispatch(environ: dict[str, Any], start_response: Any) -> Any:
            path = environ.get("PATH_INFO", "")
            to_app = path in APP_PATHS or path.endswith(("-sitemap.xml", ".xsl"))
            return (app if to_app else pages)(environ, start_response)

        holder.app = dispatch
        yield base


@pytest.fixture(scope="module")
def faults() -> Iterator[tuple[Report, Holder]]:
    """One audit of the faulty site (all URLs checked) and the second host's request log."""
    with serve() as (other, other_holder), serve() as (base, holder):
        other_holder.app = faulty_site(other, other)
        holder.app = faulty_site(base, other)
        yield run_audit(base + "/", concurrency=4, timeout=5), other_holder


def kinds_for(report: Report, suffix: str) -> set[str]:
    """Problem kinds reported for URLs ending with `suffix`."""
    return {p.kind for p in report.problems if p.url.endswith(suffix)}


def test_clean_app_exits_zero(app_site: str) -> None:
    """The app's own robots.txt and sitemaps with healthy pages: no problem, exit 0."""
    result = audit_cli(app_site, "--timeout", "5")
    assert result.exit_code == 0, result.output
    assert "URLs checked              " in result.output
    assert "PROBLEM" not in result.output


def test_clean_app_lists_every_url(app_site: str) -> None:
    """Every URL of the app's sitemaps is listed and checked."""
    report = run_audit(app_site)
    # The index, then post, page, category, author and news sitemaps.
    assert report.sitemaps == 6 and report.listed == 6 and report.checked == 6


def test_sample_checks_n_urls(app_site: str) -> None:
    """--sample N checks N of the listed URLs."""
    report = run_audit(app_site, sample=2)
    assert report.listed == 6 and report.checked == 2


@pytest.mark.parametrize(("suffix", "kind"), [
    ("/redirects/", "redirect"),
    ("/wrong-canonical/", "canonical-mismatch"),
    ("/noindex-header/", "noindex-header"),
    ("/noindex-meta/", "noindex-meta"),
    ("/blocked", "robots-blocked"),
    ("/gone/", "status"),
    ("relative-page", "loc-relative"),
    ("/elsewhere/", "loc-off-host"),
    ("/c.xml", "loc-off-host"),
    ("/ok/", "duplicate"),
])
def test_fault_is_found(faults: tuple[Report, Holder], suffix: str, kind: str) -> None:
    """Each deliberate fault is reported against its URL."""
    assert kind in kinds_for(faults[0], suffix)


def test_healthy_url_has_no_page_problem(faults: tuple[Report, Holder]) -> None:
    """The healthy page is only reported as a duplicate (it is listed twice)."""
    assert kinds_for(faults[0], "/ok/") == {"duplicate"}


def test_never_leaves_the_host(faults: tuple[Report, Holder]) -> None:
    """Sitemaps and pages on another host are reported, never requested."""
    assert faults[1].paths == []


def test_blocked_url_is_not_fetched(faults: tuple[Report, Holder]) -> None:
    """A robots-blocked URL is reported without being requested."""
    assert kinds_for(faults[0], "/blocked") == {"robots-blocked"}


def test_oversized_sitemap_is_found() -> None:
    """A sitemap with 50,001 URLs is reported (sampled so the test stays fast)."""
    with serve() as (base, holder):
        holder.app = faulty_site(base, "http://127.0.0.2:9", oversized=True)
        report = run_audit(base, sample=3, timeout=5)
    assert "sitemap-too-many-urls" in kinds_for(report, "/big.xml")


def test_faulty_site_exits_one() -> None:
    """Problems give exit code 1 and one PROBLEM line each."""
    with serve() as (base, holder):
        holder.app = faulty_site(base, "http://127.0.0.2:9")
        result = audit_cli(base, "--concurrency", "2")
    assert result.exit_code == 1
    assert "PROBLEM redirect: " + base + "/redirects/: 301 to " + base + "/ok/" in result.output


def test_missing_sitemap_line_is_found() -> None:
    """robots.txt without a Sitemap: line is a problem; the index is tried anyway."""
    with serve() as (base, holder):
        @Request.application  # type: ignore[misc]
        def site(request: Request) -> Response:
            if request.path == "/robots.txt":
                return Response("User-agent: *\nDisallow:\n", content_type="text/plain")
            return Response("no", 404)

        holder.app = site
        report = run_audit(base)
    assert {p.kind for p in report.problems} == {"robots-no-sitemap", "sitemap-unreachable"}


def test_unreachable_host_exits_two() -> None:
    """A host that does not answer: exit code 2, 'could not run'."""
    with serve() as (base, _holder):
        pass  # the server is gone: nothing listens on that port any more
    result = audit_cli(base, "--timeout", "2")
    assert result.exit_code == 2 and "could not run" in result.output


def test_bad_url_exits_two() -> None:
    """A URL that is not http(s): exit code 2."""
    assert audit_cli("ftp://example.test/").exit_code == 2


@pytest.mark.parametrize(("value", "expected"), [
    ("noindex", True), ("NOINDEX, nofollow", True), ("none", True), ("googlebot: noindex", True),
    ("otherbot: noindex", False), ("index, follow", False), ("max-snippet: 20", False),
    ("unavailable_after: 2025-01-01", False),
])
def test_noindex_directives(value: str, expected: bool) -> None:
    """X-Robots-Tag / meta robots parsing, scoped directives included."""
    assert has_noindex(value) is expected


def test_home_listed_twice_is_not_a_duplicate(make_app: Callable[..., Flask]) -> None:
    """With show_on_front = posts Yoast lists the home URL in page- and post-sitemap: allowed."""
    from tests.support.data import small_site

    with serve() as (base, holder):
        app = make_app(small_site(), HOME_URL=base)
        holder.app = lambda environ, start: (
            app if environ["PATH_INFO"].endswith((".xml", ".txt")) else _pages)(environ, start)
        report = run_audit(base)
    assert report.problems == []
    assert report.sitemaps >= 4


def test_gzip_sitemap_file_is_read() -> None:
    """A Sitemap: line naming a .xml.gz file is decompressed and read."""
    import gzip

    with serve() as (base, holder):
        xml = ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
               f"<url><loc>{base}/ok/</loc></url></urlset>").encode()

        @Request.application  # type: ignore[misc]
        def site(request: Request) -> Response:
            if request.path == "/robots.txt":
                return Response(f"User-agent: *\nDisallow:\nSitemap: {base}/s.xml.gz\n")
            if request.path == "/s.xml.gz":
                return Response(gzip.compress(xml), content_type="application/gzip")
            return good_pages(request)

        holder.app = site
        report = run_audit(base)
    assert report.problems == [] and report.checked == 1


@Request.application  # type: ignore[misc]
def _pages(request: Request) -> Response:
    return good_pages(request)
