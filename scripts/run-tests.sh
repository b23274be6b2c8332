#!/usr/bin/env bash
# The whole test suite, as `npm test` runs it. The two jest projects run side by side in two processes:
# most of their time is spent waiting on pages (network quiet, a site's answer), so two files in flight
# roughly halve the wall time on two cores. Within a project files still run one at a time: the e2e
# files share one stack (one worker, whose browser a test kills), and that must stay serial.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=.data/logs/jest
mkdir -p "$logs"
npx jest --ci "$@" --selectProjects unit > "$logs/unit.log" 2>&1 &
unit=$!
npx jest --ci "$@" --selectProjects e2e > "$logs/e2e.log" 2>&1 &
e2e=$!
# Progress as each file finishes, prefixed by its project.
# (tail ends once its jest process has exited and it has printed the rest.)
tail -q -n +1 -F --pid="$unit" "$logs/unit.log" 2>/dev/null | sed -u 's/^/[unit] /' &
tail -q -n +1 -F --pid="$e2e" "$logs/e2e.log" 2>/dev/null | sed -u 's/^/[e2e]  /' &
wait "$unit"; unit_rc=$?
wait "$e2e"; e2e_rc=$?
wait
echo "unit: exit $unit_rc; e2e: exit $e2e_rc (full output in $logs/)"
[ "$unit_rc" -eq 0 ] && [ "$e2e_rc" -eq 0 ]
