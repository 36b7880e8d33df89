<?php
/**
 * Oracle generator: let real WordPress (Debian's package in /usr/share/wordpress) write a site
 * and tell us the URLs it builds. Run through tests/oracle/generate.py, not directly:
 *
 *   php generate.php PHASE VARIANT DBNAME [TRUTH_OUT]
 *
 * PHASE install : wp_install(), as wp-admin/install.php does (WP_INSTALLING request).
 * PHASE settings: timezone and permalink options, as the settings screens save them.
 * PHASE content : content through the PHP API, then flush_rewrite_rules().
 * PHASE truth   : a fresh request that records inputs and WordPress's URLs as JSON.
 *
 * Every phase is its own PHP process, like the separate HTTP requests of a real site, so
 * nothing cached in one phase leaks into the next. This file doubles as the wp-config.php.
 */

if ( $argc < 4 ) {
	fwrite( STDERR, "usage: php generate.php install|settings|content|truth VARIANT DBNAME [OUT]\n" );
	exit( 2 );
}
$oracle_phase   = $argv[1];
$oracle_variant = $argv[2];
$oracle_db      = $argv[3];
$oracle_out     = $argv[4] ?? '';

const ORACLE_VARIANTS = array(
	'a' => array(
		'prefix'    => 'wp_',
		'home'      => 'https://a.example.test',
		'structure' => '/%year%/%monthnum%/%day%/%postname%/',
		'cat_base'  => 'topics',
		'tag_base'  => 'keyword',
		'front'     => false,
	),
	'b' => array(
		'prefix'    => 'wpx_',
		'home'      => 'http://example.test/blog',
		'structure' => '/%category%/%postname%',
		'cat_base'  => '',
		'tag_base'  => '',
		'front'     => true,
	),
	'c' => array(
		'prefix'    => 'wp_',
		'home'      => 'http://c.example.test',
		'structure' => '',
		'cat_base'  => '',
		'tag_base'  => '',
		'front'     => true,
	),
	'd' => array(
		'prefix'    => 'wp_',
		'home'      => 'https://d.example.test',
		'structure' => '/index.php/%post_id%/%author%/',
		'cat_base'  => '',
		'tag_base'  => '',
		'front'     => false,
	),
	'e' => array(
		'prefix'    => 'wp_',
		'home'      => 'http://e.example.test:8080',
		'structure' => '/blog/%hour%-%minute%-%second%/%postname%/',
		'cat_base'  => '',
		'tag_base'  => '',
		'front'     => false,
	),
);
if ( ! isset( ORACLE_VARIANTS[ $oracle_variant ] ) ) {
	fwrite( STDERR, "unknown variant $oracle_variant\n" );
	exit( 2 );
}
$oracle_cfg = ORACLE_VARIANTS[ $oracle_variant ];

// ---- wp-config.php equivalent -------------------------------------------------------------
$oracle_host             = parse_url( $oracle_cfg['home'] );
$_SERVER['HTTP_HOST']    = $oracle_host['host'] . ( isset( $oracle_host['port'] ) ? ':' . $oracle_host['port'] : '' );
$_SERVER['SERVER_NAME']  = $oracle_host['host'];
$_SERVER['REQUEST_URI']  = '/';
$_SERVER['SERVER_PORT']  = $oracle_host['port'] ?? 80;
$_SERVER['REQUEST_METHOD'] = 'GET';
define( 'DB_NAME', $oracle_db );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', getenv( 'ORACLE_DB_HOST' ) ?: '127.0.0.1:3306' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'ABSPATH', '/usr/share/wordpress/' );
define( 'WP_CONTENT_DIR', '/var/lib/wordpress/wp-content' );
define( 'DISABLE_WP_CRON', true );
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_DISPLAY', true );
$table_prefix = $oracle_cfg['prefix'];
if ( 'install' === $oracle_phase ) {
	define( 'WP_INSTALLING', true );
}

