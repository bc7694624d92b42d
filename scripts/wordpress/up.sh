#!/usr/bin/env bash
# npm run wordpress:up — a real WordPress (Debian's package) on PHP's built-in server at
# http://127.0.0.1:${WORDPRESS_PORT:-8089}, on the local MariaDB, from nothing and
# idempotent: packages, database, wp-config, install, administrator, application
# password, the SEO-field mu-plugin. Its state (URL, user, application password) is
# written to .wordpress/state.json for the tests and for trying the connector by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${WORDPRESS_PORT:-8089}"
URL="http://127.0.0.1:${PORT}"
DIR="$PWD/.wordpress"
SITE="$DIR/site"
DB_NAME="${WORDPRESS_DB:-sos_wordpress}"
DB_USER=sos_wordpress
DB_PASSWORD=sos_wordpress
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

log() { echo "wordpress:up: $*"; }

PACKAGES="wordpress wordpress-theme-twentytwentyone php-cli php-mysql php-xml"
if [ ! -f /usr/share/wordpress/wp-content/themes/twentytwentyone/style.css ] || ! command -v php >/dev/null || ! php -m | grep -qi mysqli || ! php -m | grep -qi simplexml; then
  log "installing Debian's ${PACKAGES}"
  INSTALLED=1
  # Keep the packages' services (apache2) from starting: PHP's built-in server serves the site.
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -q --no-install-recommends $PACKAGES >/dev/null \
    || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q --no-install-recommends $PACKAGES >/dev/null; }
fi

if ! mariadb-admin --protocol=tcp -h 127.0.0.1 -u root ping >/dev/null 2>&1; then
  log "starting MariaDB"
  $SUDO start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  for _ in $(seq 1 30); do mariadb-admin --protocol=tcp -h 127.0.0.1 -u root ping >/dev/null 2>&1 && break; sleep 1; done
fi
mariadb --protocol=tcp -h 127.0.0.1 -u root <<SQL
CREATE DATABASE IF NOT EXISTS \`${DB_NAME}\`;
CREATE USER IF NOT EXISTS '${DB_USER}'@'%' IDENTIFIED BY '${DB_PASSWORD}';
CREATE USER IF NOT EXISTS '${DB_USER}'@'localhost' IDENTIFIED BY '${DB_PASSWORD}';
GRANT ALL PRIVILEGES ON \`${DB_NAME}\`.* TO '${DB_USER}'@'%';
GRANT ALL PRIVILEGES ON \`${DB_NAME}\`.* TO '${DB_USER}'@'localhost';
SQL

if [ ! -f "$SITE/wp-load.php" ]; then
  log "copying WordPress $(dpkg-query -W -f='${Version}' wordpress) into $SITE"
  mkdir -p "$DIR"
  rm -rf "$SITE"
  cp -a /usr/share/wordpress "$SITE"
  # Debian's wp-config.php reads /etc/wordpress/config-<host>.php: this copy has its own.
  rm -f "$SITE/wp-config.php" "$SITE/.htaccess"
  mkdir -p "$SITE/wp-content/uploads"
fi
mkdir -p "$SITE/wp-content/mu-plugins"
cp scripts/wordpress/seo-meta.php "$SITE/wp-content/mu-plugins/sos-seo-meta.php"

if [ ! -f "$SITE/wp-config.php" ] || ! grep -q "127.0.0.1:${PORT}'" "$SITE/wp-config.php"; then
  salts=$(php -r 'foreach (["AUTH_KEY","SECURE_AUTH_KEY","LOGGED_IN_KEY","NONCE_KEY","AUTH_SALT","SECURE_AUTH_SALT","LOGGED_IN_SALT","NONCE_SALT"] as $k) echo "define(\"$k\", \"" . bin2hex(random_bytes(32)) . "\");\n";')
  cat > "$SITE/wp-config.php" <<PHP
<?php
define('DB_NAME', '${DB_NAME}');
define('DB_USER', '${DB_USER}');
define('DB_PASSWORD', '${DB_PASSWORD}');
define('DB_HOST', '127.0.0.1:3306');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
\$table_prefix = 'wp_';
${salts}
define('WP_HOME', '${URL}');
define('WP_SITEURL', '${URL}');
// Application passwords over plain HTTP are allowed for the 'local' environment type only.
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_CONTENT_DIR', __DIR__ . '/wp-content');
define('WP_CONTENT_URL', '${URL}/wp-content');
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
// No internet here: WordPress must not wait on api.wordpress.org.
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
PHP
fi

php scripts/wordpress/setup.php "$SITE" "$URL" "$DIR/state.json" >/dev/null

if [ -n "${INSTALLED:-}" ] && [ -f "$DIR/server.pid" ]; then
  log "restarting the server to load the new PHP extensions"
  bash scripts/wordpress/down.sh >/dev/null
fi
if [ -f "$DIR/server.pid" ] && kill -0 "$(cat "$DIR/server.pid")" 2>/dev/null; then
  log "already serving ${URL}"
else
  # Several PHP workers, so a crawler's concurrent requests do not queue behind one another.
  PHP_CLI_SERVER_WORKERS=4 nohup php -S "127.0.0.1:${PORT}" -t "$SITE" scripts/wordpress/router.php >"$DIR/server.log" 2>&1 &
  echo $! >"$DIR/server.pid"
fi
for _ in $(seq 1 50); do
  curl -fs -o /dev/null "${URL}/wp-json/" 2>/dev/null && break
  sleep 0.2
done
curl -fsS -o /dev/null "${URL}/wp-json/" || { log "WordPress did not answer at ${URL}; see $DIR/server.log"; exit 1; }
log "WordPress $(php -r "echo json_decode(file_get_contents('$DIR/state.json'))->wordpress_version;") at ${URL} (user admin; application password in .wordpress/state.json)"
