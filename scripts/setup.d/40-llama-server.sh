#!/usr/bin/env bash
# llama.cpp's llama-server for the model-path tests (tests/services/llama.py).
# Built from the llama.cpp source bundled in the PyPI sdist of llama-cpp-python (recipe:
# docs research "local-llm.md" section 2), with the web-UI flags OFF so the build downloads
# nothing. The binary is cached outside the repo and the build is skipped when it is present.
# Override the location with HINTLINE_LLAMA_PREFIX; the tests also honour HINTLINE_LLAMA_SERVER.
set -euo pipefail
. "$(dirname "$0")/_lib.sh"

VERSION=0.3.36
PREFIX=${HINTLINE_LLAMA_PREFIX:-/opt/hintline/llama-server-$VERSION}
BIN="$PREFIX/bin/llama-server"
if [ -x "$BIN" ]; then
    exit 0
fi
apt_install cmake g++ make
PY=${PYTHON:-python3}
"$PY" -m pip --version >/dev/null 2>&1 || apt_install python3-pip
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "llama-server: building llama.cpp from llama-cpp-python==$VERSION (takes minutes)" >&2
start=$(date +%s)
"$PY" -m pip download --quiet --no-deps --no-binary llama-cpp-python -d "$work" "llama-cpp-python==$VERSION"
tar -xzf "$work"/llama_cpp_python-"$VERSION".tar.gz -C "$work"
src="$work/llama_cpp_python-$VERSION/vendor/llama.cpp"
cmake -S "$src" -B "$work/b" -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_BUILD_UI=OFF -DBUILD_SHARED_LIBS=OFF >/dev/null
cmake --build "$work/b" --target llama-server -j"${HINTLINE_BUILD_JOBS:-2}" >/dev/null
mkdir -p "$PREFIX/bin"
install -m 0755 "$work/b/bin/llama-server" "$BIN.tmp"
mv "$BIN.tmp" "$BIN"
echo "llama.cpp from the sdist of llama-cpp-python==$VERSION" > "$PREFIX/VERSION"
echo "llama-server: built in $(( $(date +%s) - start )) s -> $BIN" >&2
