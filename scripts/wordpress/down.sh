#!/usr/bin/env bash
# npm run wordpress:down — stops the WordPress started by wordpress:up. With --purge it also
# drops its database and removes .wordpress/, so the next wordpress:up starts from nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR="$PWD/.wordpress"
if [ -f "$DIR/server.pid" ]; then
  pkill -P "$(cat "$DIR/server.pid")" 2>/dev/null || true # PHP_CLI_SERVER_WORKERS children
  kill "$(cat "$DIR/server.pid")" 2>/dev/null || true
  rm -f "$DIR/server.pid"
  echo "wordpress:down: stopped"
fi
if [ "${1:-}" = "--purge" ]; then
  mariadb --protocol=tcp -h 127.0.0.1 -u root -e "DROP DATABASE IF EXISTS \`${WORDPRESS_DB:-sos_wordpress}\`" || true
  rm -rf "$DIR"
  echo "wordpress:down: purged the database and .wordpress/"
fi
