<?php
/**
 * Rank Math (1.0.217): its settings are the arrays `rank-math-options-titles` and
 * `rank-math-options-sitemap` (the CMB2 options pages save the whole array); per-object
 * robots and canonical are the meta `rank_math_robots` (an array of directives) and
 * `rank_math_canonical_url`, on posts, terms and users alike (its metabox and REST
 * `rank-math/v1/updateMeta` write them with update_metadata()).
 */

/**
 * The first screen after activation asks to connect a Rank Math account; "Skip" stores
 * rank_math_registration_skip (Admin\Registration::skip_wizard()). Until then Rank Math
 * loads none of its modules (rank-math.php returns early on an invalid registration).
 */
function seo_oracle_rankmath_setup( $marks ) {
	add_option( 'rank_math_registration_skip', true );
}

function seo_oracle_rankmath_option( $name, $changes ) {
	update_option( $name, array_merge( get_option( $name, array() ), $changes ) );
}

/** Sitemap settings and per-object robots/canonical as Rank Math's screens save them. */
function seo_oracle_rankmath_marks( $marks ) {
	// Saved from Sitemap Settings: tags listed too (default off); Exclude User Roles as the
	// multicheck saves it, a list (the installer's default is a role => name map).
	$sitemap = array( 'tax_post_tag_sitemap' => 'on', 'exclude_roles' => array( 'contributor', 'subscriber' ) );
	foreach ( $marks['excluded_post_types'] as $type ) {
		$sitemap[ "pt_{$type}_sitemap" ] = 'off';
	}
	foreach ( $marks['excluded_taxonomies'] as $tax ) {
		$sitemap[ "tax_{$tax}_sitemap" ] = 'off';
	}
	$ids = array();
	foreach ( $marks['sitemap_exclude_posts'] as $key ) {
		$ids[] = seo_oracle_resolve( $key )[1];
	}
	$sitemap['exclude_posts'] = implode( ',', $ids );
	$ids                      = array();
	foreach ( $marks['sitemap_exclude_terms'] as $key ) {
		$ids[] = seo_oracle_resolve( $key )[1];
	}
	$sitemap['exclude_terms'] = implode( ',', $ids );
	seo_oracle_rankmath_option( 'rank-math-options-sitemap', $sitemap );
	// Author archives: Rank Math's default is "noindex" (author_custom_robots on, author_robots
	// [noindex]); a site with an author sitemap switches that off, as done here.
	// Tags: Rank Math's default robots for post_tag is noindex; this site indexes them.
	seo_oracle_rankmath_option( 'rank-math-options-titles', array( 'author_custom_robots' => 'off', 'tax_post_tag_custom_robots' => 'off' ) );

	foreach ( $marks['noindex_posts'] as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'noindex' ) );
	}
	foreach ( $marks['index_posts'] as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'index' ) );
	}
	foreach ( $marks['canonical_posts'] as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], 'rank_math_canonical_url', seo_oracle_url( $target, $key ) );
	}
	foreach ( $marks['noindex_terms'] as $key ) {
		update_term_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'noindex' ) );
	}
	foreach ( $marks['canonical_terms'] as $key => $target ) {
		update_term_meta( seo_oracle_resolve( $key )[1], 'rank_math_canonical_url', seo_oracle_url( $target, $key ) );
	}
	foreach ( $marks['noindex_users'] as $key ) {
		update_user_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'noindex' ) );
	}
}

/**
 * Rank Math stamps an author's `last_update` user meta (the author sitemap's lastmod) from
 * Sitemap\Cache_Watcher::save_post() whenever a post is saved while it is active. The content
 * predates Rank Math here; run that watcher over the published posts, oldest change first,
 * as if each had been saved once under Rank Math (authors then carry their latest change).
 */
function seo_oracle_rankmath_index( $marks ) {
	$watcher = new RankMath\Sitemap\Cache_Watcher();
	$posts   = get_posts( array( 'post_type' => array( 'post', 'page', 'event' ), 'numberposts' => -1, 'orderby' => 'modified', 'order' => 'ASC' ) );
	foreach ( $posts as $post ) {
		$watcher->save_post( $post->ID );
	}
}

/** The marker kinds this module writes in Rank Math's storage. */
function seo_oracle_rankmath_writes() {
	return array( 'noindex_posts', 'index_posts', 'canonical_posts', 'sitemap_exclude_posts', 'sitemap_exclude_terms', 'noindex_terms', 'canonical_terms', 'noindex_users', 'excluded_post_types', 'excluded_taxonomies' );
}

/** The sitemap settings and the titles settings the sitemap consults. */
function seo_oracle_rankmath_state() {
	$titles = get_option( 'rank-math-options-titles' );
	return array(
		'modules' => get_option( 'rank_math_modules' ),
		'sitemap' => get_option( 'rank-math-options-sitemap' ),
		'titles'  => array_filter(
			$titles,
			function ( $key ) {
				return (bool) preg_match( '/robots|noindex|disable_author|author_/', $key );
			},
			ARRAY_FILTER_USE_KEY
		),
	);
}
