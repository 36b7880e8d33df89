<?php
/**
 * Real WordPress edits a site with the companion plugins loaded (wordpress/ as mu-plugins),
 * for tests/test_change_plugin.py. Each phase is one PHP process, like one request:
 *
 *   php notify.php PHASE DBNAME   (env WPSITEMAPS_NOTIFY_URL, WPSITEMAPS_NOTIFY_SECRET)
 *
 * install: wp_install() (no notification: the constants are not defined while installing).
 * Every other phase changes the site through WordPress's own API and prints a JSON object
 * of the ids it touched; the plugin posts its notification at shutdown.
 */

$notify_phase = $argv[1];
$_SERVER['HTTP_HOST']      = 'notify.example.test';
$_SERVER['SERVER_NAME']    = 'notify.example.test';
$_SERVER['REQUEST_URI']    = '/';
$_SERVER['SERVER_PORT']    = 80;
$_SERVER['REQUEST_METHOD'] = 'POST';
define( 'DB_NAME', $argv[2] );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', '127.0.0.1:3306' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'ABSPATH', '/usr/share/wordpress/' );
define( 'WP_CONTENT_DIR', '/var/lib/wordpress/wp-content' );
define( 'WPMU_PLUGIN_DIR', getenv( 'NOTIFY_MU_DIR' ) );
define( 'DISABLE_WP_CRON', true );
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_DISPLAY', true );
$table_prefix = 'wp_';
if ( 'install' === $notify_phase ) {
	define( 'WP_INSTALLING', true );
	// wp_install() probes pretty permalinks over HTTP: offline here.
	$wp_filter = array( 'pre_http_request' => array( 10 => array( 'offline' => array( 'function' => 'notify_offline', 'accepted_args' => 1 ) ) ) );
} else {
	define( 'WPSITEMAPS_NOTIFY_URL', getenv( 'WPSITEMAPS_NOTIFY_URL' ) );
	define( 'WPSITEMAPS_NOTIFY_SECRET', getenv( 'WPSITEMAPS_NOTIFY_SECRET' ) );
}

function notify_offline() {
	return new WP_Error( 'offline', 'offline' );
}

/** Fail loudly when the API refuses something. */
function notify_ok( $value, $what ) {
	if ( is_wp_error( $value ) || ! $value ) {
		fwrite( STDERR, "$what failed: " . ( is_wp_error( $value ) ? $value->get_error_message() : '0' ) . "\n" );
		exit( 1 );
	}
	return $value;
}

require_once ABSPATH . 'wp-settings.php';

$out = array();
switch ( $notify_phase ) {
	case 'install':
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		notify_ok( ! is_wp_error( wp_install( 'Notify', 'admin', 'admin@example.test', true, '', 'pw', 'en_US' ) ), 'install' );
		update_option( 'permalink_structure', '/%postname%/' );
		break;
	case 'publish':
		$id = notify_ok( wp_insert_post( array( 'post_title' => 'Breaking', 'post_status' => 'draft', 'post_author' => 1 ), true ), 'draft' );
		notify_ok( wp_update_post( array( 'ID' => $id, 'post_status' => 'publish' ), true ), 'publish' );
		$out['post'] = $id;
		break;
	case 'edit':
		$id = (int) $argv[3];
		notify_ok( wp_update_post( array( 'ID' => $id, 'post_title' => 'Breaking, updated' ), true ), 'update' );
		update_post_meta( $id, '_yoast_wpseo_meta-robots-noindex', '1' );
		update_post_meta( 1, '_edit_lock', time() . ':1' ); // noise: post 1 must not be reported
		$out['post'] = $id;
		break;
	case 'terms':
		$term = notify_ok( wp_insert_term( 'Local News', 'category' ), 'term' );
		notify_ok( wp_update_term( $term['term_id'], 'category', array( 'name' => 'City News', 'slug' => 'city' ) ), 'rename' );
		notify_ok( wp_set_object_terms( (int) $argv[3], array( (int) $term['term_id'] ), 'category' ), 'assign' );
		$out['term_taxonomy_id'] = (int) $term['term_taxonomy_id'];
		$out['post']             = (int) $argv[3];
		break;
	case 'trash':
		notify_ok( wp_trash_post( (int) $argv[3] ), 'trash' );
		$out['post'] = (int) $argv[3];
		break;
	case 'delete':
		notify_ok( wp_delete_post( (int) $argv[3], true ), 'delete' );
		$out['post'] = (int) $argv[3];
		break;
	case 'options':
		update_option( 'permalink_structure', '/%year%/%postname%/' );
		update_option( 'blog_public', '0' );
		update_option( 'some_unrelated_plugin_state', 'x' . time() );
		break;
	case 'view':
		break; // a page view: nothing changes
	case 'user':
		notify_ok( wp_update_user( array( 'ID' => 1, 'user_nicename' => 'chief-editor' ) ), 'user' );
		$out['user'] = 1;
		break;
	default:
		fwrite( STDERR, "unknown phase $notify_phase\n" );
		exit( 2 );
}
echo wp_json_encode( $out ), "\n";
