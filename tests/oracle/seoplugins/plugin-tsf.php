<?php
/**
 * The SEO Framework (5.1.4): settings are the array `autodescription-site-settings`
 * (Data\Plugin::update_option()); per-post data is post meta `_genesis_noindex` (1 noindex,
 * -1 index, 0 default) and `_genesis_canonical_uri` (Data\Plugin\Post::save_meta()); per-term
 * data is the term meta array `autodescription-term-settings` (Data\Plugin\Term::save_meta()).
 */

use The_SEO_Framework\Data\Plugin as TsfPlugin;

/** The first request with TSF active (it writes its default options on load). */
function seo_oracle_tsf_setup( $marks ) {
}

/** Robots settings (post type / taxonomy noindex) and the per-object SEO fields. */
function seo_oracle_tsf_marks( $marks ) {
	$noindex_types = TsfPlugin::get_option( 'noindex_post_types' ) ?: array();
	foreach ( $marks['excluded_post_types'] as $type ) {
		$noindex_types[ $type ] = 1; // "Apply noindex to every post of this type."
	}
	$noindex_taxes = TsfPlugin::get_option( 'noindex_taxonomies' ) ?: array();
	foreach ( $marks['excluded_taxonomies'] as $tax ) {
		$noindex_taxes[ $tax ] = 1;
	}
	TsfPlugin::update_option( array( 'noindex_post_types' => $noindex_types, 'noindex_taxonomies' => $noindex_taxes ) );
	foreach ( $marks['noindex_posts'] as $key ) {
		TsfPlugin\Post::save_meta( seo_oracle_resolve( $key )[1], array( '_genesis_noindex' => 1 ) );
	}
	foreach ( $marks['index_posts'] as $key ) {
		TsfPlugin\Post::save_meta( seo_oracle_resolve( $key )[1], array( '_genesis_noindex' => -1 ) );
	}
	foreach ( $marks['canonical_posts'] as $key => $target ) {
		TsfPlugin\Post::save_meta( seo_oracle_resolve( $key )[1], array( '_genesis_canonical_uri' => seo_oracle_url( $target, $key ) ) );
	}
	foreach ( $marks['noindex_terms'] as $key ) {
		TsfPlugin\Term::save_meta( seo_oracle_resolve( $key )[1], array( 'noindex' => 1 ) );
	}
	foreach ( $marks['canonical_terms'] as $key => $target ) {
		TsfPlugin\Term::save_meta( seo_oracle_resolve( $key )[1], array( 'canonical' => seo_oracle_url( $target, $key ) ) );
	}
}

/** Nothing runs in the background that the sitemap reads. */
function seo_oracle_tsf_index( $marks ) {
}

/** The marker kinds this module writes in TSF's storage (no per-user noindex). */
function seo_oracle_tsf_writes() {
	return array( 'noindex_posts', 'index_posts', 'canonical_posts', 'noindex_terms', 'canonical_terms', 'excluded_post_types', 'excluded_taxonomies' );
}

function seo_oracle_tsf_state() {
	$options = get_option( 'autodescription-site-settings' );
	return array_intersect_key(
		$options,
		array_flip( array( 'sitemaps_output', 'sitemap_query_limit', 'sitemaps_modified', 'cache_sitemap', 'disabled_post_types', 'disabled_taxonomies', 'noindex_post_types', 'noindex_taxonomies', 'author_noindex', 'date_noindex', 'site_noindex' ) )
	);
}
