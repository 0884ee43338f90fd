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
# For the parts that run side by side: a command's output into a file, then how long it took;
# returns the command's status.
timed_into() { local log=$1 label=$2 start=$SECONDS rc=0; shift 2; "$@" > "$log" 2>&1 || rc=$?; echo "$label: $((SECONDS - start)) s" >> "$log"; return $rc; }
# The type check on one core, lint then the build on the other: each single-threaded, side by side.
# Their output is printed when both are done, one after the other; any failure fails the step.
step 'type check | lint, then build'
logs=$(mktemp -d)
timed_into "$logs/tsc" 'type check' npx tsc & tsc_pid=$!
(timed_into "$logs/lint" lint npx eslint . --max-warnings=0 && timed_into "$logs/build" build npm run build --silent) & lint_pid=$!
tsc_rc=0; wait "$tsc_pid" || tsc_rc=$?
lint_rc=0; wait "$lint_pid" || lint_rc=$?
cat "$logs/tsc" "$logs/lint" "$logs/build" 2>/dev/null || true
rm -rf "$logs"
if [ "$tsc_rc" -ne 0 ] || [ "$lint_rc" -ne 0 ]; then exit 1; fi
touch build/.stamp
# The provider's database tests also run on this machine's PostgreSQL when it answers (else they skip).
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
# Vitest once, on the image's Node (decision 0050); the browser suites below run the app on this
# machine's. The container step runs beside it, then the compose deployment on the image it built:
# much of their time is Podman writing layers, containers starting and the deployment's checks
# waiting, when the cores have room for Vitest (decisions 0070, 0092). Their output is printed
# when all are done; any failing fails the step. They end before the e2e step, whose Chromium
# check may use apt-get as theirs may.
step 'Node 24, as in the image: start check, then the unit, integration and provider tests | beside it, the container, then the compose deployment'
container_log=$(mktemp); compose_log=$(mktemp)
container_step() { node scripts/check-dockerfile.mjs && node scripts/container.mjs; }
(timed_into "$container_log" 'container step' container_step && timed_into "$compose_log" 'compose step' node scripts/compose.mjs) & container_pid=$!
node24_rc=0; node scripts/node24.mjs || node24_rc=$?
container_rc=0; wait "$container_pid" || container_rc=$?
printf '\n\033[1m▶ container: build context, then the image built and run by Podman (ran beside the Node 24 step)\033[0m\n'
cat "$container_log"
printf '\n\033[1m▶ compose: compose.yaml with 2 providers, 2 apps, HAProxy and Prometheus on the image (ran beside the Node 24 step)\033[0m\n'
cat "$compose_log"; rm -f "$container_log" "$compose_log"
if [ "$node24_rc" -ne 0 ] || [ "$container_rc" -ne 0 ]; then exit 1; fi
step 'end-to-end (Chromium)'; bash scripts/ensure-chromium.sh && npx playwright test
step 'scale-out (2 providers + 2 apps on PostgreSQL and Redis)'; node scripts/scale-out.mjs
step 'fault and security suite (Chromium)'; npx playwright test -c playwright.faults.config.ts
