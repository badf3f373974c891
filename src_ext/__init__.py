"""Compiled extensions (built from src_ext/): the kernel interface, game kernels and native searchers."""
