<?php
/**
 * Polylang oracle: real WordPress (Debian's /usr/share/wordpress) with real Polylang writes a
 * multilingual site in another URL mode than pll-small, and reports its URLs.
 * Driven by tests/oracle/polylang/generate.py; settings come from the environment:
 *
 *   PLL_PHASE   install | settings | languages | content | truth | serve (php -S router)
 *   PLL_VARIANT hidden | subdomain | sub-yoast | domains-yoast
 *   PLL_DB, PLL_PLUGINS (a directory holding polylang/), PLL_OUT (truth phase)
 *
 * This file doubles as wp-config.php. Every phase is its own PHP process, like a request.
 */

$pll_phase   = getenv( 'PLL_PHASE' );
$pll_variant = getenv( 'PLL_VARIANT' );

const PLL_VARIANTS = array(
	// Directory, default language hidden, translated static front and posts pages without
	// redirect_lang (their page URLs stay), translated custom type with archive.
	'hidden'    => array(
		'home'      => 'http://pll-hidden.example.test',
		'structure' => '/%postname%/',
		'options'   => array( 'force_lang' => 1, 'hide_default' => 1, 'redirect_lang' => 0, 'rewrite' => 1 ),
		'front'     => true,
	),
	// Languages on subdomains (de.…, fr.…), default hidden on the bare host, posts on front.
	'subdomain' => array(
		'home'      => 'http://pll-sub.example.test',
		'structure' => '/%year%/%postname%/',
		'options'   => array( 'force_lang' => 2, 'hide_default' => 1, 'redirect_lang' => 0, 'rewrite' => 1 ),
		'front'     => false,
	),
	// Yoast SEO active, languages on subdomains: Yoast serves one sitemap set per language host.
	'sub-yoast' => array(
		'home'      => 'http://pll-subyoast.example.test',
		'structure' => '/%postname%/',
		'options'   => array( 'force_lang' => 2, 'hide_default' => 1, 'redirect_lang' => 0, 'rewrite' => 1 ),
		'front'     => false,
		'yoast'     => true,
	),
	// Yoast SEO active, one domain per language (the default language's domain is the home).
	'domains-yoast' => array(
		'home'      => 'http://pll-dom.example.test',
		'structure' => '/%postname%/',
		'options'   => array(
			'force_lang'    => 3,
			'hide_default'  => 0,
			'redirect_lang' => 0,
			'rewrite'       => 1,
			'domains'       => array( 'en' => 'http://pll-dom.example.test', 'de' => 'http://pll-dom.example.de', 'fr' => 'http://pll-dom.example.fr' ),
		),
		'front'     => false,
		'yoast'     => true,
	),
);
$pll_cfg = PLL_VARIANTS[ $pll_variant ];

if ( 'serve' !== $pll_phase ) {
	$pll_host               = parse_url( $pll_cfg['home'] );
	$_SERVER['HTTP_HOST']   = $pll_host['host'];
	$_SERVER['SERVER_NAME'] = $pll_host['host'];
	$_SERVER['REQUEST_URI'] = '/';
	$_SERVER['SERVER_PORT'] = 80;
	$_SERVER['REQUEST_METHOD'] = 'GET';
}
define( 'DB_NAME', getenv( 'PLL_DB' ) );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', '127.0.0.1:3306' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'ABSPATH', '/usr/share/wordpress/' );
define( 'WP_CONTENT_DIR', '/var/lib/wordpress/wp-content' );
define( 'WP_PLUGIN_DIR', getenv( 'PLL_PLUGINS' ) );
define( 'DISABLE_WP_CRON', true );
define( 'WP_DEBUG', false );
$table_prefix = 'wp_';
if ( 'install' === $pll_phase ) {
	define( 'WP_INSTALLING', true );
}

/** The site's own registration: a public custom type with an archive, translated, and a
 * public type Polylang does not translate (only the Yoast variants have posts of it). */
function pll_oracle_types() {
	register_post_type(
		'event',
		array( 'public' => true, 'has_archive' => true, 'rewrite' => array( 'slug' => 'events' ) )
	);
	register_post_type( 'recipe', array( 'public' => true, 'rewrite' => array( 'slug' => 'recipes' ) ) );
}

function pll_oracle_no_http() {
	return new WP_Error( 'offline', 'offline' );
}

$wp_filter = array(
	'init'             => array( 10 => array( 'pll_types' => array( 'function' => 'pll_oracle_types', 'accepted_args' => 1 ) ) ),
	'pre_http_request' => array( 10 => array( 'pll_http' => array( 'function' => 'pll_oracle_no_http', 'accepted_args' => 1 ) ) ),
	'pre_wp_mail'      => array( 10 => array( 'pll_mail' => array( 'function' => '__return_false', 'accepted_args' => 1 ) ) ),
);

if ( 'serve' === $pll_phase ) {
	// php -S router: what index.php + wp-blog-header.php do.
	define( 'WP_USE_THEMES', true );
	require_once ABSPATH . 'wp-settings.php';
	wp();
	require_once ABSPATH . WPINC . '/template-loader.php';
	return;
}

require_once ABSPATH . 'wp-settings.php';
require_once __DIR__ . '/phases.php';
pll_oracle_phase( $pll_phase, $pll_cfg, (string) getenv( 'PLL_OUT' ) );
