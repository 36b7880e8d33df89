"""permalinks.py on hand-made inputs, one WordPress rule per test.

The table tests over WordPress-built URLs are in test_permalinks_oracle.py.
"""

from __future__ import annotations

import pytest

from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.permalinks import LinkSite
from wpsitemaps.wordpress.permalinks import PostLink
from wpsitemaps.wordpress.permalinks import add_query_arg
from wpsitemaps.wordpress.permalinks import archive_url
from wpsitemaps.wordpress.permalinks import author_url
from wpsitemaps.wordpress.permalinks import home_url
from wpsitemaps.wordpress.permalinks import page_url
from wpsitemaps.wordpress.permalinks import paged_url
from wpsitemaps.wordpress.permalinks import php_urlencode
from wpsitemaps.wordpress.permalinks import post_url
from wpsitemaps.wordpress.permalinks import term_url
from wpsitemaps.wordpress.permalinks import trailing

HOME = "https://example.com"
POST = ContentType("post", "", False, True, "p")
PLAIN_POST = ContentType("post", None, False, True, "p")
PAGE = ContentType("page", "", True, True, "page_id")
BOOK = ContentType("book", "library", True, False, "book", "library", True)
EVENT = ContentType("event", "happenings", False, False, "event", None, False)
PLAIN_BOOK = ContentType("book", None, True, False, "book", None, True)
CATEGORY = ContentType("category", "category", True, True, "cat")
TAG = ContentType("post_tag", "tag", False, True, "tag")
AUTHOR = ContentType("author", "author", False, True, "author")
ENTRY = PostLink(id=42, post_type="post", name="hallo-welt", date="2024-07-01 00:30:09",
                 category="news/world", author="anna")


def site(structure: str = "/%postname%/", home: str = HOME, front: int = 0) -> LinkSite:
    """A LinkSite; a front page id makes show_on_front = page."""
    return LinkSite(home, structure, "page" if front else "posts", front)


def test_home_url_without_path_is_the_home_option() -> None:
    """home_url() without a path is the stored home, no trailing slash."""
    assert home_url(site()) == HOME


def test_home_url_slash_keeps_the_sub_path() -> None:
    """home_url('/') on a sub-path install ends in the sub-path plus '/'."""
    assert home_url(site(home="http://example.test/blog"), "/") == "http://example.test/blog/"


def test_home_url_strips_leading_slashes_of_the_path() -> None:
    """home_url('//x') joins with exactly one slash."""
    assert home_url(site(), "//x") == HOME + "/x"


def test_trailing_adds_a_slash_when_the_structure_ends_in_one() -> None:
    """user_trailingslashit() follows a structure ending in '/'."""
    assert trailing(site(), "a/b") == "a/b/"


def test_trailing_removes_the_slash_when_the_structure_has_none() -> None:
    """user_trailingslashit() strips the slash for '/%postname%'."""
    assert trailing(site("/%postname%"), "a/b/") == "a/b"


@pytest.mark.parametrize(("structure", "path"), [
    ("/%year%/", "/2024/"), ("/%monthnum%/", "/07/"), ("/%day%/", "/01/"),
    ("/%hour%/", "/00/"), ("/%minute%/", "/30/"), ("/%second%/", "/09/"),
    ("/%post_id%/", "/42/"), ("/%postname%/", "/hallo-welt/"),
    ("/%category%/", "/news/world/"), ("/%author%/", "/anna/"),
])
def test_each_structure_tag_is_filled(structure: str, path: str) -> None:
    """Every rewrite tag of get_permalink() gets its value (dates from local post_date)."""
    assert post_url(site(structure), POST, ENTRY) == HOME + path


def test_structure_without_trailing_slash_gives_none() -> None:
    """'/%category%/%postname%' links end without a slash."""
    assert post_url(site("/%category%/%postname%"), POST, ENTRY) == (
        HOME + "/news/world/hallo-welt")


def test_index_php_structure_keeps_index_php() -> None:
    """PATHINFO permalinks keep '/index.php/' in post links."""
    assert post_url(site("/index.php/%post_id%/"), POST, ENTRY) == HOME + "/index.php/42/"


def test_plain_post_link_is_p_query() -> None:
    """With no structure a post is ?p=ID."""
    assert post_url(site(""), PLAIN_POST, ENTRY) == HOME + "/?p=42"


def test_http_home_is_kept_as_http() -> None:
    """The scheme comes from the home option as it is."""
    assert post_url(site(home="http://example.com"), POST, ENTRY) == (
        "http://example.com/hallo-welt/")


def test_page_uses_its_page_uri() -> None:
    """get_page_link() puts the ancestor path before the slug."""
    page = PostLink(7, "page", "c", uri="a/b/c")
    assert page_url(site(), page) == HOME + "/a/b/c/"


def test_plain_page_is_page_id_query() -> None:
    """With no structure a page is ?page_id=ID."""
    assert page_url(site(""), PostLink(7, "page", "c", uri="a/b/c")) == HOME + "/?page_id=7"


def test_page_under_index_php_structure() -> None:
    """Pages get the '/index.php/' root of PATHINFO permalinks."""
    assert page_url(site("/index.php/%postname%/"), PostLink(7, "page", "a", uri="a")) == (
        HOME + "/index.php/a/")


