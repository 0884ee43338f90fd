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
# The type check on one core, lint then the build on the other: each single-threaded, side by side.
# Their output is printed when both are done, one after the other; any failure fails the step.
step 'type check | lint, then build'
logs=$(mktemp -d)
(start=$SECONDS; rc=0; npx tsc > "$logs/tsc" 2>&1 || rc=$?; echo "type check: $((SECONDS - start)) s" >> "$logs/tsc"; exit $rc) & tsc_pid=$!
(start=$SECONDS; npx eslint . --max-warnings=0 > "$logs/lint" 2>&1 || exit 1; echo "lint: $((SECONDS - start)) s" >> "$logs/lint"
 start=$SECONDS; npm run build --silent > "$logs/build" 2>&1 || exit 2; echo "build: $((SECONDS - start)) s" >> "$logs/build") & lint_pid=$!
tsc_rc=0; wait "$tsc_pid" || tsc_rc=$?
lint_rc=0; wait "$lint_pid" || lint_rc=$?
cat "$logs/tsc" "$logs/lint" "$logs/build" 2>/dev/null || true
rm -rf "$logs"
if [ "$tsc_rc" -ne 0 ] || [ "$lint_rc" -ne 0 ]; then exit 1; fi
touch build/.stamp
# The provider's database tests also run on this machine's PostgreSQL when it answers (else they skip).
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
# Vitest once, on the image's Node (decision 0050); the browser suites below run the app on this
# machine's. The container step runs beside it: much of its time is Podman writing layers and the
# container starting, when the cores have room for Vitest (decision 0070). Its output is printed
# when both are done; either failing fails the step. It ends before the e2e step, whose Chromium
# check may use apt-get as the container step's may.
step 'Node 24, as in the image: start check, then the unit, integration and provider tests | beside it, the container'
container_log=$(mktemp)
(start=$SECONDS; rc=0; { node scripts/check-dockerfile.mjs && node scripts/container.mjs; } > "$container_log" 2>&1 || rc=$?
 echo "container step (build context, then the image built and run by Podman): $((SECONDS - start)) s" >> "$container_log"; exit $rc) & container_pid=$!
node24_rc=0; node scripts/node24.mjs || node24_rc=$?
container_rc=0; wait "$container_pid" || container_rc=$?
printf '\n\033[1m▶ container: build context, then the image built and run by Podman (ran beside the Node 24 step)\033[0m\n'
cat "$container_log"; rm -f "$container_log"
if [ "$node24_rc" -ne 0 ] || [ "$container_rc" -ne 0 ]; then exit 1; fi
step 'end-to-end (Chromium)'; bash scripts/ensure-chromium.sh && npx playwright test
step 'scale-out (2 providers + 2 apps on PostgreSQL and Redis)'; node scripts/scale-out.mjs
step 'fault and security suite (Chromium)'; npx playwright test -c playwright.faults.config.ts
