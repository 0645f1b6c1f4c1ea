"""numpy.lib's submodules that copper has: stride_tricks."""
from copper.lib import stride_tricks

__all__ = ["stride_tricks"]
