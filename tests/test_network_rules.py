"""The pure multisite rules: get_site_by_path()'s candidates and choice, per-site uploads."""

from __future__ import annotations

from dataclasses import replace

from wpsitemaps.wordpress.network import Blog
from wpsitemaps.wordpress.network import Network
from wpsitemaps.wordpress.network import blog_id_of
from wpsitemaps.wordpress.network import pick_site
from wpsitemaps.wordpress.network import request_domains
from wpsitemaps.wordpress.network import request_paths
from wpsitemaps.wordpress.network import upload_suffix
from wpsitemaps.wordpress.options import SiteOptions

NET = Network("wp_", domain="example.com", path="/")
SITES = [Blog(1, 1, "example.com", "/"), Blog(2, 1, "example.com", "/fr/"),
         Blog(3, 1, "example.com", "/fr-ca/"), Blog(4, 1, "www.example.com", "/"),
         Blog(5, 1, "docs.example.org", "/")]


def test_paths_are_longest_first_and_one_segment_deep() -> None:
    """/fr/news/post-sitemap.xml gives '/fr/' then '/' (one segment, as for a '/' network)."""
    assert request_paths("/fr/news/post-sitemap.xml") == ["/fr/", "/"]


def test_paths_go_deeper_under_a_network_path() -> None:
    """Two segments when the network itself lives under one (`segments` = 2)."""
    assert request_paths("/wp/fr/x.xml", 2) == ["/wp/fr/", "/wp/", "/"]


def test_path_query_is_ignored_and_case_folded() -> None:
    """The query string is not part of the path; paths are compared lower-cased."""
    assert request_paths("/FR/?a=/b/") == ["/fr/", "/"]


def test_domains_drop_port_and_www() -> None:
    """Host 'WWW.Example.com:8000' is tried as given, without port, and without www."""
    assert request_domains("WWW.Example.com:8000") == [
        "www.example.com:8000", "www.example.com", "example.com:8000", "example.com"]


def test_longest_path_wins() -> None:
    """/fr/ beats / for a request under /fr/."""
    site = pick_site(SITES, ["example.com"], request_paths("/fr/post-sitemap.xml"))
    assert site is not None and site.blog_id == 2


def test_prefix_of_a_path_is_not_that_site() -> None:
    """/fr-ca/ is its own site, not /fr/ (whole segments only)."""
    site = pick_site(SITES, ["example.com"], request_paths("/fr-ca/post-sitemap.xml"))
    assert site is not None and site.blog_id == 3


def test_longest_domain_wins() -> None:
    """With both www.example.com and example.com in wp_blogs, www. is its own site."""
    site = pick_site(SITES, request_domains("www.example.com"), ["/"])
    assert site is not None and site.blog_id == 4


def test_mapped_domain_is_matched_by_its_domain() -> None:
    """A mapped domain is that site's wp_blogs.domain."""
    site = pick_site(SITES, request_domains("docs.example.org"), ["/"])
    assert site is not None and site.blog_id == 5


def test_unknown_domain_matches_nothing() -> None:
    """No row for the host: no site."""
    assert pick_site(SITES, request_domains("evil.example"), ["/"]) is None


def test_blog_id_of_a_prefix() -> None:
    """wp_ is blog 1, wp_12_ is blog 12, anything else is no blog."""
    assert [blog_id_of("wp_", p) for p in ("wp_", "wp_12_", "wpx_", "wp_blogs_")] == [
        1, 12, None, None]


def test_state_follows_ms_site_check_order() -> None:
    """deleted before archived before spam; public = 0 is 'not public', not gone."""
    blog = SITES[1]
    assert replace(blog, deleted=1, archived=True).state == "deleted"
    assert replace(blog, archived=True, spam=True).state == "archived"
    assert replace(blog, public=False).state == "not public"
    assert replace(blog, public=False).gone is None


def _options(**values: str) -> SiteOptions:
    return SiteOptions(home="http://example.com/fr", siteurl="http://example.com/fr", **values)


def test_sub_site_uploads_under_sites_n() -> None:
    """Site 2 of a network made since WordPress 3.5: {siteurl}/wp-content/uploads/sites/2."""
    opts = replace(_options(), upload_suffix=upload_suffix(NET, 2))
    assert opts.upload_baseurl == "http://example.com/fr/wp-content/uploads/sites/2"


def test_main_site_uploads_unchanged() -> None:
    """The main site keeps wp-content/uploads."""
    assert upload_suffix(NET, 1) == ""


def test_upload_url_path_gets_the_site_directory() -> None:
    """upload_url_path is the base; _wp_upload_dir() still appends /sites/N."""
    opts = replace(_options(upload_url_path="https://cdn.example.com/u"),
                   upload_suffix=upload_suffix(NET, 7))
    assert opts.upload_baseurl == "https://cdn.example.com/u/sites/7"


def test_old_network_with_ms_files_rewriting_uses_files() -> None:
    """ms_files_rewriting = 1: a sub-site's files are served at {siteurl}/files."""
    old = replace(NET, ms_files_rewriting=True)
    opts = replace(_options(upload_path="wp-content/blogs.dir/2/files"),
                   upload_suffix=upload_suffix(old, 2))
    assert opts.upload_baseurl == "http://example.com/fr/files"
