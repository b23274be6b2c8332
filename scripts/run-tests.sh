#!/usr/bin/env bash
# Runs the jest suite, or the part the arguments name (paths or patterns, and any jest flags):
#   bash scripts/run-tests.sh                          every test
#   bash scripts/run-tests.sh packages/flows           one package
#   bash scripts/run-tests.sh apps/gateway/test/login.test.ts -t "cached"
# The two jest projects run side by side in two processes: most of their time is spent waiting on pages
# (network quiet, a site's answer), so two files in flight roughly halve the wall time on two cores.
# Within a project files run one at a time: the e2e files share one stack (one worker, whose browser a test
# kills), and that must stay serial. A project none of whose files match is not started (nor its stack).
# Ends with each file's run time, slowest first.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=.data/logs/jest
mkdir -p "$logs"
rm -f "$logs"/*.times

projects=(unit e2e)
if [ $# -gt 0 ]; then
  projects=()
  for p in unit e2e; do
    if [ "$(npx jest --listTests --json "$@" --selectProjects "$p" 2>/dev/null)" != "[]" ]; then projects+=("$p"); fi
  done
  if [ ${#projects[@]} -eq 0 ]; then echo "no test file matches: $*" >&2; exit 1; fi
fi

pids=()
for p in "${projects[@]}"; do
  TEST_TIMES_FILE="$logs/$p.times" npx jest --ci "$@" --selectProjects "$p" > "$logs/$p.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  # Progress as each file finishes, prefixed by its project (tail ends once its jest has exited and it has printed the rest).
  tail -q -n +1 -F --pid="$pid" "$logs/$p.log" 2>/dev/null | sed -u "s/^/$(printf '[%-4s] ' "$p")/" &
done
status=()
rc=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"; r=$?
  status+=("${projects[$i]}: exit $r")
  [ "$r" -eq 0 ] || rc=1
done
wait
node scripts/test-times.cjs "$logs"/*.times
echo "$(IFS=';'; echo "${status[*]}") (full output in $logs/)"
exit $rc
