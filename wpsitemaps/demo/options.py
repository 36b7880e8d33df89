"""The wp_options rows of the demo site: populate_options() of a 6.1 install plus settings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wpsitemaps.demo.rules import rewrite_rules
from wpsitemaps.demo.wp import php_serialize

if TYPE_CHECKING:
    from wpsitemaps.demo.model import DemoSpec

# populate_options() defaults that do not depend on the site, in WordPress's order.
STATIC_OPTIONS = (
    ("users_can_register", "0"), ("start_of_week", "1"), ("use_balanceTags", "0"),
    ("use_smilies", "1"), ("require_name_email", "1"), ("comments_notify", "1"),
    ("posts_per_rss", "10"), ("rss_use_excerpt", "0"), ("mailserver_url", "mail.example.com"),
    ("mailserver_login", "login@example.com"), ("mailserver_pass", "password"),
    ("mailserver_port", "110"), ("default_category", "1"), ("default_comment_status", "open"),
    ("default_ping_status", "open"), ("default_pingback_flag", "1"),
    ("posts_per_page", "10"), ("date_format", "j. F Y"), ("time_format", "G:i"),
    ("links_updated_date_format", "j. F Y G:i"), ("comment_moderation", "0"),
    ("moderation_notify", "1"),
)
SIZES = (("thumbnail_size_w", "150"), ("thumbnail_size_h", "150"), ("thumbnail_crop", "1"),
         ("medium_size_w", "300"), ("medium_size_h", "300"), ("avatar_default", "mystery"),
         ("large_size_w", "1024"), ("large_size_h", "1024"))


def core_options(spec: DemoSpec) -> Iterator[tuple[str, str, str]]:
    """(option_name, option_value, autoload) in the order WordPress writes them."""
    yield "siteurl", spec.home, "yes"
    yield "home", spec.home, "yes"
    yield "blogname", spec.blogname, "yes"
    yield "blogdescription", "A generated WordPress site for wpsitemaps", "yes"
    yield "admin_email", "admin@example.org", "yes"
    for name, value in STATIC_OPTIONS:
        yield name, value, "yes"
    yield "permalink_structure", "/%postname%/", "yes"
    yield "rewrite_rules", php_serialize(rewrite_rules()), "yes"
    yield "hack_file", "0", "yes"
    yield "blog_charset", "UTF-8", "yes"
    yield "moderation_keys", "", "no"
    yield "active_plugins", php_serialize(["wordpress-seo/wp-seo.php"]), "yes"
    yield "category_base", "", "yes"
    yield "ping_sites", "http://rpc.pingomatic.com/", "yes"
    yield "comment_max_links", "2", "yes"
    # With timezone_string set, WordPress keeps gmt_offset at 0 (the zone decides).
    yield "gmt_offset", "0", "yes"
    yield "default_email_category", "1", "yes"
    yield "recently_edited", "", "no"
    yield "template", "twentytwentythree", "yes"
    yield "stylesheet", "twentytwentythree", "yes"
    yield "comment_registration", "0", "yes"
    yield "html_type", "text/html", "yes"
    yield "use_trackback", "0", "yes"
    yield "default_role", "subscriber", "yes"
    yield "db_version", "53496", "yes"
    yield "uploads_use_yearmonth_folders", "1", "yes"
    yield "upload_path", "", "yes"
    yield "blog_public", "1", "yes"
    yield "default_link_category", "2", "yes"
    yield "show_on_front", "posts", "yes"
    yield "tag_base", "", "yes"
    yield "show_avatars", "1", "yes"
    yield "avatar_rating", "G", "yes"
    yield "upload_url_path", "", "yes"
    for name, value in SIZES:
        yield name, value, "yes"
    yield "image_default_link_type", "none", "yes"
    yield "timezone_string", "Europe/Berlin", "yes"
    yield "page_for_posts", "0", "yes"
    yield "page_on_front", "0", "yes"
    yield "default_post_format", "0", "yes"
    yield "medium_large_size_w", "768", "yes"
    yield "medium_large_size_h", "0", "yes"
    yield "wp_page_for_privacy_policy", "3", "yes"
    yield "initial_db_version", "53496", "yes"
    yield "fresh_site", "0", "yes"
    # Set when a language is picked at install (wp-admin/install.php).
    yield "WPLANG", "de_DE", "yes"
    yield "category_children", php_serialize({2: [3, 5], 3: [4], 6: [7]}), "yes"
    yield "wpseo_taxonomy_meta", php_serialize(
        {"category": {11: {"wpseo_noindex": "noindex"}}}), "yes"
