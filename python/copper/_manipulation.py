"""Thin Python-side argument shaping for the manipulation family (the work happens in copper._core)."""

__all__ = []
