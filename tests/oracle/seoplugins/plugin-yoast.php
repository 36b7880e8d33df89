<?php
/**
 * Yoast SEO (21.1): its settings and per-object data through its own API, then the indexation
 * `wp yoast index` runs (src/commands/index-command.php), so every indexable is built.
 */

use Yoast\WP\SEO\Actions\Indexing\Indexable_General_Indexation_Action;
use Yoast\WP\SEO\Actions\Indexing\Indexable_Indexing_Complete_Action;
use Yoast\WP\SEO\Actions\Indexing\Indexable_Post_Indexation_Action;
use Yoast\WP\SEO\Actions\Indexing\Indexable_Post_Type_Archive_Indexation_Action;
use Yoast\WP\SEO\Actions\Indexing\Indexable_Term_Indexation_Action;
use Yoast\WP\SEO\Actions\Indexing\Indexing_Prepare_Action;
use Yoast\WP\SEO\Actions\Indexing\Post_Link_Indexing_Action;
use Yoast\WP\SEO\Actions\Indexing\Term_Link_Indexing_Action;

/** Nothing to do: loading Yoast on this first request ran its migrations (its tables). */
function seo_oracle_yoast_setup( $marks ) {
}

/** Search Appearance and the per-object Yoast fields, as the settings and metaboxes save them. */
function seo_oracle_yoast_marks( $marks ) {
	foreach ( $marks['excluded_post_types'] as $type ) {
		WPSEO_Options::set( "noindex-$type", true ); // "Show recipes in search results?" off.
	}
	foreach ( $marks['excluded_taxonomies'] as $tax ) {
		WPSEO_Options::set( "noindex-tax-$tax", true );
	}
	foreach ( $marks['noindex_posts'] as $key ) {
		WPSEO_Meta::set_value( 'meta-robots-noindex', '1', seo_oracle_resolve( $key )[1] );
	}
	foreach ( $marks['index_posts'] as $key ) {
		WPSEO_Meta::set_value( 'meta-robots-noindex', '2', seo_oracle_resolve( $key )[1] );
	}
	foreach ( $marks['canonical_posts'] as $key => $target ) {
		WPSEO_Meta::set_value( 'canonical', seo_oracle_url( $target, $key ), seo_oracle_resolve( $key )[1] );
	}
	// Yoast has no per-post "exclude from sitemap" (sitemap_exclude_posts): nothing to write.
	foreach ( $marks['noindex_terms'] as $key ) {
		$t = seo_oracle_resolve( $key );
		WPSEO_Taxonomy_Meta::set_values( $t[1], $t[2], array( 'wpseo_noindex' => 'noindex' ) );
	}
	foreach ( $marks['canonical_terms'] as $key => $target ) {
		$t = seo_oracle_resolve( $key );
		WPSEO_Taxonomy_Meta::set_values( $t[1], $t[2], array( 'wpseo_canonical' => seo_oracle_url( $target, $key ) ) );
	}
	foreach ( $marks['noindex_users'] as $key ) {
		update_user_meta( seo_oracle_resolve( $key )[1], 'wpseo_noindex_author', 'on' );
	}
	// The profile-updated stamps Yoast writes on user_register / profile saves
	// (class-sitemaps-cache.php, admin/class-admin-user-profile.php), fixed so runs agree;
	// frank (a subscriber) never got one.
	$stamp = strtotime( '2026-09-01 08:00:00 UTC' );
	foreach ( array( 'admin', 'alice', 'bob', 'carol', 'dave', 'erin' ) as $n => $login ) {
		update_user_meta( get_user_by( 'login', $login )->ID, '_yoast_wpseo_profile_updated', $stamp + $n * 86400 * 7 );
	}
	delete_user_meta( get_user_by( 'login', 'frank' )->ID, '_yoast_wpseo_profile_updated' );
}

/** `wp yoast index`: every indexation action until nothing is left, then "complete". */
function seo_oracle_yoast_index( $marks ) {
	$c = YoastSEO()->classes;
	$c->get( Indexing_Prepare_Action::class )->prepare();
	$actions = array(
		Indexable_Post_Indexation_Action::class,
		Indexable_Term_Indexation_Action::class,
		Indexable_Post_Type_Archive_Indexation_Action::class,
		Indexable_General_Indexation_Action::class,
		Post_Link_Indexing_Action::class,
		Term_Link_Indexing_Action::class,
	);
	foreach ( $actions as $class ) {
		$action = $c->get( $class );
		do {
			$count = count( $action->index() );
		} while ( $count >= $action->get_limit() );
	}
	$c->get( Indexable_Indexing_Complete_Action::class )->complete();
}

/** The marker kinds this module writes through Yoast (content.php's 'active' set). */
function seo_oracle_yoast_writes() {
	return array( 'noindex_posts', 'index_posts', 'canonical_posts', 'noindex_terms', 'canonical_terms', 'noindex_users', 'excluded_post_types', 'excluded_taxonomies' );
}

/**
 * How Yoast 21.1 builds its sitemaps here: inc/sitemaps/ reads wp_posts, postmeta, terms and
 * users with its own SQL and WPSEO_Meta / WPSEO_Taxonomy_Meta; the indexables (built above)
 * are not read by the 21.1 sitemap providers, only by the front end and author helpers.
 */
function seo_oracle_yoast_state() {
	global $wpdb;
	return array(
		'indexables_indexing_completed' => (bool) YoastSEO()->helpers->options->get( 'indexables_indexing_completed' ),
		'indexables'                    => (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->prefix}yoast_indexable" ),
		'sitemap_source'                => 'inc/sitemaps providers: SQL on wp_posts/wp_terms/wp_users + WPSEO_Meta/WPSEO_Taxonomy_Meta (indexables not read)',
		'wpseo_titles'                  => array_intersect_key( get_option( 'wpseo_titles' ), array_flip( array( 'noindex-post', 'noindex-page', 'noindex-event', 'noindex-recipe', 'noindex-tax-category', 'noindex-tax-post_tag', 'noindex-tax-venue', 'disable-author', 'noindex-author-wpseo', 'noindex-author-noposts-wpseo' ) ) ),
	);
}
