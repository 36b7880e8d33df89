<?xml version="1.0" encoding="UTF-8"?>
<!--
  wpsitemaps: the video sitemap (video:video per URL) as HTML, one row per video.
  XSLT 1.0, run either by the browser (<?xml-stylesheet?>) or by the server (lxml/libxslt)
  for a top-level navigation. Self-contained on purpose: no includes, no external CSS,
  fonts or scripts; the only remote loads are the sitemap's own thumbnails. The inline script
  only adds to a page that is complete without it (filter, sort, decoded URLs, pager).
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sitemap="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
    xmlns:wps="urn:wpsitemaps:xslt"
    exclude-result-prefixes="sitemap video wps">

  <xsl:output method="html" doctype-system="about:legacy-compat" encoding="UTF-8"
      indent="yes"/>

  <!-- Relative: the index is a sibling of every sitemap, also when home is a subdirectory
       (/blog/post-sitemap.xml -> /blog/sitemap_index.xml); the server's HTML answers at the
       sitemap's own URL, so browser and server resolve it alike. -->
  <xsl:param name="index-url" select="'sitemap_index.xml'"/>
  <!-- Set by the server for a page of a multi-page sitemap (web/display.py); see "pager". -->
  <xsl:param name="page" select="''"/>
  <xsl:param name="pages" select="''"/>
  <xsl:param name="prev-url" select="''"/>
  <xsl:param name="next-url" select="''"/>

  <xsl:template match="/">
    <xsl:variable name="videos" select="count(sitemap:urlset/sitemap:url/video:video)"/>
    <xsl:variable name="pages" select="count(sitemap:urlset/sitemap:url[video:video])"/>
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex, follow"/>
        <title>Video Sitemap</title>
        <style>