def test_static_front_page_is_home_with_slash() -> None:
    """The static front page's URL is home_url('/')."""
    sub = site(home="http://example.test/blog", front=7)
    assert page_url(sub, PostLink(7, "page", "home", uri="home")) == "http://example.test/blog/"


def test_posts_page_is_an_ordinary_page_link() -> None:
    """page_for_posts keeps its own page URL."""
    assert page_url(site(front=7), PostLink(8, "page", "blog", uri="blog")) == HOME + "/blog/"


def test_paged_url_appends_the_page_number() -> None:
    """Page 2 of a multi-page post is '<permalink>/2/'."""
    assert paged_url(site(), ENTRY, HOME + "/hallo-welt/", 2) == HOME + "/hallo-welt/2/"


def test_paged_url_without_trailing_slash() -> None:
    """Without a trailing slash structure page 2 is '<permalink>/2'."""
    assert paged_url(site("/%postname%"), ENTRY, HOME + "/x", 2) == HOME + "/x/2"


def test_paged_front_page_uses_pagination_base() -> None:
    """The static front page pages as '/page/2/'."""
    front = PostLink(7, "page", "home")
    assert paged_url(site(front=7), front, HOME + "/", 2) == HOME + "/page/2/"


def test_plain_paged_url_adds_page_query() -> None:
    """Plain permalinks add &page=N (add_query_arg)."""
    assert paged_url(site(""), ENTRY, HOME + "/?p=42", 3) == HOME + "/?p=42&page=3"


def test_plain_paged_url_re_encodes_the_existing_query() -> None:
    """add_query_arg() re-encodes '/' and upper-cases percent escapes of the existing query."""
    url = HOME + "/?book=a/%e7%ba"
    assert paged_url(site(""), ENTRY, url, 2) == HOME + "/?book=a%2F%E7%BA&page=2"


def test_add_query_arg_on_a_url_without_query() -> None:
    """add_query_arg() starts a query when the URL has none."""
    assert add_query_arg(HOME + "/", "page", "2") == HOME + "/?page=2"


def test_php_urlencode_encodes_tilde_and_space() -> None:
    """PHP urlencode() encodes '~' and writes spaces as '+'."""
    assert php_urlencode("a b~c-_.") == "a+b%7Ec-_."


def test_custom_post_type_uses_its_rewrite_base() -> None:
    """get_post_permalink() puts the slug under the type's base."""
    assert post_url(site(), EVENT, PostLink(3, "event", "fest")) == HOME + "/happenings/fest/"


def test_hierarchical_custom_post_type_uses_the_uri() -> None:
    """A hierarchical type links its ancestors' slugs."""
    book = PostLink(3, "book", "c", uri="a/b/c")
    assert post_url(site(), BOOK, book) == HOME + "/library/a/b/c/"


def test_plain_custom_post_type_uses_its_query_var() -> None:
    """Plain permalinks give ?{query_var}=uri."""
    book = PostLink(3, "book", "c", uri="a/b/c")
    assert post_url(site(""), PLAIN_BOOK, book) == HOME + "/?book=a/b/c"


def test_hierarchical_term_link_includes_ancestors() -> None:
    """A nested category links the whole slug chain."""
    assert term_url(site(), CATEGORY, 5, "europe", ("news", "world")) == (
        HOME + "/category/news/world/europe/")


def test_non_hierarchical_term_link_ignores_ancestors() -> None:
    """A taxonomy without hierarchical rewrite links only the slug."""
    assert term_url(site(), TAG, 5, "x", ("p",)) == HOME + "/tag/x/"


def test_plain_category_link_is_cat_id() -> None:
    """Plain permalinks give ?cat=ID for categories."""
    plain = ContentType("category", None, True, True, "cat")
    assert term_url(site(""), plain, 5, "europe") == HOME + "/?cat=5"


def test_plain_tag_link_is_tag_slug() -> None:
    """Plain permalinks give ?tag=slug for tags."""
    plain = ContentType("post_tag", None, False, True, "tag")
    assert term_url(site(""), plain, 5, "x") == HOME + "/?tag=x"


def test_plain_custom_term_link_uses_query_var() -> None:
    """Plain permalinks give ?{query_var}=slug for custom taxonomies."""
    plain = ContentType("genre", None, False, False, "genre")
    assert term_url(site(""), plain, 5, "krimi") == HOME + "/?genre=krimi"


def test_author_link_uses_nicename() -> None:
    """get_author_posts_url() with pretty links uses the nicename."""
    assert author_url(site(), AUTHOR, 2, "bob-smith") == HOME + "/author/bob-smith/"


def test_plain_author_link_uses_id() -> None:
    """Plain permalinks give ?author=ID."""
    plain = ContentType("author", None, False, True, "author")
    assert author_url(site(""), plain, 2, "bob") == HOME + "/?author=2"


def test_archive_link_of_custom_type() -> None:
    """get_post_type_archive_link() uses the archive slug."""
    assert archive_url(site(), BOOK) == HOME + "/library/"


def test_archive_link_without_has_archive_is_none() -> None:
    """A type without an archive has no archive link."""
    assert archive_url(site(), EVENT) is None


def test_plain_archive_link_is_post_type_query() -> None:
    """Plain permalinks give ?post_type=NAME for archives."""
    assert archive_url(site(""), PLAIN_BOOK) == HOME + "/?post_type=book"
