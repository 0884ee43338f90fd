#!/usr/bin/env bash
# Playwright drives Debian's Chromium; it never downloads a browser of its own. The suites prefer
# Debian's chromium-headless-shell (scripts/lib/chromium.mjs, decision 0069) and fall back to the
# full chromium; CHROMIUM_PATH, when set, names the browser to use instead. With --full (npm run
# bench: Lighthouse and the first-load measurement drive the full browser) the full chromium.
set -euo pipefail
full=false
[ "${1:-}" = "--full" ] && full=true
install_packages() {
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "[innera] installing Debian's $* with apt-get…"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "$@" >/dev/null
    return
  fi
  return 1
}
if [ -n "${CHROMIUM_PATH:-}" ]; then
  [ -x "$CHROMIUM_PATH" ] && exit 0
  echo "[innera] CHROMIUM_PATH=$CHROMIUM_PATH is not an executable browser." >&2
  exit 1
fi
if $full; then
  [ -x /usr/bin/chromium ] && exit 0
  install_packages chromium && exit 0
  cat >&2 <<MSG
[innera] The benchmarks need Debian's full Chromium (/usr/bin/chromium) and it is not there.
Install it with:   sudo apt-get install -y chromium      (Debian/Ubuntu)
or point CHROMIUM_PATH at an installed Chromium or Chrome.
MSG
  exit 1
fi
[ -x /usr/bin/chromium-headless-shell ] && exit 0
install_packages chromium-headless-shell && exit 0
[ -x /usr/bin/chromium ] && exit 0
cat >&2 <<MSG
[innera] The end-to-end tests need Chromium and it is not there.
Install it with:   sudo apt-get install -y chromium-headless-shell      (Debian/Ubuntu)
or point CHROMIUM_PATH at an installed Chromium or Chrome.
MSG
exit 1
