<?xml version="1.0" encoding="UTF-8"?>
<!--
  wpsitemaps: the Google News sitemap (news:news per URL) as HTML, one row per article.
  XSLT 1.0, run either by the browser (<?xml-stylesheet?>) or by the server (lxml/libxslt)
  for a top-level navigation. Self-contained on purpose: no includes, no external CSS,
  fonts or scripts, so both paths render the same page from this one file.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sitemap="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"
    exclude-result-prefixes="sitemap news">

  <xsl:output method="html" doctype-system="about:legacy-compat" encoding="UTF-8"
      indent="yes"/>

  <!-- Relative: the index is a sibling of every sitemap, also when home is a subdirectory
       (/blog/post-sitemap.xml -> /blog/sitemap_index.xml); the server's HTML answers at the
       sitemap's own URL, so browser and server resolve it alike. -->
  <xsl:param name="index-url" select="'sitemap_index.xml'"/>

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
          <table>
            <thead>
              <tr><th class="num">#</th><th>Title</th><th>Publication date</th>
                <th>Language</th></tr>
            </thead>
            <tbody>
              <xsl:for-each select="sitemap:urlset/sitemap:url[news:news]">
                <xsl:variable name="loc" select="normalize-space(sitemap:loc)"/>
                <tr>
                  <td class="num" data-label="#"><xsl:value-of select="position()"/></td>
                  <td class="url title">
                    <a href="{$loc}"><xsl:value-of select="news:news/news:title"/></a>
                    <span class="desc"><xsl:value-of select="$loc"/></span>
                  </td>
                  <td class="date" data-label="Published">
                    <xsl:call-template name="date">
                      <xsl:with-param name="value" select="news:news/news:publication_date"/>
                    </xsl:call-template>
                  </td>
                  <td class="lang" data-label="Language">
                    <xsl:value-of select="news:news/news:publication/news:language"/>
                  </td>
                </tr>
              </xsl:for-each>
            </tbody>
          </table>
          <p>This is an XML sitemap, meant for search engines; see
            <a href="https://developers.google.com/search/docs/crawling-indexing/sitemaps/news-sitemap">Google's news sitemap documentation</a>.</p>
        </main>
      </body>
    </html>
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
