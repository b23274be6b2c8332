#!/usr/bin/env bash
# Runs the jest suite, or the part the arguments name (paths or patterns, and any jest flags):
#   bash scripts/run-tests.sh                          every test
#   bash scripts/run-tests.sh packages/flows           one package
#   bash scripts/run-tests.sh apps/gateway/test/login.test.ts -t "cached"
# Most of the suite's time is spent waiting on pages (network quiet, a site's answer), so it runs as several
# jest processes side by side, each with its output in .data/logs/jest/<name>.log and its lines prefixed:
#   integration  tests next to the code, against real Postgres, Redis and Chromium, INTEGRATION_WORKERS files at
#            a time (default 2: the engine matrix takes half the run on one);
#   e2e1..n  the end-to-end files, split into E2E_SHARDS balanced shards (default 2; scripts/jest-sequencer.cjs),
#            each against a stack (gateway, worker, Chromium, fixture sites, database) of its own; within a
#            shard files run one at a time, as they share its stack (one worker, whose browser a test kills);
#   stacks   end-to-end files that start stacks of their own (fault tests), one at a time.
# A project none of whose files match is not started (nor its stack); named files run in one e2e process.
# Ends with each file's run time, slowest first.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=.data/logs/jest
mkdir -p "$logs"
rm -f "$logs"/*.times "$logs"/*.log

matches() { [ "$(npx jest --listTests --json "$@" 2>/dev/null)" != "[]" ]; }

names=() commands=()
add() { names+=("$1"); shift; commands+=("$*"); }
# Two shards, not three: the suite keeps both cores busy, and a third stack (its services, its Chromium, logins
# waiting for the CPU beside more others) cost more than it saved. Fresh-clone runs on one 2-core machine
# (2026-12-03): 3 shards 941-993 s and 1785-1820 busy core-seconds, 2 shards 921 s and 1753.
shards=${E2E_SHARDS:-2}
if [ $# -gt 0 ]; then shards=1; fi
if [ $# -eq 0 ] || matches "$@" --selectProjects integration; then
  add integration --selectProjects integration --maxWorkers="${INTEGRATION_WORKERS:-2}"
fi
if [ $# -eq 0 ] || matches "$@" --selectProjects e2e; then
  for i in $(seq 1 "$shards"); do add "e2e$i" --selectProjects e2e --shard="$i/$shards" --passWithNoTests; done
fi
if [ $# -eq 0 ] || matches "$@" --selectProjects stacks; then add stacks --selectProjects stacks; fi
if [ ${#names[@]} -eq 0 ]; then echo "no test file matches: $*" >&2; exit 1; fi

# Each jest process is a session of its own (setsid). Where processes are not in CPU cgroups of their own (a
# plain machine, a VM, most desktops), Linux shares the CPU between sessions ("autogroups"), not processes,
# and every Chromium that Puppeteer starts is a session of its own. With the whole suite in one session, each
# browser got as much CPU as every jest process, gateway and worker together, and on a loaded machine those
# starved (a gateway took 10 s to answer a 202). One session per jest process shares the CPU by shard.
# Ctrl-C or a kill of this script stops each session whole (jest, its workers and the stacks it started).
pids=()
stop_all() {
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null; done
  exit 130
}
trap stop_all INT TERM
for i in "${!names[@]}"; do
  name=${names[$i]}
  # shellcheck disable=SC2086 # the command's words are jest flags without spaces
  E2E_SHARD=${name#e2e} TEST_TIMES_FILE="$logs/$name.times" setsid -w npx jest --ci "$@" ${commands[$i]} > "$logs/$name.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  # Progress as each file finishes (tail ends once its jest has exited and it has printed the rest).
  tail -q -n +1 -F --pid="$pid" "$logs/$name.log" 2>/dev/null | sed -u "s/^/$(printf '[%-11s] ' "$name")/" &
done
status=()
rc=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"; r=$?
  status+=("${names[$i]}: exit $r")
  [ "$r" -eq 0 ] || rc=1
done
wait
node scripts/test-times.cjs "$logs"/*.times
echo "$(IFS=','; echo "${status[*]}" | sed 's/,/, /g') (full output in $logs/)"
exit $rc
