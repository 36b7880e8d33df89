<?php
/**
 * Truth phase of the oracle generator (loaded by generate.php): for every published object,
 * the inputs our pure Python functions take and the URL WordPress itself returns.
 */

/** The %category% path get_permalink() uses: lowest term_id category, parents' slugs first. */
function oracle_category_path( $post ) {
	$cats     = get_the_category( $post->ID );
	$category = '';
	if ( $cats ) {
		$cats     = wp_list_sort( $cats, array( 'term_id' => 'ASC' ) );
		$cat      = get_term( $cats[0], 'category' );
		$category = $cat->slug;
		if ( $cat->parent ) {
			$category = get_category_parents( $cat->parent, false, '/', true ) . $category;
		}
	}
	if ( '' === $category ) {
		$default  = get_term( get_option( 'default_category' ), 'category' );
		$category = $default->slug;
	}
	return $category;
}

/** The href of _wp_link_page($i) for pages 2..n of a <!--nextpage--> post. */
function oracle_pages( $post ) {
	global $pages, $numpages;
	$GLOBALS['post'] = $post;
	setup_postdata( $post );
	$out = array();
	for ( $i = 2; $i <= $numpages; $i++ ) {
		preg_match( '/href="([^"]*)"/', _wp_link_page( $i ), $m );
		$out[] = html_entity_decode( $m[1], ENT_QUOTES | ENT_HTML5 );
	}
	wp_reset_postdata();
	return $out;
}

/** Whether a post type gets a sitemap: public, viewable, not an attachment (Yoast's rule). */
function oracle_type_listed( $type ) {
	$obj = get_post_type_object( $type );
	return $obj && $obj->public && is_post_type_viewable( $obj ) && 'attachment' !== $type;
}

/** Whether a taxonomy gets a sitemap. */
function oracle_tax_listed( $tax ) {
	$obj = get_taxonomy( $tax );
	return $obj && $obj->public && is_taxonomy_viewable( $obj )
		&& ! in_array( $tax, array( 'post_format', 'nav_menu', 'link_category', 'wp_pattern_category' ), true );
}

/** Registration facts of every non-builtin-internal post type and taxonomy. */
function oracle_type_info() {
	$types = array();
	foreach ( get_post_types( array(), 'objects' ) as $name => $obj ) {
		if ( ! $obj->_builtin || in_array( $name, array( 'post', 'page' ), true ) ) {
			$types[ $name ] = array(
				'builtin'      => (bool) $obj->_builtin,
				'public'       => (bool) $obj->public,
				'listed'       => oracle_type_listed( $name ),
				'hierarchical' => (bool) $obj->hierarchical,
				'has_archive'  => $obj->has_archive,
				'rewrite'      => $obj->rewrite,
				'query_var'    => $obj->query_var,
				'archive_link' => get_post_type_archive_link( $name ),
			);
		}
	}
	$taxes = array();
	foreach ( get_taxonomies( array(), 'objects' ) as $name => $obj ) {
		if ( ! $obj->_builtin || in_array( $name, array( 'category', 'post_tag' ), true ) ) {
			$taxes[ $name ] = array(
				'builtin'      => (bool) $obj->_builtin,
				'public'       => (bool) $obj->public,
				'listed'       => oracle_tax_listed( $name ),
				'hierarchical' => (bool) $obj->hierarchical,
				'rewrite'      => $obj->rewrite,
				'query_var'    => $obj->query_var,
			);
		}
	}
	return array( $types, $taxes );
}

/** Every published row of every post type except attachments and revisions. */
function oracle_posts_truth() {
	$out   = array();
	$query = new WP_Query(
		array(
			'post_type'      => 'any',
			'post_status'    => 'publish',
			'posts_per_page' => -1,
			'orderby'        => 'ID',
			'order'          => 'ASC',
		)
	);
	// 'any' skips types with exclude_from_search; add the non-public one explicitly.
	$ids = array_merge( wp_list_pluck( $query->posts, 'ID' ), get_posts( array( 'post_type' => 'internal_note', 'fields' => 'ids', 'posts_per_page' => -1 ) ) );
	sort( $ids );
	foreach ( array_unique( $ids ) as $id ) {
		$post   = get_post( $id );
		$author = get_userdata( $post->post_author );
		$out[]  = array(
			'id'               => (int) $post->ID,
			'post_type'        => $post->post_type,
			'listed'           => oracle_type_listed( $post->post_type ),
			'post_name'        => $post->post_name,
			'post_date'        => $post->post_date,
			'post_date_gmt'    => $post->post_date_gmt,
			'page_uri'         => is_post_type_hierarchical( $post->post_type ) ? get_page_uri( $post ) : '',
			'category_path'    => 'post' === $post->post_type ? oracle_category_path( $post ) : '',
			'author_id'        => (int) $post->post_author,
			'author_nicename'  => $author ? $author->user_nicename : '',
			'loc'              => get_permalink( $post ),
			'page_link'        => 'page' === $post->post_type ? get_page_link( $post ) : null,
			'pages'            => oracle_pages( $post ),
		);
	}
	return $out;
}

/** Every term of every listed or non-public custom taxonomy, with its ancestors' slugs. */
function oracle_terms_truth( $taxes ) {
	$out   = array();
	$terms = get_terms( array( 'taxonomy' => array_keys( $taxes ), 'hide_empty' => false, 'orderby' => 'term_id' ) );
	foreach ( $terms as $term ) {
		$ancestors = array_reverse( get_ancestors( $term->term_id, $term->taxonomy, 'taxonomy' ) );
		$out[]     = array(
			'id'        => (int) $term->term_id,
			'taxonomy'  => $term->taxonomy,
			'listed'    => oracle_tax_listed( $term->taxonomy ),
			'slug'      => $term->slug,
			'ancestors' => array_map( fn( $a ) => get_term( $a, $term->taxonomy )->slug, $ancestors ),
			'parent'    => (int) $term->parent,
			'count'     => (int) $term->count,
			'loc'       => get_term_link( $term ),
		);
	}
	return $out;
}

/** Every user with the count of published posts of type post, and get_author_posts_url(). */
function oracle_users_truth() {
	$out = array();
	foreach ( get_users( array( 'orderby' => 'ID', 'order' => 'ASC' ) ) as $user ) {
		$out[] = array(
			'id'              => (int) $user->ID,
			'login'           => $user->user_login,
			'nicename'        => $user->user_nicename,
			'published_posts' => (int) count_user_posts( $user->ID, 'post', true ),
			'loc'             => get_author_posts_url( $user->ID, $user->user_nicename ),
		);
	}
	return $out;
}

/** The whole truth document of one variant. */
function oracle_truth( $variant, $cfg ) {
	global $wp_version, $table_prefix;
	list( $types, $taxes ) = oracle_type_info();
	$options               = array();
	foreach ( array( 'home', 'siteurl', 'permalink_structure', 'category_base', 'tag_base', 'show_on_front', 'page_on_front', 'page_for_posts', 'timezone_string', 'gmt_offset', 'default_category' ) as $name ) {
		$options[ $name ] = get_option( $name );
	}
	return array(
		'variant'           => $variant,
		'wordpress_version' => $wp_version,
		'table_prefix'      => $table_prefix,
		'options'           => $options,
		'home_url_slash'    => home_url( '/' ),
		'post_types'        => $types,
		'taxonomies'        => $taxes,
		'posts'             => oracle_posts_truth(),
		'terms'             => oracle_terms_truth( $taxes ),
		'users'             => oracle_users_truth(),
	);
}
