#!/usr/bin/env bash
# Playwright drives Debian's Chromium; it never downloads a browser of its own.
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium_path" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[innera] Chromium is missing: installing Debian's chromium with apt-get…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
cat >&2 <<MSG
[innera] The end-to-end tests need Chromium at $chromium_path and it is not there.
Install it with:   sudo apt-get install -y chromium      (Debian/Ubuntu)
or point CHROMIUM_PATH at an installed Chromium or Chrome.
MSG
exit 1
