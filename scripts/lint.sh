#!/usr/bin/env bash
# `npm run lint`: Prettier's formatting (.prettierrc.json; `npm run format` writes it) and typescript-eslint's
# rules (eslint.config.mjs) over the whole tree. `npm test` runs it beside the suite; a finding fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
npx prettier --check --log-level warn . || { echo "lint: files above are not formatted; run: npm run format"; rc=1; }
npx eslint --max-warnings 0 . || rc=1
exit $rc
