<?php
/**
 * All in One SEO 4 (4.9.9 Lite): its settings through aioseo()->options (the JSON option
 * `aioseo_options`) and per-post robots/canonical through Models\Post::savePost(), what the
 * post editor's AIOSEO panel sends (rows of `{prefix}aioseo_posts`).
 */

use AIOSEO\Plugin\Common\Models\Post as AioseoPost;

/** The first request with AIOSEO active: it runs its updates (tables, options) on init. */
function seo_oracle_aioseo_setup( $marks ) {
}

/** Sitemap settings (Sitemaps > General Sitemap) and the editor's robots and canonical fields. */
function seo_oracle_aioseo_marks( $marks ) {
	// Every write goes through the full chain: the options object keeps one group pointer.
	// Post types and taxonomies: "Include All" off, every public one but the excluded ones.
	aioseo()->options->sitemap->general->postTypes->all = false;
	aioseo()->options->sitemap->general->postTypes->included = array_values( array_diff( array( 'post', 'page', 'attachment', 'event', 'recipe' ), $marks['excluded_post_types'] ) );
	aioseo()->options->sitemap->general->taxonomies->all = false;
	aioseo()->options->sitemap->general->taxonomies->included = array_values( array_diff( array( 'category', 'post_tag', 'venue' ), $marks['excluded_taxonomies'] ) );
	// The author sitemap stays off (its default), stated explicitly as the issue measured it.
	aioseo()->options->sitemap->general->author = false;
	// Advanced Settings > Exclude Posts / Pages: JSON strings as the settings screen saves them.
	aioseo()->options->sitemap->general->advancedSettings->enable = true;
	$excluded = array();
	foreach ( $marks['sitemap_exclude_posts'] as $key ) {
		$post       = get_post( seo_oracle_resolve( $key )[1] );
		$excluded[] = wp_json_encode( array( 'value' => $post->ID, 'type' => $post->post_type, 'label' => $post->post_title, 'link' => get_permalink( $post ) ) );
	}
	aioseo()->options->sitemap->general->advancedSettings->excludePosts = $excluded;
	// Exclude Terms: the same JSON shape; AIOSEO then also leaves out the term's posts.
	$excluded = array();
	foreach ( $marks['sitemap_exclude_terms'] as $key ) {
		$t          = seo_oracle_resolve( $key );
		$term       = get_term( $t[1], $t[2] );
		$excluded[] = wp_json_encode( array( 'value' => $term->term_id, 'type' => $term->taxonomy, 'label' => $term->name, 'link' => get_term_link( $term ) ) );
	}
	aioseo()->options->sitemap->general->advancedSettings->excludeTerms = $excluded;
	aioseo()->options->save( true );

	foreach ( $marks['noindex_posts'] as $key ) {
		seo_oracle_aioseo_save( seo_oracle_resolve( $key )[1], array( 'default' => false, 'noindex' => true ) );
	}
	foreach ( $marks['index_posts'] as $key ) {
		seo_oracle_aioseo_save( seo_oracle_resolve( $key )[1], array( 'default' => false, 'noindex' => false ) );
	}
	foreach ( $marks['canonical_posts'] as $key => $target ) {
		seo_oracle_aioseo_save( seo_oracle_resolve( $key )[1], array( 'canonicalUrl' => seo_oracle_url( $target, $key ) ) );
	}
	// AIOSEO Lite keeps no per-term robots or canonical (aioseo_terms is Pro's) and no
	// per-author noindex: noindex_terms, canonical_terms and noindex_users have no Lite storage.
}

function seo_oracle_aioseo_save( $post_id, $data ) {
	$error = AioseoPost::savePost( $post_id, $data );
	if ( is_string( $error ) ) {
		fwrite( STDERR, $error );
		exit( 1 );
	}
}

/** Nothing runs in the background that the sitemap reads. */
function seo_oracle_aioseo_index( $marks ) {
}

/** The marker kinds this module writes through AIOSEO Lite. */
function seo_oracle_aioseo_writes() {
	return array( 'noindex_posts', 'index_posts', 'canonical_posts', 'sitemap_exclude_posts', 'sitemap_exclude_terms', 'excluded_post_types', 'excluded_taxonomies' );
}

/** The sitemap part of aioseo_options as AIOSEO saved it, and its table's row count. */
function seo_oracle_aioseo_state() {
	global $wpdb;
	$options = json_decode( get_option( 'aioseo_options' ), true );
	return array(
		'aioseo_posts_rows' => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->prefix}aioseo_posts" ),
		'sitemap_general'   => $options['sitemap']['general'],
	);
}
