<?php
/**
 * The content every variant holds (through WordPress's API only) and the robots/canonical
 * markers placed on it: the active plugin's own (seo_oracle_marks()['active'], written by the
 * plugin's module through the plugin's API) and every other plugin's leftovers
 * (seo_oracle_marks()['leftovers'], written with update_post_meta / update_term_meta /
 * update_user_meta / update_option in the exact format that plugin writes; see README.md).
 */

const SEO_ORACLE_DAY = 86400;

/** Markers by object key: `post:<slug>` (any type), `<taxonomy>:<slug>`, `user:<login>`. */
function seo_oracle_marks() {
	return array(
		'active'    => array(
			'noindex_posts'         => array( 'post:p03', 'post:p07', 'post:p11', 'post:private-page', 'post:closed-event' ),
			'canonical_posts'       => array( 'post:p05' => 'post:p06', 'post:p09' => 'https://elsewhere.example.com/original/', 'post:p13' => 'self' ),
			'index_posts'           => array( 'post:p15' ),
			'sitemap_exclude_posts' => array( 'post:p17' ),
			'sitemap_exclude_terms' => array( 'post_tag:excluded-tag' ),
			'noindex_terms'         => array( 'category:hidden-cat', 'post_tag:noindex-tag' ),
			'canonical_terms'       => array( 'category:canon-cat' => 'category:news' ),
			'noindex_users'         => array( 'user:dave' ),
			'excluded_post_types'   => array( 'recipe' ),
			'excluded_taxonomies'   => array( 'venue' ),
		),
		'leftovers' => array(
			'yoast'    => array(
				'noindex_posts'   => array( 'post:p16', 'post:p18', 'post:leftover-page' ),
				'canonical_posts' => array( 'post:p20' => 'post:p01' ),
				'noindex_terms'   => array( 'category:culture', 'post_tag:leftover-tag' ),
				'noindex_users'   => array( 'user:erin' ),
			),
			'rankmath' => array(
				'noindex_posts'   => array( 'post:p02', 'post:p04', 'post:p15', 'post:old-event' ),
				'canonical_posts' => array( 'post:p06' => 'https://elsewhere.example.com/p06/' ),
				'noindex_terms'   => array( 'category:local' ),
				'noindex_users'   => array( 'user:erin' ),
			),
			'aioseo3'  => array(
				'noindex_posts'   => array( 'post:p08', 'post:p10' ),
				'canonical_posts' => array( 'post:p21' => 'post:p01' ),
			),
			'seopress' => array(
				'noindex_posts'   => array( 'post:p12' ),
				'canonical_posts' => array( 'post:p22' => 'post:p01' ),
				'noindex_terms'   => array( 'category:sports' ),
			),
			'tsf'      => array(
				'noindex_posts'   => array( 'post:p14' ),
				'canonical_posts' => array( 'post:p23' => 'post:p01' ),
				'noindex_terms'   => array( 'post_tag:beta' ),
			),
		),
	);
}

/** The object a key names: array( kind, id ) with kind post, term or user. */
function seo_oracle_resolve( $key ) {
	list( $kind, $slug ) = explode( ':', $key, 2 );
	if ( 'post' === $kind ) {
		$found = get_posts( array( 'name' => $slug, 'post_type' => 'any', 'post_status' => 'any', 'numberposts' => 1, 'fields' => 'ids' ) );
		if ( ! $found ) {
			$page = get_page_by_path( $slug, OBJECT, array( 'page' ) );
			$found = $page ? array( $page->ID ) : array();
		}
		return array( 'post', (int) $found[0] );
	}
	if ( 'user' === $kind ) {
		return array( 'user', (int) get_user_by( 'login', $slug )->ID );
	}
	$term = get_term_by( 'slug', $slug, $kind );
	return array( 'term', (int) $term->term_id, $kind );
}

/** A canonical target: an absolute URL as is, `self`, or the URL of a post or term key. */
function seo_oracle_url( $target, $key ) {
	if ( 'self' === $target ) {
		$target = $key;
	}
	if ( 0 === strpos( $target, 'http' ) ) {
		return $target;
	}
	$obj = seo_oracle_resolve( $target );
	return 'post' === $obj[0] ? get_permalink( $obj[1] ) : get_term_link( $obj[1], $obj[2] );
}

