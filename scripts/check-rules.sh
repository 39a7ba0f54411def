#!/usr/bin/env bash
# The library's stated rules (scripts/check_rules.py says which): first shown to catch a planted violation of each,
# then run over the tree. Seconds; part of the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 scripts/check_rules.py --self-test
/usr/bin/python3 scripts/check_rules.py
