"""Unit tests of the kernel-side `argus` package.

Run from the repository root:
    /usr/bin/python3 -m unittest discover -s python/tests -t python -v
"""
