"""What the automatic-fusion tests share: a fixture that turns fusion on for one test, the
count of deferred ops, and a call run eagerly for comparison."""
import pytest

import copper as cp


@pytest.fixture
def fused():
    was = cp.fusion_enabled()
    cp.set_fusion(True)
    yield
    cp.set_fusion(was)


def pending():
    """Ops recorded and not yet run (a reduction ending the chain counts as one)."""
    return cp._core._deferred_ops()


def eager(fn, *args):
    """fn(*args) with fusion off: what every op gives on its own."""
    cp.set_fusion(False)
    try:
        return fn(*args)
    finally:
        cp.set_fusion(True)
