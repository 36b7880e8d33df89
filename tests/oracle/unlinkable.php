<?php
/**
 * The URLs real WordPress builds for every published post and page, author and category
 * or tag of a database: what get_permalink(), get_author_posts_url() and get_term_link()
 * give for slugs WordPress itself never stores (tests/test_unlinkable_wordpress.py writes
 * them with SQL, as an import would). This file is its own wp-config.php:
 *
 *   php unlinkable.php DBNAME PREFIX HOST   (JSON on stdout)
 */

if ( $argc < 4 ) {
	fwrite( STDERR, "usage: php unlinkable.php DBNAME PREFIX HOST\n" );
	exit( 2 );
}
$_SERVER['HTTP_HOST']      = $argv[3];
$_SERVER['SERVER_NAME']    = $argv[3];
$_SERVER['REQUEST_URI']    = '/';
$_SERVER['SERVER_PORT']    = 80;
$_SERVER['REQUEST_METHOD'] = 'GET';
define( 'DB_NAME', $argv[1] );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', getenv( 'ORACLE_DB_HOST' ) ?: '127.0.0.1:3306' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'ABSPATH', '/usr/share/wordpress/' );
define( 'WP_CONTENT_DIR', '/var/lib/wordpress/wp-content' );
define( 'DISABLE_WP_CRON', true );
$table_prefix = $argv[2];

require_once ABSPATH . 'wp-settings.php';

$out = array( 'home' => home_url( '/' ), 'posts' => array(), 'users' => array(), 'terms' => array() );
foreach ( get_posts( array( 'post_type' => array( 'post', 'page' ), 'post_status' => 'publish', 'numberposts' => -1, 'suppress_filters' => true ) ) as $post ) {
	$out['posts'][ $post->ID ] = get_permalink( $post );
}
foreach ( get_users( array( 'fields' => array( 'ID' ) ) ) as $user ) {
	$out['users'][ $user->ID ] = get_author_posts_url( $user->ID );
}
foreach ( get_terms( array( 'taxonomy' => array( 'category', 'post_tag' ), 'hide_empty' => false ) ) as $term ) {
	$out['terms'][ $term->term_id ] = get_term_link( $term );
}
echo wp_json_encode( $out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ), "\n";
