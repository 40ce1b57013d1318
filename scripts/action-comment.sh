#!/usr/bin/env bash
# The comment step of action.yml, kept in a file so that its test runs exactly what the action runs: the run's
# Markdown summary (with its changes against baseline.json when the benchmark has one) posted as the pull request's
# one openeval comment, updated in place on every push. GitHub Actions sets the GITHUB_* variables it reads.
#   OPENEVAL_BENCHMARK      the benchmark folder (default .)
#   OPENEVAL_COMMENT_NAME   keeps a separate comment per benchmark when several comment on one pull request
#   OPENEVAL_COMMAND        how openeval is called (default: npx --no-install openeval)
set -euo pipefail
benchmark="${OPENEVAL_BENCHMARK:-.}"
read -r -a openeval <<< "${OPENEVAL_COMMAND:-npx --no-install openeval}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

report=(report --markdown --benchmark "$benchmark")
if [ -f "$benchmark/baseline.json" ]; then report+=(--against-baseline); fi
status=0
"${openeval[@]}" "${report[@]}" > "$work/body.md" 2> "$work/report.err" || status=$?
cat "$work/report.err" >&2
# report exits as the run's verdict did (1 fail, 3 incomplete): its summary says so, and is posted all the same.
# Any other failure (no run recorded, say) is posted too, so that the comment never shows an earlier push's results.
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ] && [ "$status" -ne 3 ]; then
  {
    echo "## ⚠️ openeval: no summary for this push"
    echo
    echo '```'
    cat "$work/report.err"
    echo '```'
  } > "$work/body.md"
fi

comment=(ci comment --body-file "$work/body.md")
if [ -n "${OPENEVAL_COMMENT_NAME:-}" ]; then comment+=(--name "$OPENEVAL_COMMENT_NAME"); fi
"${openeval[@]}" "${comment[@]}"
