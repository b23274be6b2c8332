#!/usr/bin/env bash
# `npm test`: makes this machine ready (scripts/bootstrap.sh), then type-checks the workspace while the
# suite runs (scripts/run-tests.sh), and prints how long each part took. With arguments (`npm test --
# packages/flows`) it runs only the test files they name, without the type checks: the developer's loop.
set -uo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
start=$(date +%s)
bash scripts/bootstrap.sh || exit 1
ready=$(date +%s)
typecheck=
if [ $# -eq 0 ]; then
  mkdir -p .data/logs
  ( nice -n 5 npm run --silent typecheck > .data/logs/typecheck.log 2>&1; rc=$?; echo "$(date +%s)" > .data/logs/typecheck.end; exit $rc ) &
  typecheck=$!
fi
bash scripts/run-tests.sh "$@"
rc=$?
checks=
if [ -n "$typecheck" ]; then
  if wait "$typecheck"; then
    echo "type checks: passed"
  else
    cat .data/logs/typecheck.log; echo "type checks: FAILED (above; .data/logs/typecheck.log)"; rc=1
  fi
  checks=" (type checks alongside: $(( $(cat .data/logs/typecheck.end) - ready ))s)"
fi
done=$(date +%s)
printf 'time: %ss bootstrap (dependencies, Chromium, PostgreSQL, Redis); %ss test time%s; %ss in all\n' \
  $((ready - start)) $((done - ready)) "$checks" $((done - start))
node scripts/test-times.cjs --summary .data/logs/jest/*.times
exit $rc
