#!/bin/sh
# Idempotent set-up of a fresh Debian machine for building and testing kso.
set -eu
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
	build-essential clang libyaml-dev libsqlite3-dev sqlite3 \
	python3 python3-pytest python3-yaml valgrind chromium zsh >/dev/null
echo "setup: done"
