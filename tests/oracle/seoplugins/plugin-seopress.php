<?php
/**
 * SEOPress (9.4.1, free): settings are the arrays `seopress_xml_sitemap_option_name`,
 * `seopress_titles_option_name` and `seopress_toggle` (its settings pages save whole arrays);
 * per-object robots and canonical are post/term meta `_seopress_robots_index` ('yes' =
 * noindex) and `_seopress_robots_canonical`, as its metabox saves them
 * (inc/admin/metaboxes/admin-metaboxes.php).
 */

/** The first request with SEOPress active (activation wrote its default options). */
function seo_oracle_seopress_setup( $marks ) {
}

function seo_oracle_seopress_option( $name, $changes ) {
	update_option( $name, array_merge( get_option( $name, array() ), $changes ) );
}

/** XML sitemap settings (post types, taxonomies, author) and per-object SEO fields. */
function seo_oracle_seopress_marks( $marks ) {
	$types = array();
	foreach ( array_diff( array( 'post', 'page', 'event', 'recipe' ), $marks['excluded_post_types'] ) as $type ) {
		$types[ $type ] = array( 'include' => '1' );
	}
	$taxes = array();
	foreach ( array_diff( array( 'category', 'post_tag', 'venue' ), $marks['excluded_taxonomies'] ) as $tax ) {
		$taxes[ $tax ] = array( 'include' => '1' );
	}
	seo_oracle_seopress_option(
		'seopress_xml_sitemap_option_name',
		array(
			'seopress_xml_sitemap_post_types_list' => $types,
			'seopress_xml_sitemap_taxonomies_list' => $taxes,
			'seopress_xml_sitemap_author_enable'   => '1',
		)
	);
	// Titles & Metas: SEOPress's defaults noindex tag and author archives; this site, which
	// lists both in its sitemap, indexes them (unchecked boxes are absent from the array).
	$titles = get_option( 'seopress_titles_option_name' );
	unset( $titles['seopress_titles_tax_titles']['post_tag']['noindex'], $titles['seopress_titles_archives_author_noindex'] );
	update_option( 'seopress_titles_option_name', $titles );
	foreach ( $marks['noindex_posts'] as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_index', 'yes' );
	}
	foreach ( $marks['canonical_posts'] as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_canonical', seo_oracle_url( $target, $key ) );
	}
	foreach ( $marks['noindex_terms'] as $key ) {
		update_term_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_index', 'yes' );
	}
	foreach ( $marks['canonical_terms'] as $key => $target ) {
		update_term_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_canonical', seo_oracle_url( $target, $key ) );
	}
}

/** Nothing runs in the background that the sitemap reads. */
function seo_oracle_seopress_index( $marks ) {
}

/** The marker kinds this module writes in SEOPress's storage (free has no per-user noindex). */
function seo_oracle_seopress_writes() {
	return array( 'noindex_posts', 'canonical_posts', 'noindex_terms', 'canonical_terms', 'excluded_post_types', 'excluded_taxonomies' );
}

function seo_oracle_seopress_state() {
	return array(
		'seopress_toggle'                  => get_option( 'seopress_toggle' ),
		'seopress_xml_sitemap_option_name' => get_option( 'seopress_xml_sitemap_option_name' ),
		'seopress_titles_option_name'      => get_option( 'seopress_titles_option_name' ),
	);
}
