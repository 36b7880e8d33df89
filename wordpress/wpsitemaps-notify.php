<?php
/**
 * Plugin Name: wpsitemaps notify
 * Description: Tells the wpsitemaps service which posts, terms, users and options changed, so it serves its stored sitemaps until something did. One small signed JSON request at the end of a request that changed something; non-blocking. No output.
 * Version: 1
 * License: GPL-2.0-or-later
 *
 * Install: copy this file into wp-content/mu-plugins/ and add to wp-config.php
 *   define( 'WPSITEMAPS_NOTIFY_URL', 'http://127.0.0.1:8000/.well-known/wpsitemaps/notify' );
 *   define( 'WPSITEMAPS_NOTIFY_SECRET', '...' ); // the service's notify_secret
 * Without both constants it does nothing.
 */

defined( 'ABSPATH' ) || exit;
if ( ! defined( 'WPSITEMAPS_NOTIFY_URL' ) || ! defined( 'WPSITEMAPS_NOTIFY_SECRET' ) ) {
	return;
}

/** Post meta WordPress writes while nothing a sitemap shows changed (an editor's lock...). */
const WPSITEMAPS_NOTIFY_NOISE_META = array( '_edit_lock', '_edit_last', '_encloseme', '_pingme', '_wp_desired_post_slug' );
/** Options the sitemaps read (exact names, or prefixes ending in '*'): SITEMAP_OPTIONS of wpsitemaps/changes/tables.py. */
const WPSITEMAPS_NOTIFY_OPTIONS = array( 'permalink_structure', 'category_base', 'tag_base', 'home', 'siteurl', 'blog_public', 'active_plugins', 'show_on_front', 'page_on_front', 'page_for_posts', 'timezone_string', 'gmt_offset', 'posts_per_page', 'wpsitemaps_registry', 'wpseo*', 'rank-math-options-*', 'rank_math_*', 'aioseo_options*', 'seopress_*', 'autodescription-site-settings', 'polylang', 'icl_sitepress_settings' );
/** More changes than this in one request (an import, a bulk edit) are sent as "the site". */
const WPSITEMAPS_NOTIFY_MAX = 500;

$GLOBALS['wpsitemaps_notify_queue'] = array();

/** Queue one change of the current site; send the queue once, at shutdown. */
function wpsitemaps_notify_add( array $change ) {
	$blog = get_current_blog_id();
	$GLOBALS['wpsitemaps_notify_queue'][ $blog ][ wp_json_encode( $change ) ] = $change;
	if ( ! has_action( 'shutdown', 'wpsitemaps_notify_send' ) ) {
		add_action( 'shutdown', 'wpsitemaps_notify_send' );
	}
}

function wpsitemaps_notify_post( $post_id, $post = null ) {
	$post = get_post( $post ?: $post_id );
	if ( $post && ! in_array( $post->post_type, array( 'revision', 'customize_changeset', 'oembed_cache' ), true ) ) {
		wpsitemaps_notify_add( array( 'kind' => 'post', 'id' => (int) $post->ID, 'type' => $post->post_type ) );
	} elseif ( ! $post ) {
		wpsitemaps_notify_add( array( 'kind' => 'post', 'id' => (int) $post_id ) );
	}
}

function wpsitemaps_notify_status( $new_status, $old_status, $post ) {
	wpsitemaps_notify_post( $post->ID, $post );
}

function wpsitemaps_notify_meta( $meta_ids, $object_id, $meta_key ) {
	if ( ! in_array( $meta_key, WPSITEMAPS_NOTIFY_NOISE_META, true ) ) {
		wpsitemaps_notify_post( $object_id );
	}
}

function wpsitemaps_notify_term( $term, $tt_id, $taxonomy ) {
	wpsitemaps_notify_add( array( 'kind' => 'term', 'id' => (int) $tt_id, 'taxonomy' => (string) $taxonomy ) );
}

