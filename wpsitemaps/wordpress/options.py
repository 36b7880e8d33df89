"""The wp_options values a sitemap needs, read in one query and parsed once."""

from __future__ import annotations

import functools
import hashlib
import logging
from dataclasses import dataclass
from dataclasses import field
from datetime import tzinfo
from typing import Any

from sqlalchemy import Connection

from wpsitemaps.config import Settings
from wpsitemaps.memo import memoized
from wpsitemaps.wordpress.dates import wp_timezone
from wpsitemaps.wordpress.ids import parse_id
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.queries import options as qo
from wpsitemaps.wordpress.schema import WPTables

log = logging.getLogger(__name__)

OPTION_NAMES = (
    "home", "siteurl", "permalink_structure", "category_base", "tag_base", "show_on_front",
    "page_on_front", "page_for_posts", "blog_public", "blogname", "WPLANG", "timezone_string",
    "gmt_offset", "upload_path", "upload_url_path", "rewrite_rules", "wpseo_titles",
    "wpseo_taxonomy_meta", "wpseo", "sticky_posts", "default_category", "active_plugins",
    # Traces of public types (wordpress/traces.py, plugintypes.py, companion.py).
    "rank-math-options-titles", "aioseo_options_dynamic", "seopress_titles_option_name",
    "woocommerce_permalinks", "woocommerce_version", "woocommerce_shop_page_id",
    "current_theme_supports_woocommerce", "_transient_wc_attribute_taxonomies",
    "tribe_events_calendar_options", "wpsitemaps_registry",
    "polylang", "icl_sitepress_settings",
    # The SEO plugins' sitemap settings (issue #24, wordpress/seoplugins.py).
    "aioseo_options", "rank-math-options-sitemap", "seopress_xml_sitemap_option_name",
    "seopress_toggle", "autodescription-site-settings",
)
YOAST_TRUE = (True, 1, "1", "on", "true")
YOAST_PLUGINS = ("wordpress-seo/", "wordpress-seo-premium/")
SERIALIZED = ("rewrite_rules", "wpseo_titles", "wpseo_taxonomy_meta", "wpseo", "sticky_posts",
              "active_plugins")


@dataclass(frozen=True)
class SiteOptions:
    """Typed view of the options; URLs without trailing slash, as WordPress stores them."""

    home: str
    siteurl: str
    permalink_structure: str = ""
    category_base: str = ""
    tag_base: str = ""
    show_on_front: str = "posts"
    page_on_front: int = 0
    page_for_posts: int = 0
    blog_public: bool = True
    blogname: str = ""
    locale: str = "en_US"
    timezone_string: str = ""
    gmt_offset: float = 0.0
    upload_path: str = ""
    upload_url_path: str = ""
    rewrite_rules: dict[str, str] = field(default_factory=dict)
    wpseo_titles: dict[Any, Any] = field(default_factory=dict)
    wpseo_taxonomy_meta: dict[Any, Any] = field(default_factory=dict)
    wpseo: dict[Any, Any] = field(default_factory=dict)
    default_category: int = 1
    yoast_active: bool = False
    stored_home: str = ""  # the home option as stored, when home_url overrides it
    # Multisite: what _wp_upload_dir() appends for this site ('/sites/N'), or 'files' for
    # an old network's ms-files rewriting (wordpress.network.upload_suffix()).
    upload_suffix: str = ""
    raw: dict[str, str] = field(default_factory=dict)

    @memoized
    def fingerprint(self) -> str:
        """A SHA-256 of every option read: the same in every process (a key of the values
        shared between workers), computed once per set of options, not per request."""
        return hashlib.sha256(repr(sorted(self.raw.items())).encode()).hexdigest()[:32]

    @memoized
    def zone(self) -> tzinfo:
        """wp_timezone(): timezone_string, else gmt_offset (an unknown zone name is logged
        once per set of options, not per request)."""
        return wp_timezone(self.timezone_string, self.gmt_offset)

    def public_content(self, content: str) -> str:
        """post_content with the stored (internal) home rewritten to the public home URL.

        Behind a proxy the database's URLs name the internal host; images and videos of the
        site's own host must keep counting as the site's, under the public URL.
        """
        if self.stored_home and self.stored_home != self.home and self.stored_home in content:
            return content.replace(self.stored_home, self.home)
        return content

    @property
    def active_plugins(self) -> tuple[str, ...]:
        """The plugin files in `active_plugins` (`folder/file.php`)."""
        return tuple(str(v) for v in _parsed("active_plugins",
                                             self.raw.get("active_plugins")).values())

    def yoast_on(self, key: str) -> bool:
        """Whether a Yoast `wpseo_titles` switch (noindex-post, disable-author...) is on;
        Yoast stores booleans, older versions "on" / "1"."""
        return self.wpseo_titles.get(key) in YOAST_TRUE

    @property
    def static_front(self) -> bool:
        """Whether the front page is a static page (show_on_front = page with a page set)."""
        return self.show_on_front == "page" and self.page_on_front > 0

    @property
    def upload_baseurl(self) -> str:
        """wp_upload_dir()['baseurl']: upload_url_path, else siteurl + /wp-content/uploads,
        plus a network site's own directory (`/sites/N`, or `{siteurl}/files` on old
        networks with ms-files rewriting)."""
        if self.upload_suffix == "files":
            return f"{self.siteurl}/files"
        return self._upload_base() + self.upload_suffix

    def _upload_base(self) -> str:
        if self.upload_url_path.strip():
            return self.upload_url_path.strip().rstrip("/")
        path = self.upload_path.strip().strip("/")
        if path and path != "wp-content/uploads" and not path.startswith("/"):
            return f"{self.siteurl}/{path}"
        return f"{self.siteurl}/wp-content/uploads"


