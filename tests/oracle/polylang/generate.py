#!/usr/bin/env python3
"""Regenerate the Polylang oracle fixtures: real WordPress + real Polylang write each variant.

    python3 tests/oracle/polylang/generate.py PLUGINS_DIR [--out DIR] [VARIANT ...]

PLUGINS_DIR holds `polylang/`: Polylang 3.4.6's release code (not committed here; e.g.
`git archive 3.4.6` of polylang/polylang plus a classmap vendor/autoload.php). Needs php-cli,
php-mysql, Debian's `wordpress` package and MariaDB on 127.0.0.1:3306 (root, no password).
Each variant: install, settings (permalinks, Polylang activated), languages
(PLL_Admin_Model::add_language), content (WordPress + Polylang API), truth (URLs from
get_permalink / get_term_link), then `php -S` serves the site and every published URL is
requested to record the <link rel="alternate" hreflang> tags WordPress + Polylang print.
Writes tests/fixtures/polylang/<variant>.sql and <variant>.truth.json.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "fixtures" / "polylang"
VARIANTS = ("hidden", "subdomain", "sub-yoast", "domains-yoast")
# Variants with Yoast SEO 21.1 active (PLUGINS_DIR also holds wordpress-seo/).
YOAST = ("sub-yoast", "domains-yoast")
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
LINK = re.compile(r'<link rel="alternate" href="([^"]*)" hreflang="([^"]*)" />')


def _sql(statement: str) -> None:
    subprocess.run([shutil.which("mariadb") or "mysql", "-h", "127.0.0.1", "-uroot", "-e",
                    statement], check=True)


def _php(env: dict[str, str], phase: str) -> None:
    proc = subprocess.run(["php", str(HERE / "site.php")], env={**env, "PLL_PHASE": phase},
                          capture_output=True, text=True)
    noise = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0 or (phase != "install" and noise):
        raise SystemExit(f"php {phase} failed ({proc.returncode}):\n{noise}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _hreflang(port: int, url: str) -> tuple[int, dict[str, str]]:
    """GET url from the php -S server (Host from the URL): status and hreflang tags."""
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                 headers={"Host": parts.netloc})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=60) as resp:
            body = resp.read().decode("utf-8", "replace")
            return resp.status, {code: href for href, code in LINK.findall(body)}
    except urllib.error.HTTPError as exc:
        return exc.code, {}


def _get(port: int, url: str) -> tuple[int, bytes]:
    """GET url from the php -S server (Host from the URL), redirects not followed."""
    parts = urlsplit(url)
    req = urllib.request.Request(f"http://127.0.0.1:{port}{parts.path}",
                                 headers={"Host": parts.netloc})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _locs(body: bytes, tag: str) -> list[str]:
    return [(el.findtext(SM + "loc") or "").strip() for el in ET.fromstring(body).iter(SM + tag)]


def _record_yoast(port: int, truth: dict[str, object], variant: str, out: Path) -> None:
    """On each language's host: Yoast's sitemap_index.xml and every sitemap it lists, saved
    as XML under <variant>/<host>/ and recorded as {slug: {sitemap: [loc]}}."""
    sets: dict[str, dict[str, list[str]]] = {}
    for lang in truth["languages"]:  # type: ignore[attr-defined]
        home = str(lang["home_url"]).rstrip("/")
        folder = out / variant / (urlsplit(home).hostname or "")
        folder.mkdir(parents=True, exist_ok=True)
        status, body = _get(port, home + "/sitemap_index.xml")
        if status != 200:
            raise SystemExit(f"{home}/sitemap_index.xml: HTTP {status}\n{body[:2000]!r}")
        (folder / "sitemap_index.xml").write_bytes(body)
        found: dict[str, list[str]] = {"sitemap_index.xml": _locs(body, "sitemap")}
        for loc in found["sitemap_index.xml"]:
            status, sub = _get(port, loc)
            name = urlsplit(loc).path.strip("/")
            (folder / name).write_bytes(sub)
            found[name] = _locs(sub, "url") if status == 200 else [f"HTTP {status}"]
        sets[str(lang["slug"])] = found
    truth["yoast_sitemaps"] = sets


def _record_hreflang(env: dict[str, str], truth: dict[str, object], out: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(["php", "-S", f"127.0.0.1:{port}", str(HERE / "site.php")],
                              env={**env, "PLL_PHASE": "serve"}, cwd="/usr/share/wordpress",
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        for group in ("posts", "terms"):
            for item in truth[group]:  # type: ignore[attr-defined]
                if group == "posts" and item["status"] != "publish":
                    continue
                status, links = _hreflang(port, item["loc"])
                item["http_status"] = status
                if links:
                    item["hreflang"] = links
        for key in ("language_homes",):
            truth[key] = {}
        for lang in truth["languages"]:  # type: ignore[attr-defined]
            status, links = _hreflang(port, lang["home_url"])
            lang["http_status"], lang["hreflang"] = status, links
        if env["PLL_VARIANT"] in YOAST:
            _record_yoast(port, truth, env["PLL_VARIANT"], out)
    finally:
        server.terminate()
        server.wait(timeout=10)


def generate(variant: str, plugins: Path, out: Path = OUT) -> None:
    """Build one variant from an empty database and write its dump and truth."""
    db = f"wpsm_pll_oracle_{variant}"
    _sql(f"DROP DATABASE IF EXISTS `{db}`")
    _sql(f"CREATE DATABASE `{db}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci")
    env = {**os.environ, "PLL_VARIANT": variant, "PLL_DB": db, "PLL_PLUGINS": str(plugins)}
    phases = ["install", "settings", "languages", "content"]
    phases += ["yoast", "yoastsetup"] if variant in YOAST else []
    for phase in phases:
        _php(env, phase)
    out.mkdir(parents=True, exist_ok=True)
    truth_path = out / f"{variant}.truth.json"
    _php({**env, "PLL_OUT": str(truth_path)}, "truth")
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    _record_hreflang(env, truth, out)
    truth_path.write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")
    dump = subprocess.run([shutil.which("mariadb-dump") or "mysqldump", "-h", "127.0.0.1",
                           "-uroot", "--skip-dump-date", "--skip-comments", db],
                          check=True, capture_output=True)
    (out / f"{variant}.sql").write_bytes(dump.stdout)
    _sql(f"DROP DATABASE `{db}`")
    print(f"{variant}: {truth_path.stat().st_size} bytes truth, {len(dump.stdout)} bytes dump")


if __name__ == "__main__":
    args = sys.argv[1:]
    target = OUT
    if "--out" in args:  # a directory other than tests/fixtures/polylang (the lane's test)
        at = args.index("--out")
        target = Path(args[at + 1]).resolve()
        del args[at:at + 2]
    plugin_dir = Path(args[0]).resolve()
    for name in args[1:] or VARIANTS:
        generate(name, plugin_dir, target)
