"""Post types and taxonomies registered by WooCommerce and The Events Calendar, rebuilt from
the options those plugins keep, as their registration code reads them.

WooCommerce 7.9 (woocommerce/woocommerce `plugins/woocommerce/includes/class-wc-post-types.php`,
`wc_get_permalink_structure()` in `includes/wc-core-functions.php`):
* `woocommerce_permalinks` (serialized): `product_base`, `category_base`, `tag_base`,
  `attribute_base`; empty values fall back to `product`, `product-category`, `product-tag`, ''.
  Every rewrite has `with_front` false, so bases sit under WP_Rewrite::$root only.
* `product`: public, rewrite slug = untrailingslashit(product_base) (it may hold
  `%product_cat%`, filled per product by wc_product_post_type_link()), has_archive = the shop
  page's URI (`woocommerce_shop_page_id`) when the theme supports WooCommerce.
* `product_cat` (hierarchical, hierarchical rewrite), `product_tag`: public.
* `product_shipping_class`: `public` left at register_taxonomy()'s default (true), but
  `rewrite` false and `query_var` only in the admin: `?taxonomy=product_shipping_class&term=`.
* `pa_{attribute_name}` per row of `{prefix}woocommerce_attribute_taxonomies`: public, with a
  query var and rewrite slug `attribute_base/name` only when `attribute_public` = 1.

The Events Calendar (the-events-calendar/the-events-calendar `src/Tribe/Main.php`): option
`tribe_events_calendar_options` (serialized) with `eventsSlug` (default `events`) and
`singleEventSlug` (default `event`). `tribe_events` is public, rewrite slug singleEventSlug
without front, and its archive link is filtered to the events page (`eventsSlug`, see
Main::event_archive_link()); `tribe_events_cat` is public, hierarchical, slug
`eventsSlug/category`. Venues and organizers are public only with Events Calendar Pro.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Mapping

from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.registration import Registration
from wpsitemaps.wordpress.rewrite import join

OPTION_NAMES = ("woocommerce_permalinks", "woocommerce_version", "woocommerce_shop_page_id",
                "current_theme_supports_woocommerce", "tribe_events_calendar_options")
WOO = "WooCommerce (woocommerce_permalinks)"
WOO_ATTR = "WooCommerce (woocommerce_attribute_taxonomies)"
TEC = "The Events Calendar (tribe_events_calendar_options)"
WOO_DEFAULTS = {"product_base": "product", "category_base": "product-category",
                "tag_base": "product-tag", "attribute_base": ""}
SLUG_RE = re.compile(r"[^a-z0-9_%-]+")


def woocommerce_present(raw: Mapping[str, str]) -> bool:
    """Whether WooCommerce has run on this site (it writes these options on its first load)."""
    return bool(raw.get("woocommerce_version") or raw.get("woocommerce_permalinks"))


def woo_permalinks(raw: Mapping[str, str]) -> dict[str, str]:
    """wc_get_permalink_structure(): the saved bases over the defaults, rewrite slugs."""
    saved = as_dict(unserialize(raw.get("woocommerce_permalinks"), "woocommerce_permalinks"))
    out = dict(WOO_DEFAULTS)
    # array_filter() drops empty saved values, so they take the defaults.
    out.update({k: str(v) for k, v in saved.items() if k in WOO_DEFAULTS and v})
    return {k: v.rstrip("/") for k, v in out.items()}


def woocommerce(raw: Mapping[str, str], root: str,
                attributes: Iterable[tuple[str, bool]]) -> list[Registration]:
    """WooCommerce's product type and taxonomies; `attributes` are (name, public) rows."""
    if not woocommerce_present(raw):
        return []
    bases = woo_permalinks(raw)
    themed = (raw.get("current_theme_supports_woocommerce") or "yes") != "no"
    out = [
        Registration("product", WOO, base=join(root, bases["product_base"]),
                     hierarchical=False, has_archive=themed),
        Registration("product_cat", WOO, taxonomy=True, base=join(root, bases["category_base"]),
                     hierarchical=True),
        Registration("product_tag", WOO, taxonomy=True, base=join(root, bases["tag_base"]),
                     hierarchical=False),
        Registration("product_shipping_class", WOO, taxonomy=True, hierarchical=False, query_var="",
                     rewrite=False),
        Registration("product_variation", WOO, public=False,
                     reason="WooCommerce registers product_variation as not public"),
    ]
    out += [Registration(name, WOO, taxonomy=True, public=False,
                         reason=f"WooCommerce registers {name} as not public")
            for name in ("product_type", "product_visibility")]
    for name, public in attributes:
        slug = SLUG_RE.sub("", name.lower())
        if not slug:
            continue
        if public:
            out.append(Registration(f"pa_{name}", WOO_ATTR, taxonomy=True, hierarchical=False,
                                    base=join(root, bases["attribute_base"], slug)))
        else:
            out.append(Registration(f"pa_{name}", WOO_ATTR, taxonomy=True, public=False,
                                    reason="WooCommerce attribute with attribute_public = 0"))
    return out


def events_calendar(raw: Mapping[str, str], root: str) -> list[Registration]:
    """The Events Calendar's event type and event categories."""
    if "tribe_events_calendar_options" not in raw:
        return []
    opts = as_dict(unserialize(raw.get("tribe_events_calendar_options"), "TEC options"))
    events = SLUG_RE.sub("", str(opts.get("eventsSlug") or "events").lower()) or "events"
    single = SLUG_RE.sub("", str(opts.get("singleEventSlug") or "event").lower()) or "event"
    return [
        Registration("tribe_events", TEC, base=join(root, single), hierarchical=False,
                     has_archive=True, archive=events),
        Registration("tribe_events_cat", TEC, taxonomy=True, base=join(root, events, "category"),
                     hierarchical=True),
    ]


def parse_attribute_transient(value: str | None) -> list[tuple[str, bool]]:
    """(name, public) from `_transient_wc_attribute_taxonomies`, WooCommerce's cached copy of
    the attribute table (a serialized list of stdClass rows)."""
    rows = as_dict(unserialize(value, "wc_attribute_taxonomies"))
    out: list[tuple[str, bool]] = []
    for row in rows.values():
        fields = as_dict(row)
        if fields.get("attribute_name"):
            out.append((str(fields["attribute_name"]),
                        str(fields.get("attribute_public", "1")) == "1"))
    return out
