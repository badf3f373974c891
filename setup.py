"""Builds the Cython extensions in src_ext/ as the package ``aiplay._ext``.

Everything else (metadata, dependencies, packages) is in pyproject.toml.
"""

import shutil
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent.resolve()
SRC = HERE / "src_ext"


def cython_include_tree() -> Path:
    """A tree where ``cimport aiplay._ext.kernel`` finds ``src_ext/kernel.pxd``.

    The sources live in src_ext/ but are compiled as the package aiplay._ext,
    and Cython resolves absolute cimports by package path, so the .pxd files are
    mirrored under build/cython_include/aiplay/_ext/ before compiling.
    """
    root = HERE / "build" / "cython_include"
    package = root / "aiplay" / "_ext"
    package.mkdir(parents=True, exist_ok=True)
    (root / "aiplay" / "__init__.pxd").touch()
    (package / "__init__.pxd").touch()
    for pxd in SRC.glob("*.pxd"):
        shutil.copyfile(pxd, package / pxd.name)
    return root


def packages() -> list:
    """The library, its search package, the compiled extensions and one package per game folder."""
    games = sorted(d.name for d in (HERE / "games").iterdir() if (d / "__init__.py").exists())
    return ["aiplay", "aiplay.search", "aiplay._ext", "aiplay.games"] + [f"aiplay.games.{g}" for g in games]


extensions = [
    Extension(
        f"aiplay._ext.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        include_dirs=[numpy.get_include()],
        extra_compile_args=["-O3"],
    )
    for pyx in sorted(SRC.glob("*.pyx"))
]

setup(
    packages=packages(),
    ext_modules=cythonize(
        extensions,
        include_path=[str(cython_include_tree())],
        compiler_directives={"language_level": "3", "embedsignature": True},
    ),
)
