<?php
/**
 * Plugin Name: wpsitemaps registry
 * Description: Records WordPress's registry of public post types and taxonomies (rewrite slugs, archives, hierarchy) and the active language plugin's URL settings in the option wpsitemaps_registry, for the wpsitemaps service that reads the database. No output; nothing runs on normal page views.
 * Version: 1
 * License: GPL-2.0-or-later
 *
 * Install: copy this file into wp-content/mu-plugins/. The option is (re)written at the end of
 * a request in which WordPress rewrote its rewrite rules, a plugin was switched on or off, the
 * permalink or language settings changed, or the dashboard was opened; only when it differs.
 */

defined( 'ABSPATH' ) || exit;

/** The public, viewable post types with what their URLs depend on. */
function wpsitemaps_registry_post_types() {
	global $wp_rewrite;
	$out = array();
	foreach ( get_post_types( array( 'public' => true ), 'objects' ) as $name => $type ) {
		if ( ! is_post_type_viewable( $type ) ) {
			continue;
		}
		// Arguments are only filled in when rules are built (pretty permalinks or the admin).
		$rewrite      = is_array( $type->rewrite ) ? wp_parse_args( $type->rewrite, array( 'slug' => $name, 'with_front' => true ) ) : false;
		$out[ $name ] = array(
			'hierarchical' => (bool) $type->hierarchical,
			'has_archive'  => is_string( $type->has_archive ) ? $type->has_archive : (bool) $type->has_archive,
			'rewrite'      => $rewrite ? array(
				'slug'       => (string) $rewrite['slug'],
				'with_front' => (bool) $rewrite['with_front'],
			) : false,
			'query_var'    => $type->query_var ? (string) $type->query_var : false,
			'permastruct'  => $wp_rewrite->get_extra_permastruct( $name ),
		);
	}
	return $out;
}

/** The public, viewable taxonomies with what their URLs depend on. */
function wpsitemaps_registry_taxonomies() {
	global $wp_rewrite;
	$out = array();
	foreach ( get_taxonomies( array( 'public' => true ), 'objects' ) as $name => $tax ) {
		if ( ! is_taxonomy_viewable( $tax ) ) {
			continue;
		}
		$rewrite      = is_array( $tax->rewrite ) ? wp_parse_args( $tax->rewrite, array( 'slug' => $name, 'with_front' => true, 'hierarchical' => false ) ) : false;
		$out[ $name ] = array(
			'hierarchical' => (bool) $tax->hierarchical,
			'rewrite'      => $rewrite ? array(
				'slug'         => (string) $rewrite['slug'],
				'with_front'   => (bool) $rewrite['with_front'],
				'hierarchical' => (bool) $rewrite['hierarchical'],
			) : false,
			'query_var'    => $tax->query_var ? (string) $tax->query_var : false,
			'permastruct'  => $wp_rewrite->get_extra_permastruct( $name ),
			'object_type'  => array_values( (array) $tax->object_type ),
		);
	}
	return $out;
}

/** The active language plugin and its raw URL settings. */
function wpsitemaps_registry_languages() {
	if ( function_exists( 'pll_languages_list' ) ) {
		return array(
			'plugin'    => 'polylang',
			'settings'  => (array) get_option( 'polylang', array() ),
			'languages' => array_values( (array) pll_languages_list( array( 'fields' => 'slug' ) ) ),
		);
	}
	if ( defined( 'ICL_SITEPRESS_VERSION' ) ) {
		$keys = array( 'language_negotiation_type', 'language_domains', 'urls', 'default_language', 'active_languages' );
		return array(
			'plugin'    => 'wpml',
			'settings'  => array_intersect_key( (array) get_option( 'icl_sitepress_settings', array() ), array_flip( $keys ) ),
			'languages' => array_keys( (array) apply_filters( 'wpml_active_languages', array() ) ),
		);
	}
	return array( 'plugin' => '', 'settings' => array(), 'languages' => array() );
}

/** Write the option if the registry changed (no write, and no autoload, otherwise). */
function wpsitemaps_registry_save() {
	global $wp_rewrite;
	$value = array(
		'version'             => 1,
		'front'               => (string) $wp_rewrite->front,
		'root'                => (string) $wp_rewrite->root,
		'permalink_structure' => (string) get_option( 'permalink_structure' ),
		'post_types'          => wpsitemaps_registry_post_types(),
		'taxonomies'          => wpsitemaps_registry_taxonomies(),
		'languages'           => wpsitemaps_registry_languages(),
	);
	if ( get_option( 'wpsitemaps_registry' ) !== $value ) {
		update_option( 'wpsitemaps_registry', $value, false );
	}
}

/** Save once, at the end of this request, when every registration has run. */
function wpsitemaps_registry_schedule() {
	if ( ! has_action( 'shutdown', 'wpsitemaps_registry_save' ) ) {
		add_action( 'shutdown', 'wpsitemaps_registry_save' );
	}
}

foreach ( array(
	'add_option_rewrite_rules',
	'update_option_rewrite_rules',
	'update_option_permalink_structure',
	'update_option_polylang',
	'update_option_icl_sitepress_settings',
	'activated_plugin',
	'deactivated_plugin',
	'admin_init',
) as $wpsitemaps_registry_hook ) {
	add_action( $wpsitemaps_registry_hook, 'wpsitemaps_registry_schedule' );
}
unset( $wpsitemaps_registry_hook );
