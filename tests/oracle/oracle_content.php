<?php
/**
 * Install and content phases of the oracle generator (loaded by generate.php).
 * Everything goes through WordPress's PHP API; no SQL is written here.
 */

/** wp-admin/install.php step 2: wp_install(), then the site's home and siteurl. */
function oracle_install( $cfg ) {
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$result = wp_install( 'Oracle ' . $cfg['prefix'], 'admin', 'admin@example.test', true, '', 'oracle-password', 'en_US' );
	if ( is_wp_error( $result ) ) {
		fwrite( STDERR, $result->get_error_message() . "\n" );
		exit( 1 );
	}
	update_option( 'home', $cfg['home'] );
	update_option( 'siteurl', $cfg['home'] );
}

/** Fail loudly when the API refuses something. */
function oracle_ok( $value, $what ) {
	if ( is_wp_error( $value ) || ! $value ) {
		$msg = is_wp_error( $value ) ? $value->get_error_message() : 'returned 0';
		fwrite( STDERR, "oracle: $what: $msg\n" );
		exit( 1 );
	}
	return $value;
}

/** wp_insert_term() with an optional parent term id; returns the term id. */
function oracle_term( $name, $taxonomy, $parent = 0 ) {
	$r = oracle_ok( wp_insert_term( $name, $taxonomy, array( 'parent' => $parent ) ), "term $name" );
	return (int) $r['term_id'];
}

/** wp_insert_post() with defaults; returns the post id. */
function oracle_post( $args ) {
	$args = array_merge( array( 'post_status' => 'publish', 'post_type' => 'post', 'post_content' => 'Text.', 'post_author' => 1 ), $args );
	return (int) oracle_ok( wp_insert_post( wp_slash( $args ), true ), 'post ' . $args['post_title'] );
}

/** Users, with logins and nicenames WordPress sanitizes itself. */
function oracle_users() {
	$ids = array( 'admin' => 1 );
	foreach ( array(
		array( 'anna', 'author', array() ),
		array( 'bob.smith', 'editor', array() ),
		array( 'chen', 'author', array( 'display_name' => '陈伟' ) ),
		array( 'juergen', 'author', array( 'user_nicename' => 'Jürgen Müller', 'display_name' => 'Jürgen Müller' ) ),
		array( 'idle', 'author', array() ),
	) as $u ) {
		$args             = array_merge(
			array( 'user_login' => $u[0], 'user_pass' => 'pw-' . $u[0], 'user_email' => sanitize_key( $u[0] ) . '@example.test', 'role' => $u[1] ),
			$u[2]
		);
		$ids[ $u[0] ] = (int) oracle_ok( wp_insert_user( $args ), 'user ' . $u[0] );
	}
	return $ids;
}

/** Categories (3 levels), tags, and the custom taxonomies' terms. */
function oracle_terms() {
	$t           = array();
	$t['tech']   = oracle_term( 'Tech', 'category' );
	$t['news']   = oracle_term( 'News', 'category' );
	$t['world']  = oracle_term( 'World', 'category', $t['news'] );
	$t['europe'] = oracle_term( 'Europe', 'category', $t['world'] );
	$t['ru']     = oracle_term( 'Новости', 'category' );
	$t['zh']     = oracle_term( '新闻', 'category', $t['news'] );
	$t['de']     = oracle_term( 'Größe & Ärger', 'category', $t['tech'] );
	$t['empty']  = oracle_term( 'Empty', 'category' );
	foreach ( array( 'Größe', '标签', 'Тег', 'plain' ) as $name ) {
		$t[ 'tag:' . $name ] = oracle_term( $name, 'post_tag' );
	}
	$t['fantasy']  = oracle_term( 'Fantasy', 'genre' );
	$t['krimi']    = oracle_term( 'Krimi über Öl', 'genre' );
	$t['eu']       = oracle_term( 'Europa', 'region' );
	$t['de_r']     = oracle_term( 'Deutschland', 'region', $t['eu'] );
	$t['berlin_r'] = oracle_term( 'Berlin', 'region', $t['de_r'] );
	$t['asia']     = oracle_term( '亚洲', 'region' );
	$t['top']      = oracle_term( 'Top Shelf', 'shelf' );
	$t['inner']    = oracle_term( 'Inner', 'shelf', $t['top'] );
	$t['secret']   = oracle_term( 'Secret', 'internal_tag' );
	return $t;
}

