#!/usr/bin/env bash
# `npm test`: makes this machine ready (scripts/bootstrap.sh), then type-checks and lints the workspace
# (scripts/lint.sh) while the suite runs (scripts/run-tests.sh), and prints how long each part took. With
# arguments (`npm test -- packages/flows`) it runs only the test files they name, without the type checks
# and lint: the developer's loop.
set -uo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
start=$(date +%s)
bash scripts/bootstrap.sh || exit 1
ready=$(date +%s)
# The machine's busy CPU time (all cores, in clock ticks) from /proc/stat: with the suite's own CPU time
# (its processes, reaped up the tree), it tells a slower machine, or a busy one, from a slower suite.
busy_ticks() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat 2>/dev/null || echo 0; }
machine_before=$(busy_ticks)
typecheck=
if [ $# -eq 0 ]; then
  mkdir -p .data/logs
  ( nice -n 5 bash -c 'npm run --silent typecheck; t=$?; bash scripts/lint.sh; exit $((t | $?))' > .data/logs/typecheck.log 2>&1; rc=$?; echo "$(date +%s)" > .data/logs/typecheck.end; exit $rc ) &
  typecheck=$!
fi
bash scripts/run-tests.sh "$@"
rc=$?
checks=
if [ -n "$typecheck" ]; then
  if wait "$typecheck"; then
    echo "type checks and lint: passed"
  else
    cat .data/logs/typecheck.log; echo "type checks or lint: FAILED (above; .data/logs/typecheck.log)"; rc=1
  fi
  checks=" (type checks and lint alongside: $(( $(cat .data/logs/typecheck.end) - ready ))s)"
fi
done=$(date +%s)
machine_after=$(busy_ticks)
printf 'time: %ss bootstrap (dependencies, Chromium, PostgreSQL, Redis); %ss test time%s; %ss in all\n' \
  $((ready - start)) $((done - ready)) "$checks" $((done - start))
# `times`' second line: the user and system time of this shell's children (the bootstrap, the tests and
# every process they waited for: Jest, the stacks, Chromium), e.g. "12m3.456s 1m2.345s".
# (Run in this shell, not in a $(…) subshell, whose children are not these.)
mkdir -p .data/logs && times > .data/logs/times.txt
own=$(sed -n 2p .data/logs/times.txt | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t }')
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
printf 'cpu: %ss CPU time of the suite'"'"'s own processes; the machine was busy %ss of CPU over the test time (%s cores)\n' \
  "$own" $(( (machine_after - machine_before) / hz )) "$(nproc 2>/dev/null || echo '?')"
node scripts/test-times.cjs --summary .data/logs/jest/*.times
exit $rc