function seo_oracle_user( $login, $role, $name, $registered ) {
	$id = wp_insert_user(
		array( 'user_login' => $login, 'user_pass' => "pw-$login", 'user_email' => "$login@example.test", 'role' => $role, 'display_name' => $name, 'first_name' => $name, 'user_registered' => $registered )
	);
	if ( is_wp_error( $id ) ) {
		fwrite( STDERR, $id->get_error_message() );
		exit( 1 );
	}
	return $id;
}

function seo_oracle_term( $name, $taxonomy, $slug, $parent = 0 ) {
	$r = wp_insert_term( $name, $taxonomy, array( 'slug' => $slug, 'parent' => $parent ) );
	if ( is_wp_error( $r ) ) {
		fwrite( STDERR, $r->get_error_message() );
		exit( 1 );
	}
	return (int) $r['term_id'];
}

function seo_oracle_post( $args ) {
	$id = wp_insert_post( array_merge( array( 'post_status' => 'publish', 'post_author' => 1, 'post_type' => 'post' ), $args ), true );
	if ( is_wp_error( $id ) ) {
		fwrite( STDERR, $id->get_error_message() );
		exit( 1 );
	}
	return $id;
}

/** Users, terms, posts, pages, events and recipes; dates in 2026 (local time Europe/Berlin). */
function seo_oracle_content() {
	// Fixed registration dates (some plugins fall back to user_registered for an author's lastmod).
	wp_update_user( array( 'ID' => 1, 'user_registered' => '2025-11-01 09:00:00' ) );
	$users = array(
		'admin' => 1,
		'alice' => seo_oracle_user( 'alice', 'author', 'Alice', '2025-11-02 09:00:00' ),
		'bob'   => seo_oracle_user( 'bob', 'editor', 'Bob', '2025-11-03 09:00:00' ),
		'carol' => seo_oracle_user( 'carol', 'author', 'Carol', '2025-11-04 09:00:00' ), // no posts
		'dave'  => seo_oracle_user( 'dave', 'author', 'Dave', '2025-11-05 09:00:00' ),
		'erin'  => seo_oracle_user( 'erin', 'author', 'Erin', '2025-11-06 09:00:00' ),
		'frank' => seo_oracle_user( 'frank', 'subscriber', 'Frank', '2025-11-07 09:00:00' ), // a published post, no edit_posts
	);
	$news = seo_oracle_term( 'News', 'category', 'news' );
	$cats = array(
		'news'       => $news,
		'local'      => seo_oracle_term( 'Local', 'category', 'local', $news ),
		'sports'     => seo_oracle_term( 'Sports', 'category', 'sports' ),
		'culture'    => seo_oracle_term( 'Culture', 'category', 'culture' ),
		'hidden-cat' => seo_oracle_term( 'Hidden', 'category', 'hidden-cat' ),
		'canon-cat'  => seo_oracle_term( 'Canonical', 'category', 'canon-cat' ),
		'empty-cat'  => seo_oracle_term( 'Empty', 'category', 'empty-cat' ),
	);
	$tags = array();
	foreach ( array( 'alpha', 'beta', 'gamma', 'leftover-tag', 'noindex-tag', 'empty-tag', 'excluded-tag' ) as $slug ) {
		$tags[ $slug ] = seo_oracle_term( ucfirst( $slug ), 'post_tag', $slug );
	}
	$venues = array( 'hall' => seo_oracle_term( 'Hall', 'venue', 'hall' ), 'park' => seo_oracle_term( 'Park', 'venue', 'park' ) );

	$cat_cycle    = array( 'news', 'local', 'sports', 'culture', 'hidden-cat', 'canon-cat', 'local', 'news' );
	$tag_cycle    = array( array( 'alpha' ), array( 'beta' ), array( 'gamma', 'alpha' ), array( 'leftover-tag' ), array( 'noindex-tag' ), array() );
	$author_cycle = array( 'admin', 'alice', 'bob', 'dave', 'erin', 'alice' );
	$base         = strtotime( '2026-01-05 09:15:00 UTC' );
	for ( $n = 1; $n <= 24; $n++ ) {
		$slug    = sprintf( 'p%02d', $n );
		$content = "<p>Post $n.</p>";
		if ( 1 === $n ) {
			$content .= '<!--nextpage--><p>Second page.</p><!--nextpage--><p>Third page.</p>';
		}
		$id = seo_oracle_post(
			array(
				'post_title'    => "Post $n",
				'post_name'     => $slug,
				'post_content'  => $content,
				'post_date'     => gmdate( 'Y-m-d H:i:s', $base + $n * 9 * SEO_ORACLE_DAY + $n * 3600 ),
				'post_author'   => $users[ $author_cycle[ $n % 6 ] ],
				'post_category' => array( $cats[ $cat_cycle[ $n % 8 ] ] ),
			)
		);
		// excluded-tag: on two posts that carry no other marker (AIOSEO drops a term's posts too).
		wp_set_object_terms( $id, array_merge( $tag_cycle[ $n % 6 ], in_array( $n, array( 19, 24 ), true ) ? array( 'excluded-tag' ) : array() ), 'post_tag' );
	}
	seo_oracle_post( array( 'post_title' => 'By a subscriber', 'post_name' => 'by-subscriber', 'post_date' => '2026-06-01 12:00:00', 'post_author' => $users['frank'], 'post_category' => array( $cats['culture'] ) ) );
	seo_oracle_post( array( 'post_title' => 'Locked', 'post_name' => 'locked', 'post_date' => '2026-06-02 12:00:00', 'post_password' => 'secret', 'post_category' => array( $cats['news'] ) ) );
	seo_oracle_post( array( 'post_title' => 'Draft', 'post_name' => 'a-draft', 'post_status' => 'draft', 'post_category' => array( $cats['news'] ) ) );
	seo_oracle_post( array( 'post_title' => 'Private', 'post_name' => 'a-private', 'post_status' => 'private', 'post_date' => '2026-06-03 12:00:00', 'post_category' => array( $cats['sports'] ) ) );

	$about = seo_oracle_post( array( 'post_type' => 'page', 'post_title' => 'About', 'post_name' => 'about', 'post_date' => '2026-02-01 10:00:00', 'post_author' => $users['bob'] ) );
	seo_oracle_post( array( 'post_type' => 'page', 'post_title' => 'Team', 'post_name' => 'team', 'post_parent' => $about, 'post_date' => '2026-02-02 10:00:00', 'post_author' => $users['bob'] ) );
	seo_oracle_post( array( 'post_type' => 'page', 'post_title' => 'Contact', 'post_name' => 'contact', 'post_date' => '2026-02-03 10:00:00' ) );
	seo_oracle_post( array( 'post_type' => 'page', 'post_title' => 'Private page', 'post_name' => 'private-page', 'post_date' => '2026-02-04 10:00:00' ) );
	seo_oracle_post( array( 'post_type' => 'page', 'post_title' => 'Leftover page', 'post_name' => 'leftover-page', 'post_date' => '2026-02-05 10:00:00' ) );

	$events = array(
		'spring-fair'  => array( '2026-03-10 18:00:00', 'park' ),
		'summer-gig'   => array( '2026-07-11 20:00:00', 'hall' ),
		'closed-event' => array( '2026-08-12 19:00:00', 'hall' ),
		'old-event'    => array( '2026-04-13 19:00:00', 'park' ),
	);
	foreach ( $events as $slug => $spec ) {
		$id = seo_oracle_post( array( 'post_type' => 'event', 'post_title' => ucwords( str_replace( '-', ' ', $slug ) ), 'post_name' => $slug, 'post_date' => $spec[0], 'post_author' => $users['alice'] ) );
		wp_set_object_terms( $id, array( $spec[1] ), 'venue' );
	}
	seo_oracle_post( array( 'post_type' => 'recipe', 'post_title' => 'Soup', 'post_name' => 'soup', 'post_date' => '2026-05-01 08:00:00' ) );
	seo_oracle_post( array( 'post_type' => 'recipe', 'post_title' => 'Bread', 'post_name' => 'bread', 'post_date' => '2026-05-02 08:00:00' ) );

	// Install's rows (Hello world!, Sample Page, the Privacy Policy draft) carry the clock.
	foreach ( array( 1, 2, 3 ) as $n => $id ) {
		wp_update_post( array( 'ID' => $id, 'post_date' => "2026-01-0$id 08:00:00", 'post_date_gmt' => "2026-01-0$id 07:00:00" ) );
	}
	seo_oracle_fix_modified();
}

