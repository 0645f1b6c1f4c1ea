"""Thin Python-side argument shaping for the ufuncs family (the work happens in copper._core)."""

__all__ = []