function wpsitemaps_notify_user( $user_id ) {
	wpsitemaps_notify_add( array( 'kind' => 'user', 'id' => (int) $user_id ) );
}

function wpsitemaps_notify_option( $option ) {
	foreach ( WPSITEMAPS_NOTIFY_OPTIONS as $name ) {
		$prefix = substr( $name, -1 ) === '*';
		if ( $prefix ? 0 === strpos( $option, substr( $name, 0, -1 ) ) : $option === $name ) {
			wpsitemaps_notify_add( array( 'kind' => 'option', 'name' => (string) $option ) );
			return;
		}
	}
}

/** One signed, non-blocking POST per site that changed in this request. */
function wpsitemaps_notify_send() {
	foreach ( $GLOBALS['wpsitemaps_notify_queue'] as $blog => $changes ) {
		$changes = count( $changes ) > WPSITEMAPS_NOTIFY_MAX ? array( array( 'kind' => 'site' ) ) : array_values( $changes );
		$body    = wp_json_encode( array( 'v' => 1, 'nonce' => bin2hex( random_bytes( 16 ) ), 'blog_id' => (int) $blog, 'changes' => $changes ) );
		$time    = (string) time();
		wp_remote_post(
			WPSITEMAPS_NOTIFY_URL,
			array(
				'blocking' => false,
				'timeout'  => 1,
				'headers'  => array(
					'Content-Type'           => 'application/json',
					'X-WPSitemaps-Timestamp' => $time,
					'X-WPSitemaps-Signature' => 'sha256=' . hash_hmac( 'sha256', $time . '.' . $body, WPSITEMAPS_NOTIFY_SECRET ),
				),
				'body'     => $body,
			)
		);
	}
	$GLOBALS['wpsitemaps_notify_queue'] = array();
}

/** A beat at most every 30 s, on any request: the service trusts the plugin only while it
 * hears from it (a minute), and a site where nothing changes must stay trusted too. */
function wpsitemaps_notify_beat() {
	if ( empty( $GLOBALS['wpsitemaps_notify_queue'] ) && false === get_transient( 'wpsitemaps_notify_beat' ) ) {
		set_transient( 'wpsitemaps_notify_beat', 1, 30 );
		$GLOBALS['wpsitemaps_notify_queue'][ get_current_blog_id() ] = array();
		wpsitemaps_notify_send();
	}
}

add_action( 'shutdown', 'wpsitemaps_notify_beat', 5 );
add_action( 'transition_post_status', 'wpsitemaps_notify_status', 10, 3 );
add_action( 'save_post', 'wpsitemaps_notify_post', 10, 2 );
add_action( 'deleted_post', 'wpsitemaps_notify_post', 10, 2 ); // the post row is gone: its type comes along
foreach ( array( 'trashed_post', 'untrashed_post', 'set_object_terms' ) as $wpsitemaps_notify_hook ) {
	add_action( $wpsitemaps_notify_hook, 'wpsitemaps_notify_post', 10, 1 );
}
foreach ( array( 'added_post_meta', 'updated_post_meta', 'deleted_post_meta' ) as $wpsitemaps_notify_hook ) {
	add_action( $wpsitemaps_notify_hook, 'wpsitemaps_notify_meta', 10, 3 );
}
foreach ( array( 'created_term', 'edited_term', 'delete_term' ) as $wpsitemaps_notify_hook ) {
	add_action( $wpsitemaps_notify_hook, 'wpsitemaps_notify_term', 10, 3 );
}
foreach ( array( 'profile_update', 'user_register', 'deleted_user' ) as $wpsitemaps_notify_hook ) {
	add_action( $wpsitemaps_notify_hook, 'wpsitemaps_notify_user', 10, 1 );
}
foreach ( array( 'updated_option', 'added_option', 'deleted_option' ) as $wpsitemaps_notify_hook ) {
	add_action( $wpsitemaps_notify_hook, 'wpsitemaps_notify_option', 10, 1 );
}
unset( $wpsitemaps_notify_hook );
