"""Thin Python-side argument shaping for the reductions family (the work happens in copper._core)."""

__all__ = []
