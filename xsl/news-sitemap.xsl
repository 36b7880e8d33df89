<?xml version="1.0" encoding="UTF-8"?>
<!--
  wpsitemaps: the Google News sitemap (news:news per URL) as HTML, one row per article.
  XSLT 1.0, run either by the browser (<?xml-stylesheet?>) or by the server (lxml/libxslt)
  for a top-level navigation. Self-contained on purpose: no includes, no external CSS,
  fonts or scripts, so both paths render the same page from this one file. The inline script
  only adds to a page that is complete without it (filter, sort, decoded URLs, pager, and the
  ages when no server clock was given).
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sitemap="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
    xmlns:wps="urn:wpsitemaps:xslt"
    exclude-result-prefixes="sitemap news wps">

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
  <!-- The server's clock (Unix seconds) that chose the 48-hour window; empty in a browser's
       XSLT, where the script uses the browser's clock for the ages. -->
  <xsl:param name="now" select="''"/>
  <!-- Google News lists an article for 48 hours after its publication date. -->
  <xsl:variable name="window" select="172800"/>

  <xsl:template match="/">
    <xsl:variable name="count" select="count(sitemap:urlset/sitemap:url[news:news])"/>
    <xsl:variable name="name"
        select="sitemap:urlset/sitemap:url/news:news/news:publication/news:name"/>
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex, follow"/>
        <title>News Sitemap</title>
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
td.date { white-space: nowrap; }
td.thumb img { display: block; width: 160px; max-width: 40vw; height: auto;
  aspect-ratio: 16 / 9; object-fit: cover; background: var(--head); }
