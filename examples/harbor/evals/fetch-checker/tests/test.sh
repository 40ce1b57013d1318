#!/bin/bash
# A verifier that installs its checker from the package mirror before grading, as many do. With no network
# interface but loopback it cannot: it stops before writing a reward, which openeval records as an infrastructure
# error, never as 0.
set -e
if [ "$(ls /sys/class/net)" = "lo" ]; then
  echo "no network: cannot install the checker from the package mirror" >&2
  exit 1
fi
apt-get update && apt-get install -y --no-install-recommends python3
[ "$(cat /app/done.txt)" = "done" ] && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt
