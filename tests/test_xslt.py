"""Server-side XSLT: the xsl/ stylesheets turn each sitemap kind into a readable HTML table."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from wpsitemaps.web import libxslt
from wpsitemaps.web import xslt

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
SM = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
VIDEO = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'

INDEX = (HEAD + f"<sitemapindex {SM}>"
         "<sitemap><loc>https://ex.test/post-sitemap.xml</loc>"
         "<lastmod>2026-11-28T10:05:00+00:00</lastmod></sitemap>"
         "<sitemap><loc>https://ex.test/page-sitemap.xml</loc>"
         "<lastmod>2026-11-27T08:00:00+01:00</lastmod></sitemap>"
         "<sitemap><loc>https://ex.test/category-sitemap.xml</loc></sitemap>"
         "</sitemapindex>").encode()

URLSET = (HEAD + f"<urlset {SM} {IMAGE}>"
          "<url><loc>https://ex.test/</loc></url>"
          "<url><loc>https://ex.test/hello/?a=1&amp;b=2</loc>"
          "<lastmod>2026-11-28T10:05:00Z</lastmod>"
          "<image:image><image:loc>https://ex.test/a.jpg</image:loc></image:image>"
          "<image:image><image:loc>https://ex.test/b.jpg</image:loc></image:image></url>"
          "<url><loc>https://ex.test/gallery/</loc>"
          "<lastmod>2026-11-20T00:00:00-05:00</lastmod>"
          "<image:image><image:loc>https://ex.test/c.jpg</image:loc></image:image></url>"
          "</urlset>").encode()


def _video(title: str, duration: str | None, player: str | None, content: str | None) -> str:
    """One video:video element with the fields the stylesheet shows."""
    parts = ["<video:video>",
             f"<video:thumbnail_loc>https://ex.test/t/{title}.jpg</video:thumbnail_loc>",
             f"<video:title>{title}</video:title>",
             "<video:description>About it</video:description>"]
    if content:
        parts.append(f"<video:content_loc>{content}</video:content_loc>")
    if player:
        parts.append(f"<video:player_loc>{player}</video:player_loc>")
    if duration:
        parts.append(f"<video:duration>{duration}</video:duration>")
    return "".join(parts) + "</video:video>"


VIDEOS = (HEAD + f"<urlset {SM} {VIDEO}>"
          "<url><loc>https://ex.test/clip/</loc>"
          + _video("Clip", "75", "https://www.youtube.com/embed/abc", None)
          + _video("Second", "3725", None, "https://ex.test/v.mp4") + "</url>"
          "<url><loc>https://ex.test/talk/</loc>"
          + _video("Talk", None, "https://player.vimeo.com/video/42", None) + "</url>"
          "</urlset>").encode()


def _news(loc: str, title: str, date: str, lang: str) -> str:
    """One url with a news:news element."""
    return (f"<url><loc>{loc}</loc><news:news><news:publication><news:name>Ex Times</news:name>"
            f"<news:language>{lang}</news:language></news:publication>"
            f"<news:publication_date>{date}</news:publication_date>"
            f"<news:title>{title}</news:title></news:news></url>")


NEWS_DOC = (HEAD + f"<urlset {SM} {NEWS}>"
            + _news("https://ex.test/a/", "Fish &amp; chips", "2026-11-29T09:30:00+00:00", "en")
            + _news("https://ex.test/b/", "Zweiter", "2026-11-28T23:00:00+01:00", "de")
            + "</urlset>").encode()


def render(xml: bytes, kind: str) -> lxml.html.HtmlElement:
    """Transform and parse the HTML result."""
    return lxml.html.document_fromstring(xslt.transform(xml, kind))


def rows(page: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The data rows of the page's table."""
    result: list[lxml.html.HtmlElement] = page.xpath("//table/tbody/tr")
    return result


def cells(page: lxml.html.HtmlElement, cls: str) -> list[str]:
    """Text of every body cell with a class, one per row."""
    found = page.xpath(f"//tbody//td[contains(@class,'{cls}')]")
    return [td.text_content().strip() for td in found]


def test_output_is_html5_utf8() -> None:
    """The result is an HTML5 document (doctype html) declaring UTF-8."""
    out = xslt.transform(INDEX, "main")
    assert out.lstrip().lower().startswith(b"<!doctype html>")
    assert b"charset=UTF-8" in out


def test_index_rows_and_links() -> None:
    """The index shows one row per sitemap, each linking to its loc."""
    page = render(INDEX, "main")
    assert len(rows(page)) == 3
    assert [a.get("href") for a in page.xpath("//tbody//td[contains(@class,'url')]/a")] == [
        "https://ex.test/post-sitemap.xml", "https://ex.test/page-sitemap.xml",
        "https://ex.test/category-sitemap.xml"]


def test_index_heading_and_count() -> None:
    """The index says what it is and how many sitemaps it lists."""
    page = render(INDEX, "main")
    assert page.xpath("string(//h1)") == "XML Sitemap Index"
    assert "lists 3 sitemaps" in " ".join(page.xpath("string(//main/p[1])").split())