.desc { display: block; font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
.left { display: block; font-size: .85rem; color: var(--muted); }
@media (max-width: 40rem) {
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
          <h1>News Sitemap</h1>
          <p>This Google News sitemap lists <span class="count">
            <xsl:value-of select="$count"/></span>
            <xsl:text> </xsl:text>
            <xsl:choose>
              <xsl:when test="$count = 1">article</xsl:when>
              <xsl:otherwise>articles</xsl:otherwise>
            </xsl:choose>
            <xsl:text> published in the last two days</xsl:text>
            <xsl:if test="$name">
              <xsl:text> by </xsl:text>
              <span class="count"><xsl:value-of select="$name[1]"/></span>
            </xsl:if>.</p>
          <p><a class="back" href="{$index-url}">&#8592; Back to the sitemap index</a></p>
          <xsl:call-template name="clock"/>
          <xsl:call-template name="pager"/>
          <xsl:choose>
            <xsl:when test="$count = 0">
              <p class="empty">No article was published in the last two days, so this news
                sitemap is empty for now. It lists the next article as soon as it is
                published.</p>
            </xsl:when>
            <xsl:otherwise>
          <table>
            <thead>
              <tr><th class="num" data-sort="num">#</th><th data-sort="text">Title</th>
                <th data-sort="num">Publication date</th><th class="num" data-sort="num">Age</th>
                <th data-sort="num">Leaves sitemap</th>
                <th data-sort="text">Language</th></tr>
            </thead>
            <tbody>
              <xsl:for-each select="sitemap:urlset/sitemap:url[news:news]">
                <xsl:call-template name="news-row"/>
              </xsl:for-each>
            </tbody>
          </table>
            </xsl:otherwise>
          </xsl:choose>
          <p>This is an XML sitemap, meant for search engines; see
            <a href="https://developers.google.com/search/docs/crawling-indexing/sitemaps/news-sitemap">Google's news sitemap documentation</a>.</p>
        </main>
        <xsl:call-template name="ui-script"/>
      </body>
    </html>
  </xsl:template>

  <!-- One article: title (linking the loc), publication date, age, when it leaves. -->
  <xsl:template name="news-row">
    <xsl:variable name="loc" select="normalize-space(sitemap:loc)"/>
    <xsl:variable name="pub">
      <xsl:call-template name="epoch">
        <xsl:with-param name="value" select="news:news/news:publication_date"/>
      </xsl:call-template>
    </xsl:variable>
    <xsl:variable name="known" select="string(number($pub)) != 'NaN'"/>
    <tr>
      <td class="num" data-label="#"><xsl:value-of select="position()"/></td>
      <td class="url title">
        <a href="{$loc}"><xsl:value-of select="news:news/news:title"/></a>
        <span class="desc loc">
          <xsl:call-template name="show-url">
            <xsl:with-param name="url" select="$loc"/>
          </xsl:call-template>
        </span>
      </td>
      <td class="date" data-label="Published" data-sort="{$pub}">
        <xsl:call-template name="date">
          <xsl:with-param name="value" select="news:news/news:publication_date"/>
        </xsl:call-template>
      </td>
      <td class="num age" data-label="Age" data-sort="{0 - $pub}">
        <xsl:choose>
          <xsl:when test="not($known)">&#8212;</xsl:when>
          <xsl:when test="$now != ''">
            <xsl:call-template name="span">
              <xsl:with-param name="seconds" select="number($now) - $pub"/>
            </xsl:call-template>
          </xsl:when>
          <xsl:otherwise><span class="age" data-pub="{$pub}">&#8212;</span></xsl:otherwise>
        </xsl:choose>
      </td>
      <td class="date leaves" data-label="Leaves" data-sort="{$pub + $window}">
        <xsl:choose>
          <xsl:when test="not($known)">&#8212;</xsl:when>
          <xsl:otherwise>
            <xsl:call-template name="utc">
              <xsl:with-param name="seconds" select="$pub + $window"/>
            </xsl:call-template>
            <xsl:text> </xsl:text>
            <xsl:choose>
              <xsl:when test="$now = ''"><span class="left" data-pub="{$pub}"/></xsl:when>
              <xsl:when test="$pub + $window &gt; number($now)">
                <span class="left">in <xsl:call-template name="span">
                  <xsl:with-param name="seconds" select="$pub + $window - number($now)"/>
                </xsl:call-template></span>
              </xsl:when>
              <xsl:otherwise><span class="left">due now</span></xsl:otherwise>
            </xsl:choose>
          </xsl:otherwise>
        </xsl:choose>
      </td>
      <td class="lang" data-label="Language">
        <xsl:value-of select="news:news/news:publication/news:language"/>
      </td>
    </tr>
  </xsl:template>

  <!-- Which clock the ages are counted on: the server's (given as $now) or the browser's. -->
  <xsl:template name="clock">
    <p class="window">An article leaves the news sitemap 48 hours after its publication date.
      <xsl:choose>
        <xsl:when test="$now != ''">
          <span class="asof" data-clock="server">Ages as of
            <xsl:call-template name="utc">
              <xsl:with-param name="seconds" select="number($now)"/>
            </xsl:call-template>, when this page was made.</span>
        </xsl:when>
        <xsl:otherwise><span class="asof" data-clock="browser"/></xsl:otherwise>
      </xsl:choose>
    </p>
  </xsl:template>

  <!-- A W3C datetime as Unix seconds (XPath 1.0 arithmetic: H. Hinnant's days_from_civil);
       a date alone counts from midnight UTC, seconds' fractions are dropped; NaN if empty. -->
  <xsl:template name="epoch">
    <xsl:param name="value"/>
    <xsl:variable name="v" select="normalize-space($value)"/>
    <xsl:variable name="rest" select="substring($v, 17)"/>
    <xsl:variable name="zone"
        select="substring($rest, string-length(substring-before(
            concat(translate($rest, '+-Z', '|||'), '|'), '|')) + 1)"/>
    <xsl:variable name="offset">
      <xsl:choose>
        <xsl:when test="starts-with($zone, '+') or starts-with($zone, '-')">
          <xsl:value-of select="(1 - 2 * number(starts-with($zone, '-')))
              * (substring($zone, 2, 2) * 3600 + substring($zone, 5, 2) * 60)"/>
        </xsl:when>
        <xsl:otherwise>0</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="clock">
      <xsl:choose>
        <xsl:when test="string-length($v) &gt; 10">
          <xsl:value-of select="substring($v, 12, 2) * 3600 + substring($v, 15, 2) * 60
              + number(starts-with($rest, ':')) * floor(concat('0', substring($rest, 2, 2)))"/>
        </xsl:when>
        <xsl:otherwise>0</xsl:otherwise>
      </xsl:choose>
    </xsl:variable>
    <xsl:variable name="m" select="number(substring($v, 6, 2))"/>
    <xsl:variable name="y" select="substring($v, 1, 4) - number($m &lt;= 2)"/>
    <xsl:variable name="era" select="floor($y div 400)"/>
    <xsl:variable name="yoe" select="$y - $era * 400"/>
    <xsl:variable name="doy"
        select="floor((153 * (($m + 9) mod 12) + 2) div 5) + substring($v, 9, 2) - 1"/>
    <xsl:variable name="doe"
        select="$yoe * 365 + floor($yoe div 4) - floor($yoe div 100) + $doy"/>
    <xsl:value-of select="($era * 146097 + $doe - 719468) * 86400 + $clock - $offset"/>
  </xsl:template>

  <!-- Unix seconds as "2026-11-29 16:24 UTC" (H. Hinnant's civil_from_days). -->
  <xsl:template name="utc">
    <xsl:param name="seconds"/>
    <xsl:variable name="z" select="floor($seconds div 86400) + 719468"/>
    <xsl:variable name="era" select="floor($z div 146097)"/>
    <xsl:variable name="doe" select="$z - $era * 146097"/>
    <xsl:variable name="yoe" select="floor(($doe - floor($doe div 1460) + floor($doe div 36524)
        - floor($doe div 146096)) div 365)"/>
    <xsl:variable name="doy"
        select="$doe - (365 * $yoe + floor($yoe div 4) - floor($yoe div 100))"/>
    <xsl:variable name="mp" select="floor((5 * $doy + 2) div 153)"/>
    <xsl:variable name="d" select="$doy - floor((153 * $mp + 2) div 5) + 1"/>
    <xsl:variable name="m" select="$mp + 3 - 12 * number($mp &gt;= 10)"/>
    <xsl:variable name="y" select="$yoe + $era * 400 + number($m &lt;= 2)"/>
    <xsl:variable name="s" select="$seconds - floor($seconds div 86400) * 86400"/>
    <time datetime="{concat($y, '-', format-number($m, '00'), '-', format-number($d, '00'),
        'T', format-number(floor($s div 3600), '00'), ':',
        format-number(floor($s mod 3600 div 60), '00'), 'Z')}">
      <xsl:value-of select="concat($y, '-', format-number($m, '00'), '-',
          format-number($d, '00'), ' ', format-number(floor($s div 3600), '00'), ':',
          format-number(floor($s mod 3600 div 60), '00'), ' UTC')"/>
    </time>
  </xsl:template>

  <!-- A duration in seconds as "5 h 12 min" or "40 min" (the script's span() does the same). -->
  <xsl:template name="span">
    <xsl:param name="seconds"/>
    <xsl:variable name="s" select="floor($seconds * number($seconds &gt; 0))"/>
    <xsl:if test="$s &gt;= 3600"><xsl:value-of select="concat(floor($s div 3600), ' h ')"/></xsl:if>
    <xsl:value-of select="concat(floor($s mod 3600 div 60), ' min')"/>
  </xsl:template>

  <!-- W3C datetime "2024-06-01T10:00:00+00:00" shown as "2024-06-01 10:00 +00:00". -->
  <xsl:template name="date">
    <xsl:param name="value"/>
    <xsl:variable name="v" select="normalize-space($value)"/>
    <xsl:choose>
      <xsl:when test="$v = ''">&#8212;</xsl:when>
      <xsl:when test="string-length($v) &lt;= 10">
        <time datetime="{$v}"><xsl:value-of select="$v"/></time>
      </xsl:when>
      <xsl:otherwise>
        <xsl:variable name="zone" select="substring($v, 17)"/>
        <time datetime="{$v}">
          <xsl:value-of select="concat(substring($v, 1, 10), ' ', substring($v, 12, 5))"/>
          <xsl:choose>
            <xsl:when test="contains($zone, 'Z')"> UTC</xsl:when>
            <xsl:when test="contains($zone, '+')">
              <xsl:value-of select="concat(' +', substring-after($zone, '+'))"/>
            </xsl:when>
            <xsl:when test="contains($zone, '-')">
              <xsl:value-of select="concat(' -', substring-after($zone, '-'))"/>
            </xsl:when>
          </xsl:choose>
        </time>
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