/** Posts of type post: dates on both sides of DST, non-Latin titles, multi-page, drafts. */
function oracle_posts( $u, $t ) {
	$p    = array();
	$rows = array(
		// key, title, local post_date, author, categories, tags, extra
		array( 'hello2', 'Hallo Welt Größe', '2024-01-15 09:05:07', 'anna', array( 'tech' ), array( 'Größe' ), array() ),
		array( 'dup', 'Hallo Welt Größe', '2024-02-20 23:30:00', 'bob.smith', array( 'europe' ), array(), array() ),
		array( 'zh', '北京新闻', '2024-07-01 00:30:00', 'chen', array( 'zh' ), array( '标签' ), array() ),
		array( 'ru', 'Привет мир', '2024-03-31 01:59:59', 'juergen', array( 'ru' ), array( 'Тег' ), array() ),
		array( 'dst', 'Nach der Umstellung', '2024-03-31 03:00:01', 'juergen', array( 'de' ), array(), array() ),
		array( 'two', 'Two categories', '2024-06-10 12:00:00', 'anna', array( 'europe', 'tech' ), array( 'plain' ), array() ),
		array( 'multi', 'Multi page story', '2024-10-27 02:30:00', 'admin', array( 'world' ), array(), array( 'post_content' => "One<!--nextpage-->Two<!--nextpage-->Three" ) ),
		array( 'slugged', 'Custom slug', '2023-12-31 23:59:59', 'anna', array( 'news' ), array(), array( 'post_name' => 'Mein Schöner Slug' ) ),
		array( 'quote', 'Tom & Jerry <3 "quotes"', '2024-05-05 05:05:05', 'bob.smith', array( 'tech' ), array(), array() ),
		array( 'noncat', 'Only default category', '2024-08-08 08:08:08', 'chen', array(), array(), array() ),
		array( 'draft', 'A draft', '2024-09-09 09:09:09', 'anna', array( 'tech' ), array(), array( 'post_status' => 'draft' ) ),
		array( 'private', 'Private post', '2024-09-10 09:09:09', 'anna', array( 'tech' ), array(), array( 'post_status' => 'private' ) ),
	);
	foreach ( $rows as $r ) {
		$cats       = array_map( fn( $k ) => $t[ $k ], $r[4] );
		$args       = array_merge(
			array(
				'post_title'  => $r[1],
				'post_date'   => $r[2],
				'post_author' => $u[ $r[3] ],
				'tags_input'  => $r[5],
			),
			$cats ? array( 'post_category' => $cats ) : array(),
			$r[6]
		);
		$p[ $r[0] ] = oracle_post( $args );
	}
	wp_set_object_terms( $p['zh'], array( $t['berlin_r'] ), 'region' );
	wp_set_object_terms( $p['two'], array( $t['asia'] ), 'region' );
	wp_set_object_terms( $p['ru'], array( $t['secret'] ), 'internal_tag' );
	return $p;
}

