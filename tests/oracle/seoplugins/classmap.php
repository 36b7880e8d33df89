<?php
/**
 * Write DIR/vendor/autoload.php: a classmap autoloader over DIR's given folders, what
 * composer's `autoload.classmap` produces for a plugin's release zip (the GitHub source of
 * Yoast SEO leaves vendor/ out).
 *
 *     php classmap.php PLUGIN_DIR FOLDER [FOLDER ...]
 */

if ( $argc < 3 ) {
	fwrite( STDERR, "usage: php classmap.php PLUGIN_DIR FOLDER [FOLDER ...]\n" );
	exit( 2 );
}
$root = rtrim( $argv[1], '/' );
$map  = array();
foreach ( array_slice( $argv, 2 ) as $folder ) {
	$it = new RecursiveIteratorIterator( new RecursiveDirectoryIterator( "$root/$folder", FilesystemIterator::SKIP_DOTS ) );
	foreach ( $it as $file ) {
		if ( substr( $file->getFilename(), -4 ) !== '.php' ) {
			continue;
		}
		foreach ( classmap_declared( (string) file_get_contents( $file->getPathname() ) ) as $class ) {
			$map[ strtolower( $class ) ] = substr( $file->getPathname(), strlen( $root ) + 1 );
		}
	}
}
ksort( $map );

/** Names of the classes, interfaces, traits and enums a PHP file declares. */
function classmap_declared( $code ) {
	$tokens    = token_get_all( $code );
	$namespace = '';
	$out       = array();
	$count     = count( $tokens );
	for ( $i = 0; $i < $count; $i++ ) {
		if ( ! is_array( $tokens[ $i ] ) ) {
			continue;
		}
		if ( T_NAMESPACE === $tokens[ $i ][0] ) {
			$namespace = '';
			for ( $j = $i + 1; $j < $count && ! in_array( $tokens[ $j ], array( ';', '{' ), true ); $j++ ) {
				if ( is_array( $tokens[ $j ] ) && in_array( $tokens[ $j ][0], array( T_STRING, T_NAME_QUALIFIED ), true ) ) {
					$namespace .= $tokens[ $j ][1];
				}
			}
			$namespace = $namespace ? $namespace . '\\' : '';
			continue;
		}
		if ( ! in_array( $tokens[ $i ][0], array( T_CLASS, T_INTERFACE, T_TRAIT, T_ENUM ), true ) ) {
			continue;
		}
		// `::class`, `new class` are not declarations.
		for ( $k = $i - 1; $k >= 0 && is_array( $tokens[ $k ] ) && T_WHITESPACE === $tokens[ $k ][0]; $k-- ) {
		}
		if ( $k >= 0 && ( ( is_array( $tokens[ $k ] ) && in_array( $tokens[ $k ][0], array( T_DOUBLE_COLON, T_NEW ), true ) ) ) ) {
			continue;
		}
		for ( $j = $i + 1; $j < $count && is_array( $tokens[ $j ] ) && T_WHITESPACE === $tokens[ $j ][0]; $j++ ) {
		}
		if ( $j < $count && is_array( $tokens[ $j ] ) && T_STRING === $tokens[ $j ][0] ) {
			$out[] = $namespace . $tokens[ $j ][1];
		}
	}
	return $out;
}

@mkdir( "$root/vendor", 0777, true );
$php  = "<?php\n// Written by tests/oracle/seoplugins/classmap.php: a classmap autoloader.\n";
$php .= '$wpsm_classmap = ' . var_export( $map, true ) . ";\n";
$php .= <<<'PHP'
$wpsm_loader = new class( $wpsm_classmap ) {
	private $map;
	public function __construct( $map ) { $this->map = $map; $this->register(); }
	public function load( $class ) {
		$key = strtolower( ltrim( $class, '\\' ) );
		if ( isset( $this->map[ $key ] ) ) { require __DIR__ . '/../' . $this->map[ $key ]; }
	}
	public function register( $prepend = false ) { spl_autoload_register( array( $this, 'load' ), true, $prepend ); }
	public function unregister() { spl_autoload_unregister( array( $this, 'load' ) ); }
};
return $wpsm_loader;

PHP;
file_put_contents( "$root/vendor/autoload.php", $php );
echo count( $map ) . " classes\n";
