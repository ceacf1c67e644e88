"""Argus vision tools (catalogue)."""
