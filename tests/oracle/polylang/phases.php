<?php
/**
 * The phases of the Polylang oracle, all through WordPress's and Polylang's PHP API.
 */

function pll_oracle_phase( $phase, $cfg, $out ) {
	switch ( $phase ) {
		case 'install':
			require_once ABSPATH . 'wp-admin/includes/upgrade.php';
			wp_install( 'PLL Oracle', 'admin', 'admin@example.test', true, '', 'oracle-password' );
			update_option( 'home', $cfg['home'] );
			update_option( 'siteurl', $cfg['home'] );
			break;
		case 'settings':
			global $wp_rewrite;
			update_option( 'timezone_string', 'UTC' );
			$wp_rewrite->set_permalink_structure( $cfg['structure'] );
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
			$result = activate_plugin( 'polylang/polylang.php' );
			if ( is_wp_error( $result ) ) {
				fwrite( STDERR, $result->get_error_message() );
				exit( 1 );
			}
			break;
		case 'languages':
			pll_oracle_languages( $cfg );
			break;
		case 'content':
			pll_oracle_content( $cfg );
			flush_rewrite_rules( false );
			break;
		case 'yoast':
			// Yoast SEO 21.1 activated as Plugins > Activate does; its first request (the
			// 'yoastsetup' phase) runs its migrations, then its sitemap rewrite rules are saved.
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
			$result = activate_plugin( 'wordpress-seo/wp-seo.php' );
			if ( is_wp_error( $result ) ) {
				fwrite( STDERR, $result->get_error_message() );
				exit( 1 );
			}
			break;
		case 'yoastsetup':
			flush_rewrite_rules( false );
			break;
		case 'truth':
			file_put_contents( $out, wp_json_encode( pll_oracle_truth( $cfg ), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ) . "\n" );
			break;
	}
}

/** Languages as Languages > Add new language does (PLL_Admin_Model::add_language()). */
function pll_oracle_languages( $cfg ) {
	// No language yet: Polylang builds no frontend object (so no PLL()), the model is enough.
	$options   = get_option( 'polylang' );
	$model     = new PLL_Admin_Model( $options );
	$languages = array(
		array( 'name' => 'English', 'slug' => 'en', 'locale' => 'en_US', 'rtl' => 0, 'term_group' => 0, 'flag' => 'us' ),
		array( 'name' => 'Deutsch', 'slug' => 'de', 'locale' => 'de_DE', 'rtl' => 0, 'term_group' => 1, 'flag' => 'de' ),
		array( 'name' => 'Français', 'slug' => 'fr', 'locale' => 'fr_FR', 'rtl' => 0, 'term_group' => 2, 'flag' => 'fr' ),
	);
	foreach ( $languages as $args ) {
		$r = $model->add_language( $args );
		if ( is_wp_error( $r ) ) {
			fwrite( STDERR, $r->get_error_message() );
			exit( 1 );
		}
	}
	$options                 = get_option( 'polylang' );
	$options                 = array_merge( $options, $cfg['options'] );
	$options['post_types']   = array( 'event' );
	$options['default_lang'] = 'en';
	update_option( 'polylang', $options );
}

function pll_oracle_post( $title, $lang, $args = array() ) {
	$id = wp_insert_post(
		array_merge(
			array( 'post_title' => $title, 'post_status' => 'publish', 'post_content' => "<p>$title</p>", 'post_author' => 1 ),
			$args
		)
	);
	pll_set_post_language( $id, $lang );
	return $id;
}

function pll_oracle_term( $name, $slug, $lang, $parent = 0 ) {
	$r = wp_insert_term( $name, 'category', array( 'slug' => $slug, 'parent' => $parent ) );
	pll_set_term_language( $r['term_id'], $lang );
	return $r['term_id'];
}

