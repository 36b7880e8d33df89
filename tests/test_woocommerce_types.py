"""WooCommerce shops served from WooCommerce's own options, without configuration: a saved
product base with %product_cat% (filled as wc_product_post_type_link() does), translated
category and tag bases, and a public attribute known from WooCommerce's cached attribute list."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import parse_urlset

HOME = "http://shop.test"
# Rules WordPress writes for these registrations (with_front false, shop page `shop`).
RULES = {
    "shop/?$": "index.php?post_type=product",
    "shop/(.+?)/([^/]+)(?:/([0-9]+))?/?$":
        "index.php?product_cat=$matches[1]&product=$matches[2]&page=$matches[3]",
    "produkt-kategorie/(.+?)/?$": "index.php?product_cat=$matches[1]",
    "produkt-schlagwort/([^/]+)/?$": "index.php?product_tag=$matches[1]",
    "farbe/([^/]+)/?$": "index.php?pa_farbe=$matches[1]",
}


def german_shop() -> Site:
    """A shop as WooCommerce 7.9 leaves it after Settings > Permalinks was saved in German."""
    site = Site(home=HOME)
    site.option("rewrite_rules", RULES)
    site.option("woocommerce_version", "7.9.0")
    site.option("woocommerce_permalinks", {
        "product_base": "/shop/%product_cat%", "category_base": "produkt-kategorie",
        "tag_base": "produkt-schlagwort", "attribute_base": "", "use_verbose_page_rules": False})
    # WooCommerce's cached copy of {prefix}woocommerce_attribute_taxonomies (no table here).
    site.option("_transient_wc_attribute_taxonomies", {0: {
        "attribute_id": "1", "attribute_name": "farbe", "attribute_label": "Farbe",
        "attribute_type": "select", "attribute_orderby": "menu_order",
        "attribute_public": "1"}})
    shop = site.post("Shop", post_type="page", name="shop")
    site.option("woocommerce_shop_page_id", str(shop))
    kleidung = site.term("Kleidung", "product_cat", slug="kleidung")
    tshirts = site.term("T-Shirts", "product_cat", slug="t-shirts", parent=kleidung)
    tee = site.term("Tee", "product_cat", slug="tee")
    bio = site.term("Bio", "product_tag", slug="bio")
    rot = site.term("Rot", "pa_farbe", slug="rot")
    site.post("Basic Tee", post_type="product", name="basic-tee", terms=(kleidung, tshirts, bio))
    site.post("Rot Shirt", post_type="product", name="rot-shirt", terms=(rot, tshirts))
    site.post("Assam", post_type="product", name="assam", terms=(tee,))
    site.post("Gift Card", post_type="product", name="gift-card")
    return site


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def shop(request: pytest.FixtureRequest, make_app: Callable[..., Flask]) -> Flask:
    """The German shop on each backend, with no configuration."""
    return make_app(german_shop(), backend=request.param)


def locs(app: Flask, name: str) -> list[str]:
    """The <loc>s of one sitemap."""
    resp = app.test_client().get(f"/{name}-sitemap.xml")
    assert resp.status_code == 200, name
    return [u.loc for u in parse_urlset(resp.data)]


def test_products_carry_their_category_path(shop: Flask) -> None:
    """%product_cat% is the deepest-first, lowest-ID category with its ancestors, or
    'uncategorized'; the shop page is the archive and comes first."""
    assert locs(shop, "product") == [
        f"{HOME}/shop/", f"{HOME}/shop/kleidung/t-shirts/basic-tee/",
        f"{HOME}/shop/kleidung/t-shirts/rot-shirt/", f"{HOME}/shop/tee/assam/",
        f"{HOME}/shop/uncategorized/gift-card/"]


def test_product_terms_use_the_saved_bases(shop: Flask) -> None:
    """Categories, tags and the public attribute use WooCommerce's saved bases."""
    assert locs(shop, "product_cat") == [f"{HOME}/produkt-kategorie/kleidung/",
                                         f"{HOME}/produkt-kategorie/kleidung/t-shirts/",
                                         f"{HOME}/produkt-kategorie/tee/"]
    assert locs(shop, "product_tag") == [f"{HOME}/produkt-schlagwort/bio/"]
    assert locs(shop, "pa_farbe") == [f"{HOME}/farbe/rot/"]
