#!/usr/bin/env bash
# Install the test dependencies (Python packages, and Debian's chromium for the browser tests
# when it is missing and we can install it), then run ruff and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's chromium for the browser tests..."
    apt-get update -qq
    # haproxy: the deployment's balancer (tests/test_deploy_*.py start it)
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium haproxy >/dev/null
  else
    echo "chromium is missing: install it (sudo apt-get install chromium) for the browser tests" >&2
  fi
fi
python3 -m pip install -q -r requirements-dev.txt -e .
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m pytest "$@"
