"""Build script for the optional C accelerator ``eson._speedups``.

The project's metadata lives in ``pyproject.toml``; this file only adds the
extension.  It is optional: without a working C compiler (or with
``TYPED_ESON_NO_SPEEDUPS=1`` at build time) the package installs as pure
Python and says so in one line.  The pure-Python modules are the reference
and complete on their own.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PURE = os.environ.get("TYPED_ESON_NO_SPEEDUPS", "") not in ("", "0")


class OptionalBuildExt(build_ext):
    """Build the accelerator if possible; otherwise install pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers, a failed compile ...
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(exc)

    @staticmethod
    def _skip(exc: BaseException) -> None:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(
            f"typed-eson: C accelerator not built ({reason}); installing pure Python",
            file=sys.stderr,
        )


def _extensions() -> list[Extension]:
    if PURE or sys.implementation.name != "cpython":
        print("typed-eson: building pure Python (no C accelerator)", file=sys.stderr)
        return []
    flags = os.environ.get("TYPED_ESON_CFLAGS", "").split()
    link = os.environ.get("TYPED_ESON_LDFLAGS", "").split()
    return [
        Extension(
            "eson._speedups",
            sources=["src/eson/_speedups.c"],
            extra_compile_args=flags,
            extra_link_args=link,
            optional=True,
        )
    ]


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
