#!/usr/bin/env python3
"""Regenerate the SEO plugin fixtures: real WordPress + one real SEO plugin per variant.

    python3 tests/oracle/seoplugins/generate.py PLUGINS_DIR [--out DIR] [VARIANT ...]

PLUGINS_DIR holds the plugins' release code (not committed here), one folder each, as
README.md lists: wordpress-seo/, all-in-one-seo-pack/, seo-by-rank-math/, wp-seopress/,
autodescription/. Needs php-cli, php-mysql, Debian's `wordpress` package and MariaDB on
127.0.0.1:3306 (root, no password). Each variant: install, settings, content (with the
leftover rows of other plugins), plugin (activate_plugin), setup, marks (the plugin's own
data through its API), index, truth; then `php -S` serves the site and the plugin's own
sitemap index and every sitemap it lists are requested over HTTP (saved as XML files), and
every published object's page is requested to record the robots and canonical tags the
plugin prints. The database is dumped last, as the plugin left it after serving.
Writes tests/fixtures/seoplugins/<variant>.sql, <variant>.truth.json and <variant>/*.xml.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "fixtures" / "seoplugins"
VARIANTS = ("yoast-leftovers", "aioseo4", "rankmath", "seopress", "tsf")
PHASES = ("install", "settings", "content", "plugin", "setup", "marks", "index")
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
META_ROBOTS = re.compile(r"<meta[^>]+name=['\"]robots['\"][^>]*>", re.I)
CONTENT = re.compile(r"content=['\"]([^'\"]*)['\"]", re.I)
CANONICAL = re.compile(r"<link[^>]+rel=['\"]canonical['\"][^>]*>", re.I)
HREF = re.compile(r"href=['\"]([^'\"]*)['\"]", re.I)
# Plugins whose GitHub source lacks composer's vendor/autoload.php: its classmap folders.
CLASSMAPS = {"wordpress-seo": ["admin", "inc", "vendor_prefixed", "src", "lib"]}


def _client(*names: str) -> str:
    """The first MariaDB client program found on PATH."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit(f"none of {names} on PATH")


def _sql(statement: str) -> None:
    """Run one statement as root."""
    subprocess.run([_client("mariadb", "mysql"), "-h", "127.0.0.1", "-uroot", "-e", statement],
                   check=True)


def _php(env: dict[str, str], phase: str) -> None:
    """Run one phase of site.php; PHP output outside the install phase fails the run."""
    proc = subprocess.run(["php", str(HERE / "site.php")], env={**env, "SEO_PHASE": phase},
                          capture_output=True, text=True)
    noise = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0 or (phase != "install" and noise):
        raise SystemExit(f"php {phase} failed ({proc.returncode}):\n{noise}")


