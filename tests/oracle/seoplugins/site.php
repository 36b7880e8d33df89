<?php
/**
 * SEO plugin oracle: real WordPress (Debian's /usr/share/wordpress) with one real SEO plugin
 * active writes a site carrying its own robots/canonical data and the leftover data of other
 * SEO plugins, then serves the plugin's own XML sitemaps (`php -S` with this file as router).
 * Driven by tests/oracle/seoplugins/generate.py; settings come from the environment:
 *
 *   SEO_PHASE   install | settings | content | plugin | setup | marks | index | truth | serve
 *   SEO_VARIANT yoast-leftovers | aioseo4 | rankmath | seopress | tsf
 *   SEO_DB, SEO_PLUGINS (a directory holding the plugins' folders), SEO_OUT (truth phase),
 *   SEO_UPLOADS (the run's own uploads directory: plugins keep file caches there)
 *
 * This file doubles as wp-config.php. Every phase is its own PHP process, like a request.
 */

$seo_phase   = getenv( 'SEO_PHASE' );
$seo_variant = getenv( 'SEO_VARIANT' );

require __DIR__ . '/variants.php';
$seo_cfg = SEO_VARIANTS[ $seo_variant ];

if ( 'serve' !== $seo_phase ) {
	$seo_host                  = parse_url( $seo_cfg['home'] );
	$_SERVER['HTTP_HOST']      = $seo_host['host'];
	$_SERVER['SERVER_NAME']    = $seo_host['host'];
	$_SERVER['REQUEST_URI']    = '/';
	$_SERVER['SERVER_PORT']    = 80;
	$_SERVER['REQUEST_METHOD'] = 'GET';
}
define( 'DB_NAME', getenv( 'SEO_DB' ) );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', '127.0.0.1:3306' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'ABSPATH', '/usr/share/wordpress/' );
define( 'WP_CONTENT_DIR', '/var/lib/wordpress/wp-content' );
define( 'WP_PLUGIN_DIR', getenv( 'SEO_PLUGINS' ) );
define( 'DISABLE_WP_CRON', true );
define( 'WP_DEBUG', false );
define( 'WP_ENVIRONMENT_TYPE', 'production' );
define( 'AUTH_KEY', 'seo-oracle' );
define( 'SECURE_AUTH_KEY', 'seo-oracle' );
define( 'LOGGED_IN_KEY', 'seo-oracle' );
define( 'NONCE_KEY', 'seo-oracle' );
define( 'AUTH_SALT', 'seo-oracle' );
define( 'SECURE_AUTH_SALT', 'seo-oracle' );
define( 'LOGGED_IN_SALT', 'seo-oracle' );
define( 'NONCE_SALT', 'seo-oracle' );
$table_prefix = 'wp_';
if ( 'install' === $seo_phase ) {
	define( 'WP_INSTALLING', true );
}

/** The site's own registrations, the same on every request (as a theme or plugin does). */
function seo_oracle_types() {
	register_post_type(
		'event',
		array( 'label' => 'Events', 'public' => true, 'has_archive' => 'events', 'rewrite' => array( 'slug' => 'event' ), 'supports' => array( 'title', 'editor', 'author' ) )
	);
	register_post_type(
		'recipe',
		array( 'label' => 'Recipes', 'public' => true, 'has_archive' => false, 'supports' => array( 'title', 'editor', 'author' ) )
	);
	register_taxonomy(
		'venue',
		array( 'event' ),
		array( 'label' => 'Venues', 'public' => true, 'hierarchical' => false, 'rewrite' => array( 'slug' => 'venue' ) )
	);
}

/** Uploads (and plugins' file caches under them) go to the run's own directory. */
function seo_oracle_uploads( $dirs ) {
	$base = getenv( 'SEO_UPLOADS' );
	$dirs['basedir'] = $base;
	$dirs['path']    = $base . $dirs['subdir'];
	return $dirs;
}

function seo_oracle_no_http() {
	return new WP_Error( 'offline', 'offline' );
}

$wp_filter = array(
	'init'             => array( 0 => array( 'seo_types' => array( 'function' => 'seo_oracle_types', 'accepted_args' => 1 ) ) ),
	'pre_http_request' => array( 10 => array( 'seo_http' => array( 'function' => 'seo_oracle_no_http', 'accepted_args' => 1 ) ) ),
	'pre_wp_mail'      => array( 10 => array( 'seo_mail' => array( 'function' => '__return_false', 'accepted_args' => 1 ) ) ),
	'upload_dir'       => array( 10 => array( 'seo_uploads' => array( 'function' => 'seo_oracle_uploads', 'accepted_args' => 1 ) ) ),
);

if ( 'serve' === $seo_phase ) {
	// php -S router: what index.php + wp-blog-header.php do.
	define( 'WP_USE_THEMES', true );
	require_once ABSPATH . 'wp-settings.php';
	wp();
	require_once ABSPATH . WPINC . '/template-loader.php';
	return;
}

require_once ABSPATH . 'wp-settings.php';
require_once __DIR__ . '/phases.php';
seo_oracle_phase( $seo_phase, $seo_cfg, (string) getenv( 'SEO_OUT' ) );
