#!/usr/bin/env bash
# Packaging check: `python -m build` makes an sdist and a wheel (with the C
# accelerator), plus the pure wheel (TYPED_ESON_NO_SPEEDUPS=1 at build time);
# each installs into a fresh venv and passes a smoke subset of the suite there.
# Usage: .ci/package.sh PYTHON   (a python with the `build` package, e.g. the dev venv)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-.venv/bin/python}"
base="$("$python" -c 'import sys; print(sys.base_prefix)')/bin/python3"
out=".cache/package"
rm -rf "$out" && mkdir -p "$out"
"$python" -m build --outdir "$out/dist" . >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
TYPED_ESON_NO_SPEEDUPS=1 "$python" -m build --wheel --outdir "$out/pure" . >"$out/pure.log" 2>&1 \
  || { tail -30 "$out/pure.log"; exit 1; }
ls "$out/dist" "$out/pure"
sdist="$(ls "$out"/dist/*.tar.gz)"
wheel="$(ls "$out"/dist/*.whl)"
pure="$(ls "$out"/pure/*.whl)"
case "$pure" in *-py3-none-any.whl) ;; *) echo "pure wheel is not py3-none-any: $pure"; exit 1 ;; esac
wheel_files="$(unzip -l "$wheel")"
sdist_files="$(tar -tzf "$sdist")"
if grep -q '\.c$' <<<"$wheel_files"; then echo "the wheel ships C source"; exit 1; fi
grep -q '_speedups.*\.so$' <<<"$wheel_files" || { echo "the wheel lacks the accelerator"; exit 1; }
grep -q 'src/eson/_speedups.c$' <<<"$sdist_files" || { echo "the sdist lacks the C source"; exit 1; }

check() {  # check NAME ARTIFACT EXPECTED_SPEEDUPS TESTS...
  local name="$1" artifact="$2" expected="$3"
  shift 3
  local venv="$out/venv-$name"
  "$base" -m venv "$venv"
  "$venv/bin/pip" install -q "$artifact[dev]"
  # Run from outside the checkout so the installed package is the one imported.
  (cd "$out" && "$OLDPWD/$venv/bin/python" -c "
import eson, sys
assert eson.speedups is $expected, eson.speedups
assert 'site-packages' in eson.__file__, eson.__file__
print('$name: eson.speedups =', eson.speedups, 'from', eson.__file__)")
  "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir=. "$@"
}
# Each artifact gets a smoke subset (the whole suite runs twice in the main
# venv, with and without the accelerator): the installed package imports from
# site-packages, builds (or lacks) the accelerator as expected, and its
# C-facing and API paths pass.  The differential tests run a short campaign.
export TYPED_ESON_FUZZ_EXAMPLES="${TYPED_ESON_FUZZ_EXAMPLES:-30}"
check wheel "$wheel" True tests/test_speedups_differential.py tests/test_typed_api.py \
  tests/test_eson_document.py tests/test_toon_typed.py
check sdist "$sdist" True tests/test_speedups_differential.py tests/test_eson_cells.py \
  tests/test_typed_api.py
export TYPED_ESON_NO_SPEEDUPS=1  # the pure wheel has no accelerator to compare with
check pure "$pure" False tests/test_eson_cells.py \
  tests/test_eson_document.py tests/test_typed_api.py tests/test_toon_typed.py
