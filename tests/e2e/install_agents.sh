#!/usr/bin/env bash
# Install the pinned Codex CLI and Gemini CLI for the end-to-end suite into a repo-local cache and
# print the path of each working binary on stdout, one line per agent: `codex <path>` and
# `gemini <path>` (diagnostics go to stderr).
#
#   bash tests/e2e/install_agents.sh              # both agents; installs once, then only checks
#   bash tests/e2e/install_agents.sh codex        # one agent
#   VAULTKIT_CODEX_VERSION=0.171.0 VAULTKIT_GEMINI_VERSION=0.61.0 bash tests/e2e/install_agents.sh
#
# Cache: <repo>/.cache/<agent>-cli/<version>/ (git-ignored; override the root with
# VAULTKIT_E2E_CACHE). Codex's npm package pulls its native binary as a per-platform optional
# dependency and Gemini CLI is plain JavaScript, so nothing beyond the npm registry is downloaded.
# Exit codes: 0 ok, 2 unknown agent, 3 npm missing, 4 install failed.
set -euo pipefail

CODEX_VERSION="${VAULTKIT_CODEX_VERSION:-0.171.0}"
GEMINI_VERSION="${VAULTKIT_GEMINI_VERSION:-0.61.0}"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
ROOT="${VAULTKIT_E2E_CACHE:-$REPO/.cache}"

# package, version and binary (relative to node_modules/.bin) of one agent.
spec() {
  case "$1" in
    codex) echo "@openai/codex $CODEX_VERSION codex" ;;
    gemini) echo "@google/gemini-cli $GEMINI_VERSION gemini" ;;
    *) return 1 ;;
  esac
}

# A binary works when it reports the pinned version somewhere in its --version line. Both CLIs
# create state folders even for --version (~/.codex/tmp, ~/.gemini/projects.json), so the check
# runs with a throwaway HOME, CODEX_HOME and GEMINI_CLI_HOME.
works() {
  [ -x "$1" ] || return 1
  local scratch status=0
  scratch="$(mktemp -d)"
  HOME="$scratch" CODEX_HOME="$scratch/.codex" GEMINI_CLI_HOME="$scratch" \
    "$1" --version 2>/dev/null | grep -qF "$2" || status=1
  rm -rf "$scratch"
  return "$status"
}

install_one() {
  local agent="$1" package version binary target staging
  read -r package version binary <<<"$(spec "$agent")"
  target="$ROOT/$agent-cli/$version"
  if works "$target/node_modules/.bin/$binary" "$version"; then
    echo "$agent $target/node_modules/.bin/$binary"
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "install_agents.sh: npm is not on PATH; install Node.js (with npm) to run the e2e suite" >&2
    exit 3
  fi
  mkdir -p "$ROOT/$agent-cli"
  # One installer per agent at a time: every pytest-xdist worker calls this script; the first
  # installs, the others wait here and then find its install (as in install_claude.sh). Without
  # flock (macOS) each stages its own copy and the rename below keeps the cache whole.
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$ROOT/$agent-cli/.install-$version.lock"
    if ! flock -w 900 9; then
      echo "install_agents.sh: gave up after 900 s waiting for the $agent install lock" >&2
      exit 4
    fi
    if works "$target/node_modules/.bin/$binary" "$version"; then
      exec 9>&-
      echo "$agent $target/node_modules/.bin/$binary"
      return 0
    fi
  fi
  staging="$(mktemp -d "$ROOT/$agent-cli/.staging-$version.XXXXXX")"
  echo "install_agents.sh: installing $package@$version into $target" >&2
  if ! npm install --prefix "$staging" --no-audit --no-fund --no-save --loglevel=error \
      --engine-strict=false "$package@$version" >&2; then
    rm -rf "$staging"
    echo "install_agents.sh: npm install of $package@$version failed" >&2
    exit 4
  fi
  # Publish the finished install in one rename; a concurrent installer that won the race is fine.
  if ! mv -T "$staging" "$target" 2>/dev/null; then
    rm -rf "$staging"
  fi
  exec 9>&-  # release the lock (a no-op without flock)
  if ! works "$target/node_modules/.bin/$binary" "$version"; then
    echo "install_agents.sh: $package@$version has no runnable $binary for this platform" >&2
    exit 4
  fi
  echo "$agent $target/node_modules/.bin/$binary"
}

agents=("$@")
[ "${#agents[@]}" -eq 0 ] && agents=(codex gemini)
for agent in "${agents[@]}"; do
  if ! spec "$agent" >/dev/null; then
    echo "install_agents.sh: unknown agent '$agent' (expected codex or gemini)" >&2
    exit 2
  fi
done
for agent in "${agents[@]}"; do
  install_one "$agent"
done
