<?php
// Installs WordPress into the database named by wp-config.php (once), then makes sure the
// administrator, its application password, pretty permalinks and the settings the tests
// rely on exist. Prints the state as JSON. Run by scripts/wordpress/up.sh with php-cli.
$root = $argv[1];
$url = $argv[2];
$statePath = $argv[3];
$_SERVER['HTTP_HOST'] = parse_url($url, PHP_URL_HOST) . ':' . parse_url($url, PHP_URL_PORT);
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
define('WP_INSTALLING', true);
require $root . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-includes/class-wp-application-passwords.php';

$state = file_exists($statePath) ? json_decode(file_get_contents($statePath), true) : [];
// There is no mail here: the "new site" e-mail is skipped, not failed.
add_filter('pre_wp_mail', '__return_false');
if (!is_blog_installed()) {
    $password = wp_generate_password(24, false);
    wp_install('Site Optimization Test Garden', 'admin', 'admin@example.org', true, '', $password);
    $state = ['admin_password' => $password];
}
update_option('permalink_structure', '/%postname%/');
// Visible to search engines: otherwise robots.txt disallows everything and every page is noindex.
update_option('blog_public', '1');
// Twenty Twenty-One (Debian's wordpress-theme-twentytwentyone): a classic theme printing
// "<title>Post – Site</title>" and the post title as the page's h1, as most sites do.
if (get_option('stylesheet') !== 'twentytwentyone') {
    switch_theme('twentytwentyone');
}
update_option('blogdescription', 'A WordPress site for the connector round trip');
$user = get_user_by('login', 'admin');

// One application password named "site-optimization"; a new one when the stored one is gone.
$valid = false;
if (!empty($state['application_password']) && !empty($state['application_password_uuid'])) {
    $valid = (bool) WP_Application_Passwords::get_user_application_password($user->ID, $state['application_password_uuid']);
}
if (!$valid) {
    foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
        if ($item['name'] === 'site-optimization') {
            WP_Application_Passwords::delete_application_password($user->ID, $item['uuid']);
        }
    }
    [$password, $item] = WP_Application_Passwords::create_new_application_password($user->ID, ['name' => 'site-optimization']);
    $state['application_password'] = WP_Application_Passwords::chunk_password($password);
    $state['application_password_uuid'] = $item['uuid'];
}
$state['url'] = $url;
$state['username'] = 'admin';
$state['wordpress_version'] = get_bloginfo('version');
file_put_contents($statePath, json_encode($state, JSON_PRETTY_PRINT));
echo json_encode(['url' => $url, 'username' => 'admin', 'wordpress_version' => $state['wordpress_version']]), "\n";
