#!/usr/bin/env bash
# Install what the browser tests (tests/browser) need: Debian's chromium, and Playwright + Voilà in the venv.
#
# Idempotent (does nothing when everything is there), quiet, non-interactive.  Never runs
# `playwright install`: the tests drive the distribution's chromium through executable_path, and the
# Playwright browser download is neither needed nor reachable here.
#
# Usage: .ci/install-browser.sh [path/to/venv]      (default: .venv)
set -euo pipefail

VENV="${1:-.venv}"
CHROMIUM="${GAMELIB_CHROMIUM:-/usr/bin/chromium}"
PLAYWRIGHT_SPEC="${PLAYWRIGHT_SPEC:-playwright>=1.45}"
VOILA_SPEC="${VOILA_SPEC:-voila>=0.5,<0.6}"

log() { printf 'install-browser: %s\n' "$*"; }

if [ -x "$CHROMIUM" ]; then
    log "chromium present: $("$CHROMIUM" --version 2>/dev/null | head -n1)"
else
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO="sudo -n"
        else
            log "chromium is missing and this user cannot install packages (not root, no sudo)" >&2
            exit 1
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        log "chromium is missing and apt-get is not available: install chromium by hand" >&2
        exit 1
    fi
    log "installing chromium (Debian package)"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq >/dev/null
    $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
    [ -x "$CHROMIUM" ] || { log "apt-get finished but $CHROMIUM is still missing" >&2; exit 1; }
    log "chromium installed: $("$CHROMIUM" --version 2>/dev/null | head -n1)"
fi

PY="$VENV/bin/python"
if [ ! -x "$PY" ]; then
    log "no Python at $PY: create the venv first (make setup)" >&2
    exit 1
fi
missing=()
"$PY" -c "import playwright.sync_api" >/dev/null 2>&1 || missing+=("$PLAYWRIGHT_SPEC")
"$PY" -c "import voila" >/dev/null 2>&1 || missing+=("$VOILA_SPEC")
if [ "${#missing[@]}" -gt 0 ]; then
    log "pip install ${missing[*]}"
    "$PY" -m pip install --quiet --disable-pip-version-check "${missing[@]}"
fi
log "ready: $("$PY" -c 'import importlib.metadata as m; print("playwright", m.version("playwright"), "· voila", m.version("voila"))')"
