<?php
/**
 * The phases of the SEO plugin oracle, each a request of its own:
 *
 *   install  wp_install(), home/siteurl
 *   settings time zone, permalinks
 *   content  the site's content through WordPress's API and the leftover rows of the SEO
 *            plugins it ran before (content.php); the plugin is not active yet
 *   plugin   activate_plugin() of the variant's plugin, as Plugins > Activate does
 *   setup    the first request with the plugin active (it creates its tables and options)
 *   marks    the plugin's own settings and per-object robots/canonical data, through its API
 *   index    what the plugin does in the background (Yoast: build every indexable)
 *   truth    every object with its URL and the markers it carries
 */

require_once __DIR__ . '/content.php';

function seo_oracle_phase( $phase, $cfg, $out ) {
	$plugin = $cfg['plugin'];
	if ( in_array( $phase, array( 'setup', 'marks', 'index', 'truth' ), true ) ) {
		require_once __DIR__ . "/plugin-$plugin.php";
	}
	switch ( $phase ) {
		case 'install':
			require_once ABSPATH . 'wp-admin/includes/upgrade.php';
			wp_install( 'SEO Oracle', 'admin', 'admin@example.test', true, '', 'oracle-password' );
			update_option( 'home', $cfg['home'] );
			update_option( 'siteurl', $cfg['home'] );
			break;
		case 'settings':
			update_option( 'timezone_string', 'Europe/Berlin' );
			$GLOBALS['wp_rewrite']->set_permalink_structure( $cfg['structure'] );
			break;
		case 'content':
			seo_oracle_content();
			seo_oracle_leftovers( $plugin );
			flush_rewrite_rules( false );
			break;
		case 'plugin':
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
			$result = activate_plugin( $cfg['file'] );
			if ( is_wp_error( $result ) ) {
				fwrite( STDERR, $result->get_error_message() );
				exit( 1 );
			}
			break;
		case 'setup':
		case 'marks':
		case 'index':
			call_user_func( "seo_oracle_{$plugin}_$phase", seo_oracle_marks()['active'] );
			flush_rewrite_rules( false );
			break;
		case 'truth':
			file_put_contents( $out, wp_json_encode( seo_oracle_truth( $cfg ), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) . "\n" );
			break;
	}
}

/** Meta keys (post, term, user) any known SEO plugin reads for robots or canonical. */
const SEO_ORACLE_META = array(
	'_yoast_wpseo_meta-robots-noindex', '_yoast_wpseo_canonical', 'wpseo_noindex_author', '_yoast_wpseo_profile_updated',
	'rank_math_robots', 'rank_math_canonical_url', '_aioseop_noindex', '_aioseop_custom_link',
	'_seopress_robots_index', '_seopress_robots_canonical', '_genesis_noindex', '_genesis_canonical_uri',
	'autodescription-term-settings',
);

function seo_oracle_meta_of( $type, $id ) {
	$out = array();
	foreach ( SEO_ORACLE_META as $key ) {
		$value = get_metadata( $type, $id, $key, true );
		if ( '' !== $value && false !== $value ) {
			$out[ $key ] = $value;
		}
	}
	return $out;
}

/** Every post, term and user with its URL, and the markers the generator placed on it. */
function seo_oracle_truth( $cfg ) {
	$marks  = seo_oracle_marks();
	$placed = array();
	$writes = call_user_func( "seo_oracle_{$cfg['plugin']}_writes" );
	foreach ( $marks['active'] as $what => $keys ) {
		if ( ! in_array( $what, $writes, true ) ) {
			continue; // The active plugin has no storage for this marker.
		}
		foreach ( $keys as $k => $v ) {
			$placed[ is_string( $k ) ? $k : $v ][] = "{$cfg['plugin']}:$what";
		}
	}
	foreach ( $marks['leftovers'] as $plugin => $set ) {
		if ( $plugin === $cfg['plugin'] ) {
			continue;
		}
		foreach ( $set as $what => $keys ) {
			foreach ( $keys as $k => $v ) {
				$placed[ is_string( $k ) ? $k : $v ][] = "leftover:$plugin:$what";
			}
		}
	}
	require_once ABSPATH . 'wp-admin/includes/plugin.php';
	$out   = array(
		'variant'        => getenv( 'SEO_VARIANT' ),
		'plugin'         => array(
			'file'    => $cfg['file'],
			'version' => get_plugin_data( WP_PLUGIN_DIR . '/' . $cfg['file'], false, false )['Version'],
			'writes'  => $writes,
			'state'   => call_user_func( "seo_oracle_{$cfg['plugin']}_state" ),
		),
		'active_plugins' => get_option( 'active_plugins' ),
		'home'           => home_url( '/' ),
		'options'        => array(),
		'posts'          => array(),
		'terms'          => array(),
		'users'          => array(),
	);
	foreach ( array( 'permalink_structure', 'show_on_front', 'page_on_front', 'page_for_posts', 'timezone_string', 'blog_public' ) as $name ) {
		$out['options'][ $name ] = get_option( $name );
	}
	$types = array( 'post', 'page', 'event', 'recipe' );
	$posts = get_posts( array( 'post_type' => $types, 'post_status' => 'any', 'numberposts' => -1, 'orderby' => 'ID', 'order' => 'ASC' ) );
	foreach ( $posts as $p ) {
		$key            = "post:{$p->post_name}";
		$out['posts'][] = array(
			'id'                => $p->ID,
			'slug'              => $p->post_name,
			'post_type'         => $p->post_type,
			'status'            => $p->post_status,
			'password'          => '' !== $p->post_password,
			'author'            => (int) $p->post_author,
			'post_modified_gmt' => $p->post_modified_gmt,
			'loc'               => get_permalink( $p ),
			'marks'             => $placed[ $key ] ?? array(),
			'meta'              => seo_oracle_meta_of( 'post', $p->ID ),
		);
	}
	foreach ( get_terms( array( 'taxonomy' => array( 'category', 'post_tag', 'venue' ), 'hide_empty' => false, 'orderby' => 'term_id' ) ) as $t ) {
		$out['terms'][] = array(
			'id'       => $t->term_id,
			'taxonomy' => $t->taxonomy,
			'slug'     => $t->slug,
			'count'    => $t->count,
			'loc'      => get_term_link( $t ),
			'marks'    => $placed[ "{$t->taxonomy}:{$t->slug}" ] ?? array(),
			'meta'     => seo_oracle_meta_of( 'term', $t->term_id ),
		);
	}
	foreach ( get_users( array( 'orderby' => 'ID' ) ) as $u ) {
		$out['users'][] = array(
			'id'              => $u->ID,
			'login'           => $u->user_login,
			'roles'           => $u->roles,
			'published_posts' => (int) count_user_posts( $u->ID, 'post', true ),
			'loc'             => get_author_posts_url( $u->ID ),
			'marks'           => $placed[ "user:{$u->user_login}" ] ?? array(),
			'meta'            => seo_oracle_meta_of( 'user', $u->ID ),
		);
	}
	$out['archives'] = array( 'event' => get_post_type_archive_link( 'event' ) );
	return $out;
}