/**
 * Install and wp_update_post stamp post_modified with the clock; set it to post_date (or a
 * later fixed day for a few, so modified != date is covered) so every run writes the same rows.
 */
function seo_oracle_fix_modified() {
	global $wpdb;
	$wpdb->query( "UPDATE {$wpdb->posts} SET post_modified = post_date, post_modified_gmt = post_date_gmt" );
	$wpdb->query( "UPDATE {$wpdb->posts} SET post_modified = '2026-10-20 12:00:00', post_modified_gmt = '2026-10-20 10:00:00' WHERE post_name IN ('p02', 'about', 'spring-fair')" );
	clean_post_cache( 1 );
	wp_cache_flush();
}

/** Write every leftover set except the active plugin's own (its plugin no longer runs). */
function seo_oracle_leftovers( $active ) {
	foreach ( seo_oracle_marks()['leftovers'] as $plugin => $set ) {
		if ( $plugin === $active ) {
			continue;
		}
		$writer = "seo_oracle_leftover_$plugin";
		$writer( $set );
	}
}

/** Yoast SEO's storage (WPSEO_Meta, WPSEO_Taxonomy_Meta, the profile's wpseo_noindex_author). */
function seo_oracle_leftover_yoast( $set ) {
	foreach ( $set['noindex_posts'] ?? array() as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_yoast_wpseo_meta-robots-noindex', '1' );
	}
	foreach ( $set['canonical_posts'] ?? array() as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_yoast_wpseo_canonical', seo_oracle_url( $target, $key ) );
	}
	$tax_meta = get_option( 'wpseo_taxonomy_meta', array() );
	foreach ( $set['noindex_terms'] ?? array() as $key ) {
		$t = seo_oracle_resolve( $key );
		$tax_meta[ $t[2] ][ $t[1] ] = array( 'wpseo_noindex' => 'noindex' );
	}
	update_option( 'wpseo_taxonomy_meta', $tax_meta );
	foreach ( $set['noindex_users'] ?? array() as $key ) {
		update_user_meta( seo_oracle_resolve( $key )[1], 'wpseo_noindex_author', 'on' );
	}
}

