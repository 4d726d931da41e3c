#!/usr/bin/env bash
# Build eson._speedups with AddressSanitizer and UndefinedBehaviorSanitizer and
# run the C-facing tests plus a bounded fuzz campaign against it.
# Usage: .ci/sanitize.sh PYTHON   (a venv python with the dev extras installed)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-.venv/bin/python}"
out=".cache/asan"
rm -rf "$out" && mkdir -p "$out"
# A copy of the package with the instrumented extension beside it; the tests
# import it first through PYTHONPATH (ahead of the editable install).
cp -r src/eson "$out/eson"
rm -f "$out"/eson/_speedups*.so
# setup.py runs in this venv (no isolated build): it needs pyproject's setuptools.
"$python" -m pip install -q "setuptools>=77"
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g"
TYPED_ESON_CFLAGS="$flags" TYPED_ESON_LDFLAGS="-fsanitize=address,undefined" \
  "$python" setup.py -q build_ext --build-lib "$out/build" --build-temp "$out/tmp" 2>&1 | grep -v '^$' || true
cp "$out"/build/eson/_speedups*.so "$out/eson/"
libasan="$(gcc -print-file-name=libasan.so)"
libubsan="$(gcc -print-file-name=libubsan.so)"
export LD_PRELOAD="$libasan:$libubsan"
# CPython itself leaks by design at exit; everything else aborts the run.  (The
# memory-growth test runs in the normal passes: ASan keeps freed memory in quarantine.)
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export PYTHONPATH="$PWD/$out" PYTHONMALLOC=malloc
export TYPED_ESON_FUZZ_EXAMPLES="${TYPED_ESON_FUZZ_EXAMPLES:-600}"
"$python" -c 'import eson, eson._speedups as s, sys; assert eson.speedups and s.__file__.startswith(sys.argv[1]), s.__file__; print("sanitized accelerator:", s.__file__)' "$PWD/$out"
# The differential tests drive every C entry point (cells, documents, models,
# TOON tables, mutated text); the conformance data adds the spec's own cases;
# the hardening fuzzer (tests/test_fuzz.py, its in-suite campaign of hostile and
# mutated documents through every decoder) is the bounded fuzz campaign.  The
# accelerator's own fuzzer (tests/test_speedups_fuzz.py: hostile objects and
# models, accelerated against pure, each batch in a child process that inherits
# this instrumented build), the hostile-input regressions and the one-pass Struct
# reader's contract (ESON and TOON rows, tests/test_speedups_read_structs.py) and the
# stream core against the Python stream (tests/test_stream_core.py) run here too.
export TYPED_ESON_ACCEL_FUZZ_CASES="${TYPED_ESON_ACCEL_FUZZ_CASES:-1000}"
"$python" -m pytest -q -n auto -p no:cacheprovider \
  tests/test_speedups_differential.py tests/test_speedups_hostile.py tests/test_speedups_fuzz.py \
  tests/test_speedups_read_structs.py tests/test_stream_core.py \
  tests/test_eson_conformance.py tests/test_fuzz.py