:root { color-scheme: light dark; --fg: #1d2327; --muted: #50575e; --line: #dcdcde;
  --head: #f0f0f1; --link: #2271b1; --bg: #fff; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8e8; --muted: #b4b9be;
  --line: #3c434a; --head: #23282d; --link: #72aee6; --bg: #14171a; } }
body { margin: 0; padding: 1rem; font: 16px/1.5 system-ui, -apple-system, "Segoe UI",
  Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 72rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
p { margin: .25rem 0 .75rem; color: var(--muted); }
a { color: var(--link); }
.count { font-weight: 600; color: var(--fg); }
p.empty { margin-top: 1rem; padding: .75rem 1rem; border: 1px solid var(--line);
  border-radius: 4px; color: var(--fg); }
table { width: 100%; border-collapse: collapse; margin-top: 1rem; }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { background: var(--head); font-size: .85rem; text-transform: uppercase; }
td.url { overflow-wrap: anywhere; word-break: break-word; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.date, td.video { white-space: nowrap; }
td.thumb img { display: block; width: 160px; max-width: 40vw; height: auto;
  aspect-ratio: 16 / 9; object-fit: cover; background: var(--head); }
.desc { display: block; font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
/* The page URL gets a fixed share of the row: without it the table gives a cell that may
   break anywhere only its narrowest width, and every URL wrapped over 5-8 lines. */
td.page { width: 38%; }
td.page a.loc { font-size: .9rem; }
@media (max-width: 40rem) {
  td.page { width: auto; }
  body { padding: .75rem; }
  thead { display: none; }
  table, tbody, tr, td { display: block; width: auto; }
  tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
  td { border: 0; padding: .15rem 0; }
  td.num { text-align: left; }
  td[data-label]::before { content: attr(data-label) ": "; font-weight: 600;
    color: var(--muted); }
  td.url::before { content: none; }
}
        </style>
        <xsl:call-template name="ui-style"/>
      </head>
      <body>
        <main>
          <h1>Video Sitemap</h1>
          <p>This sitemap lists <span class="count"><xsl:value-of select="$videos"/></span>
            <xsl:text> </xsl:text>
            <xsl:choose>
              <xsl:when test="$videos = 1">video</xsl:when>
              <xsl:otherwise>videos</xsl:otherwise>
            </xsl:choose>
            <xsl:text> on </xsl:text>
            <span class="count"><xsl:value-of select="$pages"/></span>
            <xsl:text> </xsl:text>
            <xsl:choose>
              <xsl:when test="$pages = 1">page</xsl:when>
              <xsl:otherwise>pages</xsl:otherwise>
            </xsl:choose>.</p>
          <p><a class="back" href="{$index-url}">&#8592; Back to the sitemap index</a></p>
          <xsl:call-template name="pager"/>
          <xsl:choose>
            <xsl:when test="$videos = 0">
              <p class="empty">No published page of this site has a video that can be listed
                right now, so this video sitemap is empty.</p>
            </xsl:when>
            <xsl:otherwise>
          <table>
            <thead>
              <tr><th class="num" data-sort="num">#</th><th>Thumbnail</th>
                <th data-sort="text">Title</th><th class="num" data-sort="num">Duration</th>
                <th>Video</th><th data-sort="text">Page</th></tr>
            </thead>
            <tbody>
              <xsl:for-each select="sitemap:urlset/sitemap:url/video:video">
                <xsl:call-template name="video-row"/>
              </xsl:for-each>
            </tbody>
          </table>
            </xsl:otherwise>
          </xsl:choose>
          <p>This is an XML sitemap, meant for search engines; see
            <a href="https://developers.google.com/search/docs/crawling-indexing/sitemaps/video-sitemaps">Google's video sitemap documentation</a>.</p>
        </main>
        <xsl:call-template name="ui-script"/>
      </body>
    </html>
  </xsl:template>

  <xsl:template name="video-row">
    <xsl:variable name="page-url" select="normalize-space(../sitemap:loc)"/>
    <tr>
      <td class="num" data-label="#"><xsl:number level="any" count="video:video"/></td>
      <td class="thumb">
        <xsl:if test="normalize-space(video:thumbnail_loc) != ''">
          <img src="{normalize-space(video:thumbnail_loc)}" alt="" width="160" height="90"
              loading="lazy" referrerpolicy="no-referrer"/>
        </xsl:if>
      </td>
      <td class="title" data-label="Title">
        <strong><xsl:value-of select="video:title"/></strong>
        <xsl:if test="normalize-space(video:description) != ''">
          <span class="desc"><xsl:value-of select="video:description"/></span>
        </xsl:if>
      </td>
      <td class="num duration" data-label="Duration"
          data-sort="{floor(number(normalize-space(video:duration)))}">
        <xsl:call-template name="duration">
          <xsl:with-param name="seconds" select="normalize-space(video:duration)"/>
        </xsl:call-template>
      </td>
      <td class="video" data-label="Video">
        <xsl:if test="normalize-space(video:player_loc) != ''">
          <a class="player" href="{normalize-space(video:player_loc)}">Player</a>
          <xsl:text> </xsl:text>
        </xsl:if>
        <xsl:if test="normalize-space(video:content_loc) != ''">
          <a class="content" href="{normalize-space(video:content_loc)}">File</a>
        </xsl:if>
      </td>
      <td class="url page">
        <a class="loc" href="{$page-url}">
          <xsl:call-template name="show-url">
            <xsl:with-param name="url" select="$page-url"/>
          </xsl:call-template>
        </a>
      </td>
    </tr>
  </xsl:template>

  <!-- video:duration (seconds) as mm:ss, or h:mm:ss from one hour on; a dash when unknown. -->
  <xsl:template name="duration">
    <xsl:param name="seconds"/>
    <xsl:choose>
      <xsl:when test="$seconds = '' or string(number($seconds)) = 'NaN'">&#8212;</xsl:when>
      <xsl:otherwise>
        <xsl:variable name="s" select="floor(number($seconds))"/>
        <xsl:if test="$s &gt;= 3600">
          <xsl:value-of select="concat(floor($s div 3600), ':')"/>
        </xsl:if>
        <xsl:value-of select="concat(format-number(floor(($s mod 3600) div 60), '00'), ':',
            format-number($s mod 60, '00'))"/>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- ===== Browser view, shared by main-, video- and news-sitemap.xsl (keep the three copies
       identical: tests/test_xslt_view.py compares them). ===== -->

  <!-- A loc as text, shown as an address bar shows it (escaped UTF-8 decoded). The server's
       libxslt has wps:display-url (web/display.py); a browser's XSLT has not, so it writes
       the loc as it is and the script below decodes it with the same rule. -->
  <xsl:template name="show-url">
    <xsl:param name="url"/>
    <xsl:variable name="u" select="normalize-space($url)"/>
    <xsl:choose>
      <xsl:when test="contains($u, '%') and function-available('wps:display-url')">
        <xsl:value-of select="wps:display-url($u)"/>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="$u"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <!-- "Page n of N" with previous/next links. The XML does not say which page it is and
       XSLT 1.0 cannot read the document's URL, so the server passes page, pages, prev-url and
       next-url (web/display.py: view_params). In a browser's XSLT they are empty and the
       script fills the pager from the index (data-index) and the page's own URL; data-pages
       tells the script the server already did. -->
  <xsl:template name="pager">
    <nav class="pager" aria-label="Pages of this sitemap" data-index="{$index-url}">
      <xsl:if test="function-available('wps:display-url')">
        <xsl:attribute name="data-pages">
          <xsl:choose>
            <xsl:when test="number($pages) &gt; 1"><xsl:value-of select="$pages"/></xsl:when>
            <xsl:otherwise>1</xsl:otherwise>
          </xsl:choose>
        </xsl:attribute>
      </xsl:if>
      <xsl:if test="number($pages) &gt; 1">
        <xsl:if test="$prev-url != ''">
          <a rel="prev" href="{$prev-url}">&#8592; Previous page</a>
        </xsl:if>
        <span class="where">Page <b><xsl:value-of select="$page"/></b> of
          <b><xsl:value-of select="$pages"/></b></span>
        <xsl:if test="$next-url != ''">
          <a rel="next" href="{$next-url}">Next page &#8594;</a>
        </xsl:if>
      </xsl:if>
    </nav>
  </xsl:template>

  <xsl:template name="ui-style">
    <style>
[hidden] { display: none !important; }
.tools { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center;
  margin-top: 1rem; }
.tools input { font: inherit; padding: .35rem .5rem; width: 20rem; max-width: 100%;
  color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 4px; }
.tools output { color: var(--muted); }
th button.sort { all: unset; cursor: pointer; }
th button.sort:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
th button.sort::after { content: " \21C5"; opacity: .45; }
th[aria-sort="ascending"] button.sort::after { content: " \25B2"; opacity: 1; }
th[aria-sort="descending"] button.sort::after { content: " \25BC"; opacity: 1; }
.pager { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: baseline; }
    </style>
  </xsl:template>

  <!-- Progressive enhancement: without JavaScript every row is shown and every link works;
       with it, each table gets a filter box and sortable columns (th[data-sort]), escaped
       URLs are decoded, a browser-rendered pager and news ages are filled in. -->
  <xsl:template name="ui-script">
    <script><![CDATA[
(function () {
  "use strict";
  // web/display.py's rule: decode escaped UTF-8 of visible non-ASCII only.
  var HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zs}\p{Zl}\p{Zp}]/u;
  function decodeRun(run) {
    var out = "", i = 0, n = run.length / 3;
    while (i < n) {
      var b = parseInt(run.substr(3 * i + 1, 2), 16), ch = null;
      var size = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3
        : b >= 0xF0 && b <= 0xF4 ? 4 : 1;
      if (size > 1 && i + size <= n) {
        try { ch = decodeURIComponent(run.substr(3 * i, 3 * size)); } catch (e) { ch = null; }
        if (ch !== null && HIDDEN.test(ch)) { ch = null; }
      }
      if (ch === null) { size = 1; out += run.substr(3 * i, 3); } else { out += ch; }
      i += size;
    }
    return out;
  }
  function displayUrl(u) { return u.replace(/(?:%[0-9A-Fa-f]{2})+/g, decodeRun); }
  function span(s) {
    s = Math.max(0, Math.floor(s));
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
    return h > 0 ? h + " h " + m + " min" : m + " min";
  }
  function sortKey(td, type) {
    if (!td) { return type === "text" ? "" : -Infinity; }
    var v;
    if (type === "text") { return td.textContent.trim().toLocaleLowerCase(); }
    if (td.hasAttribute("data-sort")) { v = parseFloat(td.getAttribute("data-sort")); }
    else if (type === "date") {
      var t = td.querySelector("time[datetime]");
      v = t ? Date.parse(t.getAttribute("datetime")) : NaN;
    } else { v = parseFloat(td.textContent); }
    return isNaN(v) ? -Infinity : v;
  }
  function sortBy(table, th, col) {
    var type = th.getAttribute("data-sort"), body = table.tBodies[0];
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    // Keys computed once per row, not per comparison: pages hold up to 50,000 rows.
    var keyed = Array.prototype.map.call(body.rows, function (r) {
      return {row: r, key: sortKey(r.cells[col], type), i: +r.getAttribute("data-i")};
    });
    keyed.sort(function (a, b) {
      var x = a.key, y = b.key;
      var c = type === "text" ? x.localeCompare(y, undefined, {numeric: true})
        : (x < y ? -1 : x > y ? 1 : 0);
      return dir * c || a.i - b.i;
    });
    keyed.forEach(function (k) { body.appendChild(k.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  }
  function filterBox(table, k) {
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var tools = document.createElement("div"), label = document.createElement("label");
    var input = document.createElement("input"), shown = document.createElement("output");
    tools.className = "tools";
    input.type = "search";
    input.className = "filter";
    input.id = "filter-" + k;
    input.placeholder = "Filter rows: words of a title or URL";
    label.htmlFor = input.id;
    label.textContent = "Filter";
    shown.className = "shown";
    shown.setAttribute("aria-live", "polite");
    rows.forEach(function (r, i) {
      var hrefs = Array.prototype.map.call(r.querySelectorAll("a[href]"), function (a) {
        return a.getAttribute("href");
      });
      r.setAttribute("data-i", i);
      r.hay = (r.textContent + " " + hrefs.join(" ")).toLocaleLowerCase();
    });
    function apply() {
      var words = input.value.toLocaleLowerCase().split(/\s+/).filter(Boolean), n = 0;
      rows.forEach(function (r) {
        r.hidden = !words.every(function (w) { return r.hay.indexOf(w) >= 0; });
        n += r.hidden ? 0 : 1;
      });
      shown.textContent = n + " of " + rows.length + (rows.length === 1 ? " row" : " rows");
    }
    input.addEventListener("input", apply);
    tools.appendChild(label);
    tools.appendChild(input);
    tools.appendChild(shown);
    table.parentNode.insertBefore(tools, table);
    apply();
  }
  function sortable(table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      if (!th.hasAttribute("data-sort")) { return; }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, th, col); });
    });
  }
  function pageOf(url) {
    var m = /([^\/]*?)([0-9]*)\.xml$/.exec(new URL(url, location.href).pathname);
    return m ? {base: m[1], n: m[2] ? parseInt(m[2], 10) : 1} : null;
  }
  function pagerLink(rel, n, base, text) {
    var a = document.createElement("a");
    a.rel = rel;
    a.href = base + (n === 1 ? "" : n) + ".xml";
    a.textContent = text;
    return a;
  }
  // A browser running the XSLT: find this sitemap's pages in the index, same origin.
  function fillPager(nav) {
    var me = pageOf(location.href);
    if (!me || nav.hasAttribute("data-pages") || !window.fetch) { return; }
    fetch(nav.getAttribute("data-index")).then(function (r) { return r.text(); })
      .then(function (text) {
        var xml = new DOMParser().parseFromString(text, "application/xml"), pages = 0;
        Array.prototype.forEach.call(xml.getElementsByTagNameNS("*", "loc"), function (l) {
          var p = pageOf(l.textContent.trim());
          if (p && p.base === me.base) { pages = Math.max(pages, p.n); }
        });
        nav.setAttribute("data-pages", pages);
        if (pages < 2) { return; }
        var where = document.createElement("span");
        where.className = "where";
        where.innerHTML = "Page <b></b> of <b></b>";
        where.children[0].textContent = me.n;
        where.children[1].textContent = pages;
        if (me.n > 1) { nav.appendChild(pagerLink("prev", me.n - 1, me.base, "\u2190 Previous page")); }
        nav.appendChild(where);
        if (me.n < pages) { nav.appendChild(pagerLink("next", me.n + 1, me.base, "Next page \u2192")); }
      }).catch(function () { nav.setAttribute("data-pages", "?"); });
  }
  // News ages when no server clock was given: the browser's clock.
  function fillAges() {
    var now = Date.now() / 1000;
    Array.prototype.forEach.call(document.querySelectorAll("[data-pub]"), function (el) {
      var pub = parseFloat(el.getAttribute("data-pub"));
      el.textContent = el.classList.contains("left")
        ? (pub + 172800 > now ? "in " + span(pub + 172800 - now) : "due now")
        : span(now - pub);
      el.removeAttribute("data-pub");
    });
    var asof = document.querySelector(".asof[data-clock='browser']");
    if (asof) { asof.textContent = "Ages as of " + new Date().toString() + " (this browser's clock)."; }
  }
  Array.prototype.forEach.call(document.querySelectorAll(".loc"), function (el) {
    el.textContent = displayUrl(el.textContent);
  });
  fillAges();
  Array.prototype.forEach.call(document.querySelectorAll("main table"), function (t, k) {
    filterBox(t, k);
    sortable(t);
  });
  Array.prototype.forEach.call(document.querySelectorAll("nav.pager"), fillPager);
})();
]]></script>
  </xsl:template>
</xsl:stylesheet>
