#!/usr/bin/env bash
# Install the pinned Claude Code CLI for the end-to-end suite into a repo-local cache and print
# the path of a working `claude` binary on stdout (diagnostics go to stderr).
#
#   bash tests/e2e/install_claude.sh            # installs once, then only checks the cache
#   VAULTKIT_CLAUDE_VERSION=2.1.332 bash tests/e2e/install_claude.sh
#
# Cache: <repo>/.cache/claude-code/<version>/ (git-ignored; override with VAULTKIT_E2E_CACHE).
# The npm package ships the native binary as a per-platform optional dependency, so nothing
# beyond the npm registry is downloaded. Exit codes: 0 ok, 3 npm missing, 4 install failed.
set -euo pipefail

VERSION="${VAULTKIT_CLAUDE_VERSION:-2.1.332}"
PACKAGE="@anthropic-ai/claude-code"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${VAULTKIT_E2E_CACHE:-$REPO/.cache/claude-code}"
TARGET="$CACHE/$VERSION"

# A binary works when it reports the pinned version.
works() {
  [ -x "$1" ] && "$1" --version 2>/dev/null | grep -q "^$VERSION "
}

# bin/claude.exe is the native binary once npm's postinstall has copied it over the placeholder;
# without that step the platform package's own binary is used directly.
find_binary() {
  local candidate
  for candidate in "$1/node_modules/$PACKAGE/bin/claude.exe" \
                   "$1"/node_modules/@anthropic-ai/claude-code-*/claude; do
    if works "$candidate"; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if found="$(find_binary "$TARGET")"; then
  echo "$found"
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install_claude.sh: npm is not on PATH; install Node.js (with npm) to run the e2e suite" >&2
  exit 3
fi

mkdir -p "$CACHE"
# One installer at a time: every pytest-xdist worker (and any concurrent run) calls this script;
# the first installs, the others wait here and then find its install. Without flock (macOS)
# concurrent installers each stage their own copy and the rename below keeps the cache whole.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE/.install-$VERSION.lock"
  if ! flock -w 600 9; then
    echo "install_claude.sh: gave up after 600 s waiting for $CACHE/.install-$VERSION.lock" >&2
    exit 4
  fi
  if found="$(find_binary "$TARGET")"; then
    echo "$found"
    exit 0
  fi
fi
STAGING="$(mktemp -d "$CACHE/.staging-$VERSION.XXXXXX")"
trap 'rm -rf "$STAGING"' EXIT
echo "install_claude.sh: installing $PACKAGE@$VERSION into $TARGET" >&2
if ! npm install --prefix "$STAGING" --no-audit --no-fund --no-save --loglevel=error \
    --engine-strict=false "$PACKAGE@$VERSION" >&2; then
  echo "install_claude.sh: npm install of $PACKAGE@$VERSION failed" >&2
  exit 4
fi
if ! find_binary "$STAGING" >/dev/null; then
  echo "install_claude.sh: no runnable claude binary in $PACKAGE@$VERSION for this platform" >&2
  exit 4
fi

# Publish the finished install in one rename; a concurrent installer that won the race is fine.
if ! mv -T "$STAGING" "$TARGET" 2>/dev/null; then
  rm -rf "$STAGING"
fi
trap - EXIT
find_binary "$TARGET"
