#!/usr/bin/env bash
# Install the test dependencies (Python packages, and Debian's chromium for the browser tests
# when it is missing and we can install it), then run ruff, the import contracts
# (import-linter) and every test, browser included, on every core (pytest-xdist).
#
#   bash scripts/test.sh                     # everything (what CI runs)
#   bash scripts/test.sh -m "not browser and not deploy and not slow"   # the everyday tier
#   HYPOTHESIS_PROFILE=thorough bash scripts/test.sh tests/measures/test_properties.py
#
# Extra arguments go to pytest. PYTEST_WORKERS sets -n (default: auto, one per core; 0 = none).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's chromium (the browser tests, which drive its headless shell when installed), haproxy (the deployment's balancer, which
# tests/deploy/ start) and graphviz, each installed when missing and we can.
missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
# Graphviz's dot: dtreeviz draws converted trees with it (tests/tree/test_sklearn_out.py)
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
want_shell=0
[ -x /usr/bin/chromium-headless-shell ] || want_shell=1
if [ "${#missing[@]}" -eq 0 ] && [ "$want_shell" = 1 ] && [ "$(id -u)" = 0 ] &&
  command -v apt-get >/dev/null 2>&1; then
  missing+=(chromium)  # already there: apt-get keeps it, and the shell is tried beside it
fi
# The Debian packages and the Python packages are installed at the same time (on a fresh
# machine each waits mostly on downloads); the checks start when both are done.
apt_pid=""
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian's ${missing[*]}$([ "$want_shell" = 1 ] && echo " (and chromium-headless-shell)") for the tests..."
    apt_log="$(mktemp)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" &&
      if [ "$want_shell" = 1 ]; then
        # Chromium's headless shell: the browser tests' Chromium at less CPU (tests/browser/
        # conftest.py's _chromium_path); a release without the package keeps the full browser.
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell ||
          echo "scripts/test.sh: no chromium-headless-shell; the tests drive chromium"
      fi) >"$apt_log" 2>&1 &
    apt_pid=$!
  else
    echo "missing: ${missing[*]}: install them (sudo apt-get install ${missing[*]}) for the tests" >&2
  fi
fi
python3 -m pip install -q -r requirements-dev.txt -e .
if [ -n "$apt_pid" ]; then
  if ! wait "$apt_pid"; then
    cat "$apt_log" >&2
    echo "scripts/test.sh: apt-get could not install ${missing[*]}" >&2
    exit 1
  fi
  rm -f "$apt_log"
fi
python3 -m ruff check .
python3 -m ruff format --check .
lint-imports
status=0
python3 -m pytest -n "${PYTEST_WORKERS:-auto}" "$@" || status=$?
if [ "$status" = 5 ]; then
  # pytest's "no tests collected": a filter that matched nothing, or a broken collection.
  if [ "$#" -gt 0 ]; then
    echo "scripts/test.sh: no test matched the arguments: $*" >&2
  else
    echo "scripts/test.sh: pytest collected no tests at all: the suite is broken" >&2
  fi
fi
exit "$status"
