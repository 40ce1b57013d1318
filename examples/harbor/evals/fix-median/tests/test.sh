#!/bin/bash
# The share of the pytest tests that pass, as the reward.
cd /app
python3 -m pytest -q -p no:cacheprovider /tests/test_stats.py > /logs/verifier/pytest.log 2>&1
passed=$(grep -oE '[0-9]+ passed' /logs/verifier/pytest.log | grep -oE '[0-9]+' || echo 0)
failed=$(grep -oE '[0-9]+ failed' /logs/verifier/pytest.log | grep -oE '[0-9]+' || echo 0)
python3 -c "print(round(${passed:-0} / max(1, ${passed:-0} + ${failed:-0}), 4))" > /logs/verifier/reward.txt
