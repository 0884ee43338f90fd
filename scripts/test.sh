#!/usr/bin/env bash
# `npm test`: everything, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's duration, printed at the end (also when a step fails), so a slow one shows.
started=$SECONDS; current=''; durations=()
finish_step() {
  if [ -n "$current" ]; then durations+=("$(printf '%5ss  %s' "$((SECONDS - step_started))" "$current")"); fi
  current=''
}
summary() {
  local status=$?
  finish_step
  printf '\n\033[1mnpm test: %s in %ss\033[0m\n' "$([ "$status" -eq 0 ] && echo passed || echo FAILED)" "$((SECONDS - started))"
  printf '%s\n' "${durations[@]}"
}
trap summary EXIT
step() { finish_step; current=$1; step_started=$SECONDS; printf '\n\033[1m▶ %s\033[0m\n' "$1"; }
step 'type check';           npx tsc
step 'lint';                 npx eslint . --max-warnings=0
# The provider's database tests also run on this machine's PostgreSQL when it answers (else they skip).
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
step 'build';                npm run build --silent
touch build/.stamp
# Once, on the image's Node (decision 0050); the browser suites below run the app on this machine's.
step 'Node 24, as in the image: start check, then the unit, integration and provider tests'; node scripts/node24.mjs
step 'container build check'; bash scripts/check-dockerfile.sh
step 'end-to-end (Chromium)'; bash scripts/ensure-chromium.sh && npx playwright test
step 'scale-out (2 providers + 2 apps on PostgreSQL and Redis)'; node scripts/scale-out.mjs
step 'fault and security suite (Chromium)'; npx playwright test -c playwright.faults.config.ts
