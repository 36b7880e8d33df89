<?php
/**
 * One variant per active SEO plugin: its host, its plugin file and its sitemap index path.
 * `plugin` names the active plugin's marker set (seo_oracle_marks() in content.php); every
 * other plugin's markers are written as leftovers of a plugin that no longer runs.
 */

const SEO_VARIANTS = array(
	'yoast-leftovers' => array(
		'home'      => 'http://yoast.example.test',
		'structure' => '/%postname%/',
		'plugin'    => 'yoast',
		'file'      => 'wordpress-seo/wp-seo.php',
		'index'     => '/sitemap_index.xml',
	),
	'aioseo4'         => array(
		'home'      => 'http://aioseo.example.test',
		'structure' => '/%year%/%monthnum%/%postname%/',
		'plugin'    => 'aioseo',
		'file'      => 'all-in-one-seo-pack/all_in_one_seo_pack.php',
		'index'     => '/sitemap.xml',
	),
	'rankmath'        => array(
		'home'      => 'http://rankmath.example.test',
		'structure' => '/%postname%/',
		'plugin'    => 'rankmath',
		'file'      => 'seo-by-rank-math/rank-math.php',
		'index'     => '/sitemap_index.xml',
	),
	'seopress'        => array(
		'home'      => 'http://seopress.example.test',
		'structure' => '/%postname%/',
		'plugin'    => 'seopress',
		'file'      => 'wp-seopress/seopress.php',
		'index'     => '/sitemaps.xml',
	),
	'tsf'             => array(
		'home'      => 'http://tsf.example.test',
		'structure' => '/%postname%/',
		'plugin'    => 'tsf',
		'file'      => 'autodescription/autodescription.php',
		'index'     => '/sitemap.xml',
	),
);
