"""WPML's data beside a builder Site, shaped as WPML documents its tables
(https://wpml.org/documentation/support/wpml-tables/): `icl_translations` (element_type
`post_<type>` / `tax_<taxonomy>`, element_id = post ID or term_taxonomy_id, trid,
language_code, source_language_code), `icl_languages` (code, english_name, major, active,
default_locale, tag, encode_url), and the option `icl_sitepress_settings`."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from tests.support import wpdb
from tests.support.builder import Site

SQLITE_DDL = """
CREATE TABLE "{p}icl_languages" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "code" TEXT,
  "english_name" TEXT, "major" INTEGER, "active" INTEGER, "default_locale" TEXT, "tag" TEXT,
  "encode_url" INTEGER);
CREATE TABLE "{p}icl_translations" ("translation_id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "element_type" TEXT DEFAULT 'post_post', "element_id" INTEGER, "trid" INTEGER,
  "language_code" TEXT, "source_language_code" TEXT);
CREATE TABLE "{p}icl_strings" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "language" TEXT,
  "context" TEXT, "name" TEXT, "value" TEXT, "status" INTEGER DEFAULT 0);
CREATE TABLE "{p}icl_string_translations" ("id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "string_id" INTEGER, "language" TEXT, "status" INTEGER, "value" TEXT);
"""

MARIADB_DDL = """
CREATE TABLE `{p}icl_languages` (`id` int NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `code` varchar(7), `english_name` varchar(128), `major` tinyint, `active` tinyint,
  `default_locale` varchar(35), `tag` varchar(35), `encode_url` tinyint);
CREATE TABLE `{p}icl_translations` (`translation_id` bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `element_type` varchar(60) NOT NULL DEFAULT 'post_post', `element_id` bigint,
  `trid` bigint NOT NULL, `language_code` varchar(7) NOT NULL,
  `source_language_code` varchar(7));
CREATE TABLE `{p}icl_strings` (`id` bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `language` varchar(7), `context` varchar(160), `name` varchar(160), `value` longtext,
  `status` tinyint NOT NULL DEFAULT 0);
CREATE TABLE `{p}icl_string_translations` (`id` bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `string_id` bigint, `language` varchar(10), `status` tinyint, `value` longtext);
"""


class Wpml:
    """Languages and translations of a Site, written as WPML's rows."""

    def __init__(self, site: Site, languages: list[tuple[str, str, str]],
                 **settings: Any) -> None:
        self.site = site
        self.languages = languages  # (code, default_locale, tag)
        self.rows: list[tuple[str, int, int, str, str | None]] = []
        self.trid = 0
        # String Translation: (context, name, original language, value, {lang: (value, status)})
        self.strings: list[tuple[str, str, str, str, dict[str, tuple[str, int]]]] = []
        values: dict[str, Any] = {
            "language_negotiation_type": 1, "default_language": languages[0][0],
            "active_languages": [code for code, _, _ in languages],
            "urls": {"directory_for_default_language": 0, "show_on_root": ""},
            "language_domains": {}, "custom_posts_sync_option": {},
            "taxonomies_sync_option": {}}
        values.update(settings)
        site.option("icl_sitepress_settings", values)

    def group(self, element_type: str, members: dict[str, int]) -> None:
        """One translation group (trid); the first member is the original."""
        self.trid += 1
        source = next(iter(members))
        for code, element_id in members.items():
            self.rows.append((element_type, element_id, self.trid, code,
                              None if code == source else source))

    def base_slug(self, post_type: str, language: str, value: str,
                  translations: dict[str, tuple[str, int]]) -> None:
        """A custom type's base registered with String Translation (`URL slug: <type>` in
        context WordPress, as WPML_Slug_Translation_Records::register_slug() does) and its
        translations ((value, status): 10 = complete)."""
        self.strings.append(("WordPress", f"URL slug: {post_type}", language, value,
                             translations))

    def write_sqlite(self, path: Path) -> str:
        """Write the site and WPML's tables to SQLite; returns the URL."""
        url = self.site.write_sqlite(path)
        con = sqlite3.connect(path)
        p = self.site.prefix
        con.executescript(SQLITE_DDL.format(p=p))
        con.executemany(f'INSERT INTO "{p}icl_languages" (code, english_name, major, active, '
                        "default_locale, tag, encode_url) VALUES (?, ?, 1, 1, ?, ?, 0)",
                        [(c, c.upper(), loc, tag) for c, loc, tag in self.languages])
        con.executemany(f'INSERT INTO "{p}icl_translations" (element_type, element_id, trid, '
                        "language_code, source_language_code) VALUES (?, ?, ?, ?, ?)", self.rows)
        for context, name, language, value, translations in self.strings:
            cur = con.execute(f'INSERT INTO "{p}icl_strings" (language, context, name, value) '
                              "VALUES (?, ?, ?, ?)", (language, context, name, value))
            con.executemany(f'INSERT INTO "{p}icl_string_translations" (string_id, language, '
                            "status, value) VALUES (?, ?, ?, ?)",
                            [(cur.lastrowid, lang, status, text)
                             for lang, (text, status) in translations.items()])
        con.commit()
        con.close()
        return url

    def write_mariadb(self, label: str) -> tuple[str, str]:
        """Write the site and WPML's tables to a new MariaDB database; returns its URL (the
        read-only user) and its name (to drop)."""
        url = self.site.write_mariadb(label)
        name = wpdb.mariadb_name(label)
        p = self.site.prefix
        with wpdb.root_conn(name) as con, con.cursor() as cur:
            for statement in MARIADB_DDL.format(p=p).split(";"):
                if statement.strip():
                    cur.execute(statement)
            cur.executemany(f"INSERT INTO `{p}icl_languages` (code, english_name, major, active, "
                            "default_locale, tag, encode_url) VALUES (%s, %s, 1, 1, %s, %s, 0)",
                            [(c, c.upper(), loc, tag) for c, loc, tag in self.languages])
            cur.executemany(f"INSERT INTO `{p}icl_translations` (element_type, element_id, "
                            "trid, language_code, source_language_code) "
                            "VALUES (%s, %s, %s, %s, %s)", self.rows)
            for context, sname, language, value, translations in self.strings:
                cur.execute(f"INSERT INTO `{p}icl_strings` (language, context, name, value) "
                            "VALUES (%s, %s, %s, %s)", (language, context, sname, value))
                sid = cur.lastrowid
                cur.executemany(f"INSERT INTO `{p}icl_string_translations` (string_id, "
                                "language, status, value) VALUES (%s, %s, %s, %s)",
                                [(sid, lang, status, text)
                                 for lang, (text, status) in translations.items()])
        return url, name
