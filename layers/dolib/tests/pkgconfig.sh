#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, builds a C program against DOLIB through
# pkg-config (dolib-smp.pc, which requires splitc-smp.pc) and runs it with the installed
# launcher at P=2: pkgconfig.sh BUILD_DIR SCRATCH SOURCE CC
set -euo pipefail
build=$1 scratch=$2 source=$3 cc=$4
rm -rf "$scratch"
mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
libdir=$(dirname "$(find "$scratch/prefix" -name dolib-smp.pc | head -n 1)")
export PKG_CONFIG_PATH=$libdir
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror "$source" -o "$scratch/consumer" \
  $(pkg-config --cflags --libs dolib-smp) -lsplitc-main -lstdc++
"$scratch/prefix/bin/splitc-run" -n 2 "$scratch/consumer"
# Passed: the scratch install (half a gigabyte) goes; on a failure it stays to be looked at.
rm -rf "$scratch/prefix"