def test_index_lastmod_shown_readably() -> None:
    """lastmod is shown as date, hours:minutes and offset; a missing one as a dash."""
    page = render(INDEX, "main")
    assert cells(page, "date") == ["2026-11-28 10:05 +00:00", "2026-11-27 08:00 +01:00", "—"]


def test_urlset_rows_links_and_image_counts() -> None:
    """A content sitemap shows each URL as a link with its number of images."""
    page = render(URLSET, "main")
    assert len(rows(page)) == 3
    links = page.xpath("//tbody//td[contains(@class,'url')]/a")
    assert [a.get("href") for a in links] == [
        "https://ex.test/", "https://ex.test/hello/?a=1&b=2", "https://ex.test/gallery/"]
    assert cells(page, "images") == ["0", "2", "1"]


HREFLANG = (HEAD + f'<urlset {SM} xmlns:xhtml="http://www.w3.org/1999/xhtml">'
            "<url><loc>https://ex.test/en/</loc>"
            '<xhtml:link rel="alternate" hreflang="en" href="https://ex.test/en/"/>'
            '<xhtml:link rel="alternate" hreflang="de" href="https://ex.test/de/"/>'
            '<xhtml:link rel="alternate" hreflang="x-default" href="https://ex.test/"/>'
            "</url><url><loc>https://ex.test/en/only/</loc></url></urlset>").encode()


def test_urlset_hreflang_column_lists_each_translation() -> None:
    """A multilingual sitemap gets a Languages column linking each hreflang alternate."""
    page = render(HREFLANG, "main")
    assert "Languages" in page.xpath("//thead//th/text()")
    links = [row.xpath(".//td[contains(@class,'hreflang')]/a") for row in rows(page)]
    assert [[(a.text_content().strip(), a.get("href")) for a in cell] for cell in links] == [
        [("en", "https://ex.test/en/"), ("de", "https://ex.test/de/"),
         ("x-default", "https://ex.test/")], []]


def test_urlset_without_hreflang_has_no_languages_column() -> None:
    """A one-language sitemap keeps its four columns."""
    page = render(URLSET, "main")
    assert "Languages" not in page.xpath("//thead//th/text()")
    assert not page.xpath("//td[contains(@class,'hreflang')]")


def test_urlset_heading_counts_and_back_link() -> None:
    """A content sitemap names itself, counts URLs and images, and links to the index."""
    page = render(URLSET, "main")
    assert page.xpath("string(//h1)") == "XML Sitemap"
    intro = " ".join(page.xpath("string(//main/p[1])").split())
    assert intro == "This sitemap lists 3 URLs with 3 images."
    assert page.xpath("//a[@class='back']/@href") == ["sitemap_index.xml"]


def test_urlset_dates_with_z_and_negative_offset() -> None:
    """'Z' reads as UTC and negative offsets keep their sign."""
    page = render(URLSET, "main")
    assert cells(page, "date") == ["—", "2026-11-28 10:05 UTC", "2026-11-20 00:00 -05:00"]


def test_video_rows_one_per_video() -> None:
    """The video sitemap has one row per video, with its page as a link."""
    page = render(VIDEOS, "video")
    assert len(rows(page)) == 3
    pages = [a.get("href") for a in page.xpath("//tbody//td[contains(@class,'page')]/a")]
    assert pages == ["https://ex.test/clip/", "https://ex.test/clip/", "https://ex.test/talk/"]
    assert "3 videos on 2 pages" in " ".join(page.xpath("string(//main/p[1])").split())


def test_video_durations_as_minutes_seconds() -> None:
    """Durations in seconds read as mm:ss (h:mm:ss from an hour); unknown is a dash."""
    assert cells(render(VIDEOS, "video"), "duration") == ["01:15", "1:02:05", "—"]


def test_video_thumbnails_titles_and_player_links() -> None:
    """Each video shows its thumbnail, title and player or file link."""
    page = render(VIDEOS, "video")
    assert page.xpath("//tbody//img/@src") == [
        "https://ex.test/t/Clip.jpg", "https://ex.test/t/Second.jpg", "https://ex.test/t/Talk.jpg"]
    assert [t.strip() for t in page.xpath("//tbody//td[contains(@class,'title')]/strong/text()")
            ] == ["Clip", "Second", "Talk"]
    assert page.xpath("//tbody//td[contains(@class,'video')]/a/@href") == [
        "https://www.youtube.com/embed/abc", "https://ex.test/v.mp4",
        "https://player.vimeo.com/video/42"]


def test_news_rows_titles_and_links() -> None:
    """The news sitemap links each article's title to its loc."""
    page = render(NEWS_DOC, "news")
    assert len(rows(page)) == 2
    links = page.xpath("//tbody//td[contains(@class,'title')]/a")
    assert [(a.get("href"), a.text) for a in links] == [
        ("https://ex.test/a/", "Fish & chips"), ("https://ex.test/b/", "Zweiter")]


