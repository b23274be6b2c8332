#!/usr/bin/env bash
# `npm test`: makes this machine ready (scripts/bootstrap.sh), type-checks the workspace and runs the
# suite (scripts/run-tests.sh); then prints how long each part took. With arguments (`npm test --
# packages/flows`) it runs only the test files they name, without the type checks: the developer's loop.
set -uo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
start=$(date +%s)
bash scripts/bootstrap.sh || exit 1
ready=$(date +%s)
if [ $# -eq 0 ]; then
  npx turbo run typecheck --output-logs=errors-only || exit 1
fi
checked=$(date +%s)
bash scripts/run-tests.sh "$@"
rc=$?
done=$(date +%s)
printf 'time: %ss bootstrap (dependencies, Chromium, PostgreSQL, Redis); %ss test time (%ss type checks, %ss tests); %ss in all\n' \
  $((ready - start)) $((done - ready)) $((checked - ready)) $((done - checked)) $((done - start))
exit $rc
