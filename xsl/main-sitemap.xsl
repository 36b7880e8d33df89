<?xml version="1.0" encoding="UTF-8"?>
<!--
  wpsitemaps: the sitemap index and the content sitemaps (URLs with image:image) as HTML.
  XSLT 1.0, run either by the browser (<?xml-stylesheet?>) or by the server (lxml/libxslt)
  for a top-level navigation. Self-contained on purpose: no includes, no external CSS,
  fonts or scripts, so both paths render the same page from this one file.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sitemap="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
    xmlns:xhtml="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="sitemap image xhtml">

  <xsl:output method="html" doctype-system="about:legacy-compat" encoding="UTF-8"
      indent="yes"/>

  <!-- Relative: the index is a sibling of every sitemap, also when home is a subdirectory
       (/blog/post-sitemap.xml -> /blog/sitemap_index.xml); the server's HTML answers at the
       sitemap's own URL, so browser and server resolve it alike. -->
  <xsl:param name="index-url" select="'sitemap_index.xml'"/>

  <xsl:template match="/">
    <xsl:variable name="is-index" select="boolean(sitemap:sitemapindex)"/>
    <xsl:variable name="count"
        select="count(sitemap:sitemapindex/sitemap:sitemap | sitemap:urlset/sitemap:url)"/>
    <html lang="en">
      <head>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <meta name="robots" content="noindex, follow"/>
        <title>
          <xsl:choose>
            <xsl:when test="$is-index">XML Sitemap Index</xsl:when>
            <xsl:otherwise>XML Sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
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
table { width: 100%; border-collapse: collapse; margin-top: 1rem; }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { background: var(--head); font-size: .85rem; text-transform: uppercase; }
td.url { overflow-wrap: anywhere; word-break: break-word; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.date { white-space: nowrap; }
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
      </head>
      <body>
        <main>
          <xsl:choose>
            <xsl:when test="$is-index">
              <h1>XML Sitemap Index</h1>
              <p>This index lists <span class="count"><xsl:value-of select="$count"/></span>
                <xsl:text> </xsl:text>
                <xsl:choose>
                  <xsl:when test="$count = 1">sitemap</xsl:when>
                  <xsl:otherwise>sitemaps</xsl:otherwise>
                </xsl:choose>.
                Search engines read it to find every page of this site.</p>
              <xsl:apply-templates select="sitemap:sitemapindex"/>
            </xsl:when>
            <xsl:otherwise>
              <h1>XML Sitemap</h1>
              <p>This sitemap lists <span class="count"><xsl:value-of select="$count"/></span>
                <xsl:text> </xsl:text>
                <xsl:choose>
                  <xsl:when test="$count = 1">URL</xsl:when>
                  <xsl:otherwise>URLs</xsl:otherwise>
                </xsl:choose>
                <xsl:text> with </xsl:text>
                <span class="count">
                  <xsl:value-of select="count(sitemap:urlset/sitemap:url/image:image)"/>
                </span> images.</p>
              <p><a class="back" href="{$index-url}">&#8592; Back to the sitemap index</a></p>
              <xsl:apply-templates select="sitemap:urlset"/>
            </xsl:otherwise>
          </xsl:choose>
          <p>This is an XML sitemap, meant for search engines; see
            <a href="https://www.sitemaps.org/">sitemaps.org</a>.</p>
        </main>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="sitemap:sitemapindex">
    <table>
      <thead>
        <tr><th class="num">#</th><th>Sitemap</th><th>Last modified</th></tr>
      </thead>
      <tbody>
        <xsl:for-each select="sitemap:sitemap">
          <tr>
            <td class="num" data-label="#"><xsl:value-of select="position()"/></td>
            <td class="url"><a href="{sitemap:loc}"><xsl:value-of select="sitemap:loc"/></a></td>
            <td class="date" data-label="Last modified">
              <xsl:call-template name="date">
                <xsl:with-param name="value" select="sitemap:lastmod"/>
              </xsl:call-template>
            </td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <xsl:template match="sitemap:urlset">
    <!-- Multilingual sites: one column of hreflang links, only when the sitemap has any. -->
    <xsl:variable name="has-hreflang" select="boolean(sitemap:url/xhtml:link)"/>
    <table>
      <thead>
        <tr><th class="num">#</th><th>URL</th><th class="num">Images</th>
          <xsl:if test="$has-hreflang"><th>Languages</th></xsl:if>
          <th>Last modified</th></tr>
      </thead>
      <tbody>
        <xsl:for-each select="sitemap:url">
          <tr>
            <td class="num" data-label="#"><xsl:value-of select="position()"/></td>
            <td class="url"><a href="{sitemap:loc}"><xsl:value-of select="sitemap:loc"/></a></td>
            <td class="num images" data-label="Images">
              <xsl:value-of select="count(image:image)"/>
            </td>
            <xsl:if test="$has-hreflang">
              <td class="hreflang" data-label="Languages">
                <xsl:for-each select="xhtml:link[@rel = 'alternate']">
                  <xsl:if test="position() &gt; 1"><xsl:text> </xsl:text></xsl:if>
                  <a href="{@href}" hreflang="{@hreflang}" title="{@href}">
                    <xsl:value-of select="@hreflang"/>
                  </a>
                </xsl:for-each>
              </td>
            </xsl:if>
            <td class="date" data-label="Last modified">
              <xsl:call-template name="date">
                <xsl:with-param name="value" select="sitemap:lastmod"/>
              </xsl:call-template>
            </td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
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
</xsl:stylesheet>