def test_news_publication_dates_and_languages() -> None:
    """Publication dates and languages are shown per article."""
    page = render(NEWS_DOC, "news")
    published = page.xpath("//tbody//td[@data-label='Published']")
    assert [td.text_content().strip() for td in published] == [
        "2026-11-29 09:30 +00:00", "2026-11-28 23:00 +01:00"]
    assert cells(page, "lang") == ["en", "de"]
    assert page.xpath("string(//h1)") == "News Sitemap"


def test_one_inline_script_no_external_files() -> None:
    """Pages carry one inline script and load no external script or CSS."""
    for xml, kind in ((INDEX, "main"), (URLSET, "main"), (VIDEOS, "video"), (NEWS_DOC, "news")):
        page = render(xml, kind)
        assert page.xpath("//script[@src] | //link[@rel='stylesheet'] | "
                          "//@style[contains(.,'url(')]") == []
        assert len(page.xpath("//script")) == 1
        assert page.xpath("//meta[@name='viewport']")


def test_unknown_kind_is_an_error() -> None:
    """Only main, video and news have stylesheets."""
    with pytest.raises(ValueError):
        xslt.transform(INDEX, "bogus")


@pytest.mark.parametrize(("headers", "expected"), [
    ({"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}, True),
    ({"sec-fetch-dest": "Document", "sec-fetch-mode": "NAVIGATE"}, True),
    ({"Sec-Fetch-Dest": "iframe", "Sec-Fetch-Mode": "navigate"}, False),
    ({"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors"}, False),
    ({"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "no-cors"}, False),
    ({"Sec-Fetch-Dest": "document"}, False),
    ({"Sec-Fetch-Mode": "navigate"}, False),
    ({"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
     False),
    ({}, False),
])
def test_wants_html(headers: dict[str, str], expected: bool) -> None:
    """Only a top-level navigation (document + navigate) gets HTML."""
    from werkzeug.datastructures import Headers

    assert xslt.wants_html(Headers(headers)) is expected


def _evil(tmp_path: Path, select: str) -> etree.XSLT:
    """Compile a stylesheet that tries to load `select` through document()."""
    path = tmp_path / "evil.xsl"
    path.write_text('<xsl:stylesheet version="1.0" '
                    'xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
                    f'<xsl:template match="/"><r><xsl:copy-of select="document(\'{select}\')"/>'
                    "</r></xsl:template></xsl:stylesheet>")
    return libxslt.compile_stylesheet(path, root=tmp_path)


def test_document_of_a_local_file_is_denied(tmp_path: Path) -> None:
    """document() of a readable XML file fails instead of copying it into the page."""
    (tmp_path / "secret.xml").write_text("<secret>s3cr3t</secret>")
    with pytest.raises(etree.XSLTApplyError, match="read rights"):
        _evil(tmp_path, str(tmp_path / "secret.xml"))(etree.fromstring(b"<a/>"))


def test_document_of_etc_passwd_is_denied(tmp_path: Path) -> None:
    """document('/etc/passwd') fails."""
    with pytest.raises(etree.XSLTApplyError, match="read rights"):
        _evil(tmp_path, "/etc/passwd")(etree.fromstring(b"<a/>"))


def test_document_over_the_network_is_denied(tmp_path: Path) -> None:
    """document() of an http URL fails without any connection attempt."""
    with pytest.raises(etree.XSLTApplyError, match="read rights for http"):
        _evil(tmp_path, "http://127.0.0.1:9/x.xml")(etree.fromstring(b"<a/>"))


def test_include_outside_xsl_dir_is_refused(tmp_path: Path) -> None:
    """Compile-time xsl:include may only read files under the stylesheet directory."""
    (tmp_path / "xsl").mkdir()
    path = tmp_path / "xsl" / "inc.xsl"
    path.write_text('<xsl:stylesheet version="1.0" '
                    'xmlns:xsl="http://www.w3.org/1999/XSL/Transform">'
                    f'<xsl:include href="{tmp_path}/other.xsl"/></xsl:stylesheet>')
    (tmp_path / "other.xsl").write_text('<xsl:stylesheet version="1.0" '
                                        'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>')
    with pytest.raises(etree.XSLTParseError, match="only files in xsl/"):
        libxslt.compile_stylesheet(path, root=tmp_path / "xsl")


def test_external_entities_in_input_are_not_expanded(tmp_path: Path) -> None:
    """A sitemap declaring an external entity does not leak the file into the HTML."""
    (tmp_path / "secret.txt").write_text("s3cr3t")
    xml = (HEAD + f'<!DOCTYPE urlset [<!ENTITY x SYSTEM "file://{tmp_path}/secret.txt">]>'
           f"<urlset {SM}><url><loc>https://ex.test/&x;</loc></url></urlset>").encode()
    assert b"s3cr3t" not in xslt.transform(xml, "main")


def test_stylesheets_compiled_once_per_process() -> None:
    """Repeated transforms reuse the same compiled XSLT object."""
    libxslt.stylesheet.cache_clear()
    first = libxslt.stylesheet("main")
    for _ in range(3):
        xslt.transform(INDEX, "main")
    assert libxslt.stylesheet("main") is first
    assert libxslt.stylesheet.cache_info().misses == 1
