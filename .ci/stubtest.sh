#!/usr/bin/env bash
# Check the package's type information against the runtime (mypy.stubtest).
# Usage: .ci/stubtest.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
"${1:-python3}" -m mypy.stubtest eson --allowlist stubs/stubtest-allowlist.txt
