"""Thin Python-side argument shaping for the creation family (the work happens in copper._core)."""

__all__ = []
