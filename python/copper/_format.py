"""Thin Python-side argument shaping for the format family (the work happens in copper._core)."""

__all__ = []