def _int(value: str | None) -> int:
    # An ID no row can have (huge, or non-ASCII digits) counts as unset: parse_id().
    return parse_id(value) or 0


def _float(value: str | None) -> float:
    try:
        return float(str(value or "0").strip() or 0)
    except ValueError:
        return 0.0


@functools.lru_cache(maxsize=64)
def _parsed(name: str, text: str | None) -> dict[Any, Any]:
    """A serialized option as a dict, parsed once per distinct value: options are read on
    every request, and `rewrite_rules` alone holds hundreds to thousands of rules. The dict
    is shared between requests and never modified."""
    return as_dict(unserialize(text, f"option {name}"))


def parse_options(raw: dict[str, str], settings: Settings | None = None) -> SiteOptions:
    """Build SiteOptions from raw option rows, applying the home URL override."""
    parsed = {name: _parsed(name, raw.get(name)) for name in SERIALIZED}
    home = stored_home = (raw.get("home") or "").strip().rstrip("/")
    siteurl = (raw.get("siteurl") or home).strip().rstrip("/")
    if settings is not None and settings.home_url:
        # Behind a proxy the stored home is internal; WordPress files usually sit under the
        # same origin, so siteurl moves with home when it started with it.
        if siteurl.startswith(home):
            siteurl = settings.home_url + siteurl[len(home):]
        home = settings.home_url
    rules = {str(k): str(v) for k, v in parsed["rewrite_rules"].items()}
    return SiteOptions(
        home=home,
        siteurl=siteurl or home,
        permalink_structure=(raw.get("permalink_structure") or "").strip(),
        category_base=(raw.get("category_base") or "").strip(),
        tag_base=(raw.get("tag_base") or "").strip(),
        show_on_front=(raw.get("show_on_front") or "posts").strip(),
        page_on_front=_int(raw.get("page_on_front")),
        page_for_posts=_int(raw.get("page_for_posts")),
        blog_public=(raw.get("blog_public") or "1").strip() != "0",
        blogname=raw.get("blogname") or "",
        locale=(raw.get("WPLANG") or "").strip() or "en_US",
        timezone_string=(raw.get("timezone_string") or "").strip(),
        gmt_offset=_float(raw.get("gmt_offset")),
        upload_path=raw.get("upload_path") or "",
        upload_url_path=raw.get("upload_url_path") or "",
        rewrite_rules=rules,
        wpseo_titles=parsed["wpseo_titles"],
        wpseo_taxonomy_meta=parsed["wpseo_taxonomy_meta"],
        wpseo=parsed["wpseo"],
        default_category=_int(raw.get("default_category") or "1"),
        stored_home=stored_home,
        yoast_active=any(str(v).startswith(YOAST_PLUGINS)
                         for v in parsed["active_plugins"].values()),
        raw=raw,
    )


def read_options(conn: Connection, tables: WPTables, settings: Settings) -> dict[str, str]:
    """The raw option rows we need, in one query."""
    extra = (settings.now[len("option:"):],) if settings.now and settings.now.startswith(
        "option:") else ()
    return qo.options(conn, tables, OPTION_NAMES + extra)


def load_options(conn: Connection, tables: WPTables, settings: Settings) -> SiteOptions:
    """Read and parse the options we need in one query."""
    return parse_options(read_options(conn, tables, settings), settings)
