<?xml version="1.0" encoding="UTF-8"?>
<!--
  wpsitemaps: the video sitemap (video:video per URL) as HTML, one row per video.
  XSLT 1.0, run either by the browser (<?xml-stylesheet?>) or by the server (lxml/libxslt)
  for a top-level navigation. Self-contained on purpose: no includes, no external CSS,
  fonts or scripts; the only remote loads are the sitemap's own thumbnails.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sitemap="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
    exclude-result-prefixes="sitemap video">

  <xsl:output method="html" doctype-system="about:legacy-compat" encoding="UTF-8"
      indent="yes"/>

  <!-- Relative: the index is a sibling of every sitemap, also when home is a subdirectory
       (/blog/post-sitemap.xml -> /blog/sitemap_index.xml); the server's HTML answers at the
       sitemap's own URL, so browser and server resolve it alike. -->
  <xsl:param name="index-url" select="'sitemap_index.xml'"/>

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
          <table>
            <thead>
              <tr><th class="num">#</th><th>Thumbnail</th><th>Title</th>
                <th class="num">Duration</th><th>Video</th><th>Page</th></tr>
            </thead>
            <tbody>
              <xsl:for-each select="sitemap:urlset/sitemap:url/video:video">
                <xsl:call-template name="video-row"/>
              </xsl:for-each>
            </tbody>
          </table>
          <p>This is an XML sitemap, meant for search engines; see
            <a href="https://developers.google.com/search/docs/crawling-indexing/sitemaps/video-sitemaps">Google's video sitemap documentation</a>.</p>
        </main>
      </body>
    </html>
  </xsl:template>

  <xsl:template name="video-row">
    <xsl:variable name="page" select="normalize-space(../sitemap:loc)"/>
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
      <td class="num duration" data-label="Duration">
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
      <td class="url page"><a href="{$page}"><xsl:value-of select="$page"/></a></td>
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

</xsl:stylesheet>