/** Pages (3 levels, non-Latin, multi-page) and custom post type rows. */
function oracle_pages_and_types( $u, $t, $cfg ) {
	$p            = array();
	$p['about']   = oracle_post( array( 'post_type' => 'page', 'post_title' => 'About us', 'post_date' => '2024-01-02 10:00:00' ) );
	$p['team']    = oracle_post( array( 'post_type' => 'page', 'post_title' => 'Über das Team', 'post_parent' => $p['about'], 'post_date' => '2024-01-03 10:00:00' ) );
	$p['berlin']  = oracle_post( array( 'post_type' => 'page', 'post_title' => '柏林', 'post_parent' => $p['team'], 'post_date' => '2024-01-04 10:00:00', 'post_content' => 'A<!--nextpage-->B' ) );
	$p['contact'] = oracle_post( array( 'post_type' => 'page', 'post_title' => 'Контакты', 'post_date' => '2024-01-05 10:00:00' ) );
	$p['home']    = oracle_post( array( 'post_type' => 'page', 'post_title' => 'Home', 'post_date' => '2024-01-06 10:00:00', 'post_content' => 'Welcome<!--nextpage-->More' ) );
	$p['blog']    = oracle_post( array( 'post_type' => 'page', 'post_title' => 'Blog', 'post_date' => '2024-01-07 10:00:00' ) );
	$p['pdraft']  = oracle_post( array( 'post_type' => 'page', 'post_title' => 'Draft page', 'post_status' => 'draft' ) );

	$p['series'] = oracle_post( array( 'post_type' => 'book', 'post_title' => 'The Series', 'post_date' => '2024-02-01 08:00:00', 'post_author' => $u['anna'] ) );
	$p['vol1']   = oracle_post( array( 'post_type' => 'book', 'post_title' => 'Volume Eins', 'post_parent' => $p['series'], 'post_date' => '2024-02-02 08:00:00' ) );
	$p['ch']     = oracle_post( array( 'post_type' => 'book', 'post_title' => 'Kapitel Ä', 'post_parent' => $p['vol1'], 'post_date' => '2024-02-03 08:00:00', 'post_content' => 'I<!--nextpage-->II' ) );
	$p['zhbook'] = oracle_post( array( 'post_type' => 'book', 'post_title' => '红楼梦', 'post_date' => '2024-02-04 08:00:00', 'post_content' => '一<!--nextpage-->二' ) );
	wp_set_object_terms( $p['series'], array( $t['fantasy'] ), 'genre' );
	wp_set_object_terms( $p['zhbook'], array( $t['krimi'] ), 'genre' );
	wp_set_object_terms( $p['vol1'], array( $t['inner'] ), 'shelf' );

	$p['fest']    = oracle_post( array( 'post_type' => 'event', 'post_title' => 'Sommerfest', 'post_date' => '2024-07-20 18:00:00', 'post_author' => $u['chen'] ) );
	$p['concert'] = oracle_post( array( 'post_type' => 'event', 'post_title' => 'Концерт', 'post_date' => '2024-11-11 20:00:00' ) );
	wp_set_object_terms( $p['fest'], array( $t['de_r'] ), 'region' );
	$p['soup'] = oracle_post( array( 'post_type' => 'recipe', 'post_title' => 'Suppe', 'post_date' => '2024-04-04 04:04:04' ) );

	$p['note1'] = oracle_post( array( 'post_type' => 'internal_note', 'post_title' => 'Internal one', 'post_date' => '2024-03-03 03:03:03' ) );
	$p['note2'] = oracle_post( array( 'post_type' => 'internal_note', 'post_title' => 'Internal two', 'post_date' => '2024-03-04 03:03:03' ) );

	if ( $cfg['front'] ) {
		update_option( 'show_on_front', 'page' );
		update_option( 'page_on_front', $p['home'] );
		update_option( 'page_for_posts', $p['blog'] );
	}
	return $p;
}

/**
 * What the General and Permalinks settings screens save. Its own request: custom types add
 * their permastructs on init only when permalink_structure is already set (or in wp-admin).
 */
function oracle_settings( $cfg ) {
	global $wp_rewrite;
	update_option( 'timezone_string', 'Europe/Berlin' );
	update_option( 'gmt_offset', '' );
	$wp_rewrite->set_permalink_structure( $cfg['structure'] );
	$wp_rewrite->set_category_base( $cfg['cat_base'] );
	$wp_rewrite->set_tag_base( $cfg['tag_base'] );
}

/** Content through the API, then flush_rewrite_rules() as the Permalinks screen does. */
function oracle_content( $cfg ) {
	// wp_install()'s "Hello world!" and "Sample Page" carry the install time: pin them.
	foreach ( array( 1 => '2024-01-01 12:00:00', 2 => '2024-01-01 12:30:00' ) as $id => $date ) {
		// Both columns, as the REST API does: wp_update_post() keeps the old post_date_gmt.
		$args = array( 'ID' => $id, 'post_date' => $date, 'post_date_gmt' => get_gmt_from_date( $date ), 'edit_date' => true );
		oracle_ok( wp_update_post( $args, true ), "date of $id" );
	}
	$u = oracle_users();
	$t = oracle_terms();
	oracle_posts( $u, $t );
	oracle_pages_and_types( $u, $t, $cfg );
	// As the Permalinks screen does after saving: rewrite_rules is written from the
	// structure plus every registered type's rules (hard = false: no .htaccess here).
	flush_rewrite_rules( false );
}