/** What the site's "plugin" registers on init, exactly as a theme or plugin would. */
function oracle_register_types() {
	// Hierarchical custom post type, rewrite slug != name, with_front default (true).
	register_post_type(
		'book',
		array(
			'public'       => true,
			'hierarchical' => true,
			'has_archive'  => true,
			'rewrite'      => array( 'slug' => 'library' ),
			'supports'     => array( 'title', 'editor', 'author', 'page-attributes' ),
		)
	);
	// Non-hierarchical, rewrite slug != name, not under the structure's front, own archive slug.
	register_post_type(
		'event',
		array(
			'public'      => true,
			'has_archive' => 'happenings-archive',
			'rewrite'     => array( 'slug' => 'happenings', 'with_front' => false ),
		)
	);
	// Non-hierarchical, no archive, default rewrite (slug = name, with_front).
	register_post_type( 'recipe', array( 'public' => true ) );
	// Not public, default rewrite => WordPress still writes rules: it must never be listed.
	register_post_type( 'internal_note', array( 'public' => false, 'rewrite' => true ) );
	register_taxonomy( 'genre', array( 'book' ), array( 'public' => true, 'rewrite' => array( 'slug' => 'genres' ) ) );
	register_taxonomy(
		'region',
		array( 'post', 'event' ),
		array(
			'public'       => true,
			'hierarchical' => true,
			'rewrite'      => array( 'slug' => 'where', 'hierarchical' => true ),
		)
	);
	register_taxonomy(
		'shelf',
		array( 'book' ),
		array( 'public' => true, 'hierarchical' => true, 'rewrite' => array( 'with_front' => false ) )
	);
	register_taxonomy( 'internal_tag', array( 'internal_note', 'post' ), array( 'public' => false, 'rewrite' => true ) );
}

/** No network during the run: wp_install() probes pretty permalinks over HTTP. */
function oracle_no_http() {
	return new WP_Error( 'oracle_offline', 'The oracle generator runs offline.' );
}

// Pre-initialised hooks (the format WP_Hook::build_preinitialized_hooks() accepts), because
// add_action() does not exist before wp-settings.php loads plugin.php.
$wp_filter = array(
	'init'             => array( 10 => array( 'oracle_types' => array( 'function' => 'oracle_register_types', 'accepted_args' => 1 ) ) ),
	'pre_http_request' => array( 10 => array( 'oracle_http' => array( 'function' => 'oracle_no_http', 'accepted_args' => 1 ) ) ),
	'pre_wp_mail'      => array( 10 => array( 'oracle_mail' => array( 'function' => '__return_false', 'accepted_args' => 1 ) ) ),
);

// The companion must-use plugin (wordpress/ in the repository), when a test asks for it.
if ( getenv( 'ORACLE_MU_DIR' ) ) {
	define( 'WPMU_PLUGIN_DIR', getenv( 'ORACLE_MU_DIR' ) );
}

require_once ABSPATH . 'wp-settings.php';
require_once __DIR__ . '/oracle_content.php';
require_once __DIR__ . '/oracle_truth.php';

switch ( $oracle_phase ) {
	case 'install':
		oracle_install( $oracle_cfg );
		break;
	case 'settings':
		oracle_settings( $oracle_cfg );
		break;
	case 'content':
		oracle_content( $oracle_cfg );
		if ( getenv( 'ORACLE_MU_DIR' ) ) {
			// A dashboard visit after the content is written, as wp-admin/admin.php fires it;
			// only the companion's callback runs (core's would check for updates online).
			foreach ( $GLOBALS['wp_filter']['admin_init']->callbacks as $priority => $callbacks ) {
				foreach ( $callbacks as $callback ) {
					if ( 'wpsitemaps_registry_schedule' !== $callback['function'] ) {
						remove_action( 'admin_init', $callback['function'], $priority );
					}
				}
			}
			do_action( 'admin_init' );
		}
		break;
	case 'truth':
		$json = wp_json_encode( oracle_truth( $oracle_variant, $oracle_cfg ), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
		file_put_contents( $oracle_out, $json . "\n" );
		break;
	default:
		fwrite( STDERR, "unknown phase $oracle_phase\n" );
		exit( 2 );
}
