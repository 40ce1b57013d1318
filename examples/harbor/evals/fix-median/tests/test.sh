#!/bin/bash
# Reward 1 when every pytest test passes, else 0.
cd /app
if python3 -m pytest -q -p no:cacheprovider /tests/test_stats.py > /logs/verifier/pytest.log 2>&1; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