def _prepare(plugins: Path) -> None:
    """Write the classmap vendor/autoload.php a release zip ships, where it is missing."""
    for name, folders in CLASSMAPS.items():
        if (plugins / name).is_dir() and not (plugins / name / "vendor" / "autoload.php").exists():
            subprocess.run(["php", str(HERE / "classmap.php"), str(plugins / name), *folders],
                           check=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _get(port: int, url: str) -> tuple[int, bytes, str]:
    """GET url from the php -S server (Host from the URL): status, body, Location."""
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": parts.netloc})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(req, timeout=120) as resp:
            return resp.status, resp.read(), ""
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers.get("Location", "")


def _entries(body: bytes, tag: str) -> list[dict[str, str]]:
    """[{loc, lastmod}] of a sitemap index (tag `sitemap`) or urlset (tag `url`)."""
    root = ET.fromstring(body)
    out = []
    for el in root.iter(SM + tag):
        item = {"loc": (el.findtext(SM + "loc") or "").strip()}
        lastmod = el.findtext(SM + "lastmod")
        if lastmod:
            item["lastmod"] = lastmod.strip()
        out.append(item)
    return out


def _file_name(url: str) -> str:
    """The XML file a sitemap URL is saved as: its path, slashes as dashes."""
    parts = urlsplit(url)
    name = parts.path.strip("/").replace("/", "-").removesuffix(".xml") or "index"
    return name + (f"-{parts.query.replace('=', '-')}" if parts.query else "")


def _capture(port: int, truth: dict[str, Any], index_path: str, xml_dir: Path) -> None:
    """Request the sitemap index and every sitemap in it; record entries and save bodies."""
    home = truth["home"].rstrip("/")
    status, body, _ = _get(port, home + index_path)
    if status != 200:
        raise SystemExit(f"{index_path}: HTTP {status}\n{body[:2000]!r}")
    xml_dir.mkdir(parents=True, exist_ok=True)
    (xml_dir / (_file_name(home + index_path) + ".xml")).write_bytes(body)
    index = _entries(body, "sitemap")
    sitemaps: dict[str, Any] = {}
    if ET.fromstring(body).tag == SM + "urlset":  # One sitemap, no index (The SEO Framework).
        name = _file_name(home + index_path)
        sitemaps[name] = {"loc": home + index_path, "http_status": status,
                          "file": f"{name}.xml", "urls": _entries(body, "url")}
    for item in index:
        status, sub, _ = _get(port, item["loc"])
        name = _file_name(item["loc"])
        (xml_dir / f"{name}.xml").write_bytes(sub)
        urls = _entries(sub, "url") if status == 200 else []
        sitemaps[name] = {"loc": item["loc"], "http_status": status, "file": f"{name}.xml",
                          "urls": urls}
    truth["sitemap_index"] = {"path": index_path, "file": _file_name(home + index_path) + ".xml",
                              "sitemaps": index}
    truth["sitemaps"] = sitemaps


def _head_tags(port: int, truth: dict[str, Any]) -> None:
    """Each published object's page: HTTP status, robots meta and canonical link printed."""
    groups = [p for p in truth["posts"] if p["status"] == "publish"] + truth["terms"] + [
        u for u in truth["users"]]
    for item in groups:
        status, body, location = _get(port, item["loc"])
        page = body.decode("utf-8", "replace")
        robots = [CONTENT.search(tag) for tag in META_ROBOTS.findall(page)]
        canonical = [HREF.search(tag) for tag in CANONICAL.findall(page)]
        item["page"] = {"http_status": status,
                        "robots": ", ".join(m.group(1) for m in robots if m),
                        "canonical": next((m.group(1) for m in canonical if m), "")}
        if location:
            item["page"]["location"] = location


def _serve(env: dict[str, str], truth: dict[str, Any], index_path: str, xml_dir: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(["php", "-S", f"127.0.0.1:{port}", str(HERE / "site.php")],
                              env={**env, "SEO_PHASE": "serve"}, cwd="/usr/share/wordpress",
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        _capture(port, truth, index_path, xml_dir)
        _head_tags(port, truth)
    finally:
        server.terminate()
        server.wait(timeout=10)


def _index_path(variant: str) -> str:
    """The variant's sitemap index path, from variants.php."""
    text = (HERE / "variants.php").read_text(encoding="utf-8")
    block = text.split(f"'{variant}'", 1)[1]
    return re.search(r"'index'\s*=>\s*'([^']+)'", block).group(1)  # type: ignore[union-attr]


def generate(variant: str, plugins: Path, out: Path = OUT) -> dict[str, Any]:
    """Build one variant from an empty database; write its dump, truth and sitemap files."""
    db = f"wpsm_seo_{os.getpid()}_{variant.replace('-', '_')}"
    _sql(f"DROP DATABASE IF EXISTS `{db}`")
    _sql(f"CREATE DATABASE `{db}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci")
    uploads = tempfile.mkdtemp(prefix=f"wpsm-seo-{variant}-")
    env = {**os.environ, "SEO_VARIANT": variant, "SEO_DB": db, "SEO_PLUGINS": str(plugins),
           "SEO_UPLOADS": uploads}
    try:
        for phase in PHASES:
            _php(env, phase)
        out.mkdir(parents=True, exist_ok=True)
        truth_path = out / f"{variant}.truth.json"
        _php({**env, "SEO_OUT": str(truth_path)}, "truth")
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        xml_dir = out / variant
        shutil.rmtree(xml_dir, ignore_errors=True)
        _serve(env, truth, _index_path(variant), xml_dir)
        truth_path.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
        dump = subprocess.run([_client("mariadb-dump", "mysqldump"), "-h", "127.0.0.1",
                               "-uroot", "--skip-dump-date", "--skip-comments", db],
                              check=True, capture_output=True)
        (out / f"{variant}.sql").write_bytes(dump.stdout)
    finally:
        _sql(f"DROP DATABASE IF EXISTS `{db}`")
        shutil.rmtree(uploads, ignore_errors=True)
    counts = {name: len(s["urls"]) for name, s in truth["sitemaps"].items()}
    print(f"{variant}: {len(dump.stdout)} bytes dump, sitemaps {counts}")
    return truth


def main() -> None:
    """Parse PLUGINS_DIR [--out DIR] [VARIANT ...] and generate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plugins", type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("variants", nargs="*", metavar="VARIANT", help=" ".join(VARIANTS))
    args = parser.parse_intermixed_args()
    unknown = set(args.variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variants: {sorted(unknown)}")
    plugins = args.plugins.resolve()
    _prepare(plugins)
    for name in args.variants or VARIANTS:
        generate(name, plugins, args.out)


if __name__ == "__main__":
    main()
