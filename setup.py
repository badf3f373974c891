"""Builds the Cython extensions: the shared native core and each game's kernel.

Two folders hold Cython, one rule each (pyproject.toml maps the folders to packages):

* ``src_ext/<name>.pyx`` is compiled as ``aiplay._ext.<name>``: the kernel
  interface (``kernel.pxd``), the native searchers and cancellation;
* ``games/<game>/kernel.pyx`` is compiled as ``aiplay.games.<game>.kernel``:
  that game's kernel, found by the registry by this name. A new game folder
  needs no change here.

Everything else (metadata, dependencies, packages) is in pyproject.toml.

Debug build: with ``AIPLAY_DEBUG_BUILD=1`` in the environment (it passes
through pip's build isolation) the kernels are compiled with Cython's run-time
checks on (:data:`DEBUG_DIRECTIVES`), GCC's array-bounds sanitizer, C
assertions and ``-O1 -g``, and every build product (generated C, objects,
libraries) goes under ``build/debug/`` so it never mixes with the release
files. Install it into its own environment, e.g.::

    python3 -m venv build/venv-debug
    AIPLAY_DEBUG_BUILD=1 build/venv-debug/bin/pip install ".[test]" hypothesis

Never ``build_ext --inplace`` a debug build in a shared checkout: it would put
debug ``.so`` files beside the sources, where everyone's imports find them.
"""

import os
import re
import shutil
import sys
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent.resolve()
SRC = HERE / "src_ext"
GAMES = HERE / "games"

#: True when this build is the debug build (see the module docstring).
DEBUG_BUILD = os.environ.get("AIPLAY_DEBUG_BUILD", "").strip() not in ("", "0")

#: Directives every build shares.
COMMON_DIRECTIVES = {"language_level": "3", "embedsignature": True}
#: The release build: no run-time checks in the kernels' inner loops.
RELEASE_DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True,
                      "initializedcheck": False}
#: The debug build. ``wraparound`` stays False on purpose: the release code
#: never wraps, so a negative index is always a bug; with ``boundscheck`` on
#: and ``wraparound`` off it raises IndexError, whereas ``wraparound=True``
#: would make it silently read the last element and hide the bug. ``cdivision``
#: stays True so that ``%`` and ``/`` on negative numbers compute exactly what
#: the release build computes (a division by zero still dies with SIGFPE,
#: which the fuzzers report as a crash).
DEBUG_DIRECTIVES = {"boundscheck": True, "wraparound": False, "cdivision": True,
                    "initializedcheck": True}
#: Cython checks only memoryviews and Python sequences; the kernels keep their
#: state in fixed-size C arrays, which only GCC's bounds sanitizer checks (an
#: out-of-range index aborts with "runtime error: index N out of bounds for
#: type 'int [M]'"). ``-UNDEBUG`` turns C ``assert`` back on (Python's flags
#: define NDEBUG). -O1 rather than -O0 keeps the fuzzers' budgets affordable.
DEBUG_COMPILE_ARGS = ["-O1", "-g", "-fno-omit-frame-pointer", "-UNDEBUG",
                      "-fsanitize=bounds", "-fno-sanitize-recover=bounds"]
DEBUG_LINK_ARGS = ["-fsanitize=bounds"]
RELEASE_COMPILE_ARGS = ["-O3"]

# A "# cython: ..." header comment in a .pyx overrides compiler_directives
# (tested with Cython 3.3: a header boundscheck=False beats boundscheck=True
# given here), so the check directives must be set here and nowhere else.
_HEADER = re.compile(r"^#\s*cython:(.*)$")
_CHECK_DIRECTIVES = ("boundscheck", "wraparound", "cdivision", "initializedcheck")


def header_overrides() -> list:
    """``(file, line)`` for every .pyx/.pxd header comment that sets a check directive."""
    found = []
    for source in sorted([*SRC.glob("*.p[yx][xd]"), *GAMES.glob("*/kernel.pyx")]):
        with open(source, encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#"):
                    break  # directive comments must come before any code
                match = _HEADER.match(line.strip())
                if match and any(d in match.group(1) for d in _CHECK_DIRECTIVES):
                    found.append((str(source.relative_to(HERE)), line.strip()))
    return found


def cython_include_tree() -> Path:
    """A tree where ``cimport aiplay._ext.kernel`` finds ``src_ext/kernel.pxd``.

    The one workaround the layout still needs: the .pxd files live in src_ext/
    but belong to the package aiplay._ext, and Cython resolves a cimport by its
    package path (it knows nothing of pyproject's folder-to-package mapping), so
    they are mirrored under build/cython_include/aiplay/_ext/ before compiling.
    """
    root = HERE / "build" / "cython_include"
    package = root / "aiplay" / "_ext"
    package.mkdir(parents=True, exist_ok=True)
    (root / "aiplay" / "__init__.pxd").touch()
    (package / "__init__.pxd").touch()
    for pxd in SRC.glob("*.pxd"):
        target = package / pxd.name
        # Copy only a changed file: a fresh timestamp would make cythonize rebuild every kernel.
        if not target.exists() or target.read_bytes() != pxd.read_bytes():
            shutil.copyfile(pxd, target)
    return root


def packages() -> list:
    """The library and every package under it (found on disk, so a new subpackage is never left out
    of the sdist and wheel), the compiled extensions and one package per game folder."""
    library = sorted("aiplay" + "".join("." + part for part in d.relative_to(HERE / "aiplay").parts)
                     for d in [HERE / "aiplay", *(HERE / "aiplay").rglob("*")]
                     if d.is_dir() and (d / "__init__.py").exists())
    games = sorted(d.name for d in (HERE / "games").iterdir() if (d / "__init__.py").exists())
    return library + ["aiplay._ext", "aiplay.games"] + [f"aiplay.games.{g}" for g in games]


def extension(name: str, pyx: Path) -> Extension:
    """One compiled module from one .pyx file, with this build's flags."""
    return Extension(
        name,
        [str(pyx.relative_to(HERE))],
        include_dirs=[numpy.get_include()],
        extra_compile_args=DEBUG_COMPILE_ARGS if DEBUG_BUILD else RELEASE_COMPILE_ARGS,
        extra_link_args=DEBUG_LINK_ARGS if DEBUG_BUILD else [],
    )


extensions = ([extension(f"aiplay._ext.{pyx.stem}", pyx) for pyx in sorted(SRC.glob("*.pyx"))]
              + [extension(f"aiplay.games.{pyx.parent.name}.kernel", pyx)
                 for pyx in sorted(GAMES.glob("*/kernel.pyx")) if (pyx.parent / "__init__.py").exists()])

if DEBUG_BUILD:
    for name, line in header_overrides():
        print(f"setup.py: WARNING: {name} has the header {line!r}, which overrides the debug "
              f"directives {DEBUG_DIRECTIVES}; remove the check directives from it", file=sys.stderr)

setup(
    packages=packages(),
    ext_modules=cythonize(
        extensions,
        include_path=[str(cython_include_tree())],
        compiler_directives={**COMMON_DIRECTIVES, **(DEBUG_DIRECTIVES if DEBUG_BUILD else RELEASE_DIRECTIVES)},
        # The debug build's generated C must not replace the release's *.c: cythonize
        # only compares timestamps, so a later release build would compile it.
        build_dir=str(HERE / "build" / "debug" / "cython") if DEBUG_BUILD else None,
        force=DEBUG_BUILD,
    ),
    # Objects and libraries of the debug build in their own tree, for the same reason.
    options={"build": {"build_base": str(HERE / "build" / "debug")}} if DEBUG_BUILD else {},
)
