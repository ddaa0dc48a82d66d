#!/usr/bin/env bash
# Packs what a GPU machine without this project's build dependencies
# (Boost.JSON, SystemC, ...) needs to run the GPU checks, from a build made
# here: the stripped gemini and test binaries, the CTest files, the shared
# libraries they load beyond the C/C++ runtime, and the corpus; plus a
# script that unpacks them there and runs `ctest -L gpu` and
# bench/gpu_bench.sh. How docs/gpu.md's H200 figures were taken (the
# `device` tool copies the repository and the folder named here).
#
#   bash scripts/gpu_bundle.sh [BUILD_DIR] [CORPUS_DIR] [OUT_DIR]
#   # there, in the repository's root:  bash OUT_DIR/run.sh [all|test|bench]
#
# The build's CTest files name absolute paths: run.sh links the build's
# source directory to the repository's copy there and its build directory
# to the unpacked one, puts the corpus at /work/shared/ir-corpus, and finds
# cuDNN and cuBLAS under /opt, /usr/local and /usr/lib.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
CORPUS=$(cd "${2:-../shared/ir-corpus/set}" && pwd)
OUT=${3:-.gpu}
SRC=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt")
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/cli" "$tmp/build/tests" "$tmp/lib"
(cd "$BUILD" && find . \( -name CTestTestfile.cmake -o -name '*_include.cmake' -o -name '*_tests.cmake' \) \
  -not -path './_deps/*' -exec cp --parents {} "$tmp/build/" \;)
strip -o "$tmp/build/cli/gemini" "$BUILD/cli/gemini"
for t in gemini_unit_tests gemini_corpus_tests; do strip -o "$tmp/build/tests/$t" "$BUILD/tests/$t"; done
ldd "$BUILD/cli/gemini" "$BUILD/tests/gemini_unit_tests" | awk '/=> \// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libgcc_s|libstdc\+\+|libz)\.so' | xargs -r -I{} cp -L {} "$tmp/lib/"
tar -czf "$OUT/bundle.tar.gz" -C "$tmp" build lib
tar -czf "$OUT/corpus.tar.gz" -C "$(dirname "$CORPUS")" "$(basename "$CORPUS")"
cat >"$OUT/run.sh" <<RUN
#!/usr/bin/env bash
# Made by scripts/gpu_bundle.sh: the GPU checks on this machine; logs in \$OUT.
set -u
ROOT=\$(pwd)
HERE=\$(cd "\$(dirname "\$0")" && pwd)
OUT=\${OUT:-/tmp/gemini_gpu}
mkdir -p "\$OUT" /work/shared/ir-corpus "$(dirname "$SRC")" "\$HERE/unpacked"
[ "\$ROOT" = "$SRC" ] || ln -sfn "\$ROOT" "$SRC"
tar -xzf "\$HERE/bundle.tar.gz" -C "\$HERE/unpacked"
mkdir -p "$(dirname "$BUILD")"
ln -sfn "\$HERE/unpacked/build" "$BUILD"
tar -xzf "\$HERE/corpus.tar.gz" -C /work/shared/ir-corpus
export GEMINI_CORPUS=/work/shared/ir-corpus/$(basename "$CORPUS")
libs=\$HERE/unpacked/lib
for f in \$(find /opt /usr/local /usr/lib -xdev \( -name 'libcudnn.so.9' -o -name 'libcublas.so.13' \) 2>/dev/null); do
  libs=\$libs:\$(dirname "\$f")
done
export LD_LIBRARY_PATH=\$libs\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=$BUILD
if [ "\${1:-all}" != bench ]; then
  (cd "\$B" && ctest -L gpu -j3 --output-on-failure) >"\$OUT/ctest.log" 2>&1
  echo "ctest -L gpu: exit \$?"; tail -8 "\$OUT/ctest.log"
fi
if [ "\${1:-all}" != test ]; then
  OUT=\$OUT/bench bash bench/gpu_bench.sh "\$B" "\$GEMINI_CORPUS" >"\$OUT/bench.log" 2>&1
  echo "gpu_bench: exit \$?"; grep -E "^(==|--|[a-z_0-9]+: cpu|xcheck|total|library check)" "\$OUT/bench.log"
fi
RUN
chmod +x "$OUT/run.sh"
ls -la "$OUT"