/** Translated and untranslated posts, pages, categories and events; hidden rows too. */
function pll_oracle_content( $cfg ) {
	$news = array(
		'en' => pll_oracle_term( 'News', 'news', 'en' ),
		'de' => pll_oracle_term( 'Nachrichten', 'nachrichten', 'de' ),
		'fr' => pll_oracle_term( 'Actualités', 'actualites', 'fr' ),
	);
	pll_save_term_translations( $news );
	$world = array(
		'en' => pll_oracle_term( 'World', 'world', 'en', $news['en'] ),
		'de' => pll_oracle_term( 'Welt', 'welt', 'de', $news['de'] ),
	);
	pll_save_term_translations( $world );
	$day = 86400;
	$base = strtotime( '2026-11-20 10:00:00' );
	$posts = array();
	foreach ( array( 'en' => 'Hello languages', 'de' => 'Hallo Sprachen', 'fr' => 'Bonjour les langues' ) as $lang => $title ) {
		$posts[ $lang ] = pll_oracle_post( $title, $lang, array( 'post_date' => gmdate( 'Y-m-d H:i:s', $base ), 'post_category' => array( $world[ $lang ] ?? $news[ $lang ] ) ) );
	}
	pll_save_post_translations( $posts );
	$pair = array(
		'en' => pll_oracle_post( 'Only two', 'en', array( 'post_date' => gmdate( 'Y-m-d H:i:s', $base - $day ), 'post_category' => array( $news['en'] ) ) ),
		'fr' => pll_oracle_post( 'Seulement deux', 'fr', array( 'post_date' => gmdate( 'Y-m-d H:i:s', $base - $day ), 'post_category' => array( $news['fr'] ) ) ),
		'de' => pll_oracle_post( 'Entwurf', 'de', array( 'post_status' => 'draft', 'post_category' => array( $news['de'] ) ) ),
	);
	pll_save_post_translations( $pair );
	pll_oracle_post( 'English alone', 'en', array( 'post_date' => gmdate( 'Y-m-d H:i:s', $base - 2 * $day ), 'post_category' => array( $news['en'] ) ) );
	$private = array(
		'en' => pll_oracle_post( 'Public', 'en', array( 'post_date' => gmdate( 'Y-m-d H:i:s', $base - 3 * $day ), 'post_category' => array( $news['en'] ) ) ),
		'de' => pll_oracle_post( 'Privat', 'de', array( 'post_status' => 'private', 'post_category' => array( $news['de'] ) ) ),
	);
	pll_save_post_translations( $private );
	$about = array(
		'en' => pll_oracle_post( 'About', 'en', array( 'post_type' => 'page' ) ),
		'de' => pll_oracle_post( 'Über uns', 'de', array( 'post_type' => 'page' ) ),
		'fr' => pll_oracle_post( 'À propos', 'fr', array( 'post_type' => 'page' ) ),
	);
	pll_save_post_translations( $about );
	$team = array(
		'en' => pll_oracle_post( 'Team', 'en', array( 'post_type' => 'page', 'post_parent' => $about['en'] ) ),
		'de' => pll_oracle_post( 'Mannschaft', 'de', array( 'post_type' => 'page', 'post_parent' => $about['de'] ) ),
	);
	pll_save_post_translations( $team );
	$events = array(
		'en' => pll_oracle_post( 'Concert', 'en', array( 'post_type' => 'event' ) ),
		'de' => pll_oracle_post( 'Konzert', 'de', array( 'post_type' => 'event' ) ),
	);
	pll_save_post_translations( $events );
	if ( ! empty( $cfg['yoast'] ) ) {
		// An untranslated public type: Polylang gives its posts no language.
		wp_insert_post( array( 'post_title' => 'Soup', 'post_type' => 'recipe', 'post_status' => 'publish', 'post_content' => '<p>Soup</p>', 'post_author' => 1 ) );
	}
	if ( $cfg['front'] ) {
		$front = array(
			'en' => pll_oracle_post( 'Home', 'en', array( 'post_type' => 'page' ) ),
			'de' => pll_oracle_post( 'Startseite', 'de', array( 'post_type' => 'page' ) ),
			'fr' => pll_oracle_post( 'Accueil', 'fr', array( 'post_type' => 'page' ) ),
		);
		pll_save_post_translations( $front );
		$blog = array(
			'en' => pll_oracle_post( 'Blog', 'en', array( 'post_type' => 'page' ) ),
			'de' => pll_oracle_post( 'Beiträge', 'de', array( 'post_type' => 'page' ) ),
		);
		pll_save_post_translations( $blog );
		update_option( 'show_on_front', 'page' );
		update_option( 'page_on_front', $front['en'] );
		update_option( 'page_for_posts', $blog['en'] );
	}
	// The default category and Hello world / Sample Page get the default language, as
	// Polylang's "set all content to the default language" does.
	pll_set_term_language( (int) get_option( 'default_category' ), 'en' );
	foreach ( get_posts( array( 'post_type' => array( 'post', 'page' ), 'post_status' => 'any', 'numberposts' => -1, 'lang' => '' ) ) as $p ) {
		if ( ! pll_get_post_language( $p->ID ) ) {
			pll_set_post_language( $p->ID, 'en' );
		}
	}
	clean_term_cache( array_values( $news ), 'category' );
}

/** Every published object with its language, translation group and URL. */
function pll_oracle_truth( $cfg ) {
	$out = array(
		'home'      => home_url(),
		'polylang'  => get_option( 'polylang' ),
		'languages' => array(),
		'posts'     => array(),
		'terms'     => array(),
		'authors'   => array(),
	);
	foreach ( PLL()->model->get_languages_list() as $lang ) {
		$out['languages'][] = array( 'slug' => $lang->slug, 'locale' => $lang->locale, 'home_url' => $lang->get_home_url(), 'page_on_front' => $lang->page_on_front, 'page_for_posts' => $lang->page_for_posts );
	}
	$posts = get_posts( array( 'post_type' => array( 'post', 'page', 'event', 'recipe' ), 'post_status' => 'any', 'numberposts' => -1, 'lang' => '', 'orderby' => 'ID', 'order' => 'ASC' ) );
	foreach ( $posts as $p ) {
		$out['posts'][] = array(
			'id'           => $p->ID,
			'post_type'    => $p->post_type,
			'status'       => $p->post_status,
			'lang'         => pll_get_post_language( $p->ID ),
			'translations' => pll_get_post_translations( $p->ID ),
			'loc'          => get_permalink( $p ),
		);
	}
	foreach ( get_terms( array( 'taxonomy' => 'category', 'hide_empty' => false, 'lang' => '' ) ) as $t ) {
		$out['terms'][] = array( 'id' => $t->term_id, 'slug' => $t->slug, 'count' => $t->count, 'lang' => pll_get_term_language( $t->term_id ), 'translations' => pll_get_term_translations( $t->term_id ), 'loc' => get_term_link( $t ) );
	}
	$out['event_archive'] = get_post_type_archive_link( 'event' );
	$out['author']        = get_author_posts_url( 1 );
	return $out;
}
