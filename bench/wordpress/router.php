<?php
/*
 * Router for `php -S`: WordPress core (Debian's /usr/share/wordpress) on a benchmark database,
 * offline. It plays wp-config.php + wp-blog-header.php, so /etc/wordpress is left alone.
 *
 *   WPSM_DB=wpsm_bench_100k WPSM_HOME=http://127.0.0.1:8766 \
 *       php -S 127.0.0.1:8766 bench/wordpress/router.php
 */
define('ABSPATH', (getenv('WPSM_WP_DIR') ?: '/usr/share/wordpress') . '/');
define('DB_NAME', getenv('WPSM_DB') ?: 'wpsm_bench_100k');
define('DB_USER', getenv('WPSM_DB_USER') ?: 'root');
define('DB_PASSWORD', getenv('WPSM_DB_PASSWORD') ?: '');
define('DB_HOST', getenv('WPSM_DB_HOST') ?: '127.0.0.1');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_CONTENT_DIR', ABSPATH . 'wp-content');
// URLs from the php -S address, so WordPress never redirects to the app's port.
define('WP_HOME', getenv('WPSM_HOME') ?: 'http://127.0.0.1:8766');
define('WP_SITEURL', WP_HOME);
// Offline and read-mostly: no cron spawn, no HTTP calls, no updates.
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_AUTO_UPDATE_CORE', false);
define('WP_DEBUG', false);
define('WP_CACHE', false);
define('WP_USE_THEMES', true);
$table_prefix = getenv('WPSM_TABLE_PREFIX') ?: 'wp_';

require_once ABSPATH . 'wp-settings.php';
wp();
require_once ABSPATH . WPINC . '/template-loader.php';