/** Rank Math's storage: rank_math_robots (an array of directives) and rank_math_canonical_url. */
function seo_oracle_leftover_rankmath( $set ) {
	foreach ( $set['noindex_posts'] ?? array() as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'noindex' ) );
	}
	foreach ( $set['canonical_posts'] ?? array() as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], 'rank_math_canonical_url', seo_oracle_url( $target, $key ) );
	}
	foreach ( $set['noindex_terms'] ?? array() as $key ) {
		update_term_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'noindex' ) );
	}
	foreach ( $set['noindex_users'] ?? array() as $key ) {
		update_user_meta( seo_oracle_resolve( $key )[1], 'rank_math_robots', array( 'noindex' ) );
	}
}

/** All in One SEO 3's post meta (`on`), what 4.x migrates from (Migration/Meta.php). */
function seo_oracle_leftover_aioseo3( $set ) {
	foreach ( $set['noindex_posts'] ?? array() as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_aioseop_noindex', 'on' );
	}
	foreach ( $set['canonical_posts'] ?? array() as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_aioseop_custom_link', seo_oracle_url( $target, $key ) );
	}
}

/** SEOPress's storage: `_seopress_robots_index` = 'yes' means noindex. */
function seo_oracle_leftover_seopress( $set ) {
	foreach ( $set['noindex_posts'] ?? array() as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_index', 'yes' );
	}
	foreach ( $set['canonical_posts'] ?? array() as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_canonical', seo_oracle_url( $target, $key ) );
	}
	foreach ( $set['noindex_terms'] ?? array() as $key ) {
		update_term_meta( seo_oracle_resolve( $key )[1], '_seopress_robots_index', 'yes' );
	}
}

/** The SEO Framework's storage: `_genesis_noindex` 1, term meta autodescription-term-settings. */
function seo_oracle_leftover_tsf( $set ) {
	foreach ( $set['noindex_posts'] ?? array() as $key ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_genesis_noindex', 1 );
	}
	foreach ( $set['canonical_posts'] ?? array() as $key => $target ) {
		update_post_meta( seo_oracle_resolve( $key )[1], '_genesis_canonical_uri', seo_oracle_url( $target, $key ) );
	}
	foreach ( $set['noindex_terms'] ?? array() as $key ) {
		update_term_meta( seo_oracle_resolve( $key )[1], 'autodescription-term-settings', array( 'noindex' => 1 ) );
	}
}
