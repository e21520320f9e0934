#!/bin/bash
# attack-51 (helper-58, 2026-12-07, 15 minutes, against cab131b = NEW=/tmp/astrix-s130, OLD=s123):
#   S1-S3, S6 (a skip under raises(unittest.SkipTest), raises(Skipped) aliased, raise
#   unittest.SkipTest under raises(pytest.skip.Exception), raises(fake.skip.Exception))
#   were regressions of expects_a_skip; the next commit counts them (skip 1 each).
#   Left, 0 on OLD and NEW: H1, H12, H14, H16 (conftest hook lines at column 0 inside
#   brackets, strings or continuations), H15 (a helper the hook calls), H2, H3, H6-H9 (a
#   hook bound by tuple, brackets, annotation, walrus, for, import-as).
#   Later (s133): hooks read by statements and any top-level statement naming a listed
#   hook: H1-H3, H6-H9, H12, H14, H16 count 1 test setting (H4, H5, H10, H11, H13 gain
#   one too); H15 (a helper the hook calls) still counts 0 (rc 3 from the conftest path).
# attack-51: conftest hook changes the hook walk misses, skips through the raises(skip) exemption,
# rebound_anew. Run: OLD=/tmp/astrix-s123 NEW=/tmp/astrix-s130 PYTEST=/tmp/pv/bin/pytest WORK=/tmp/attack51/w bash attack-51.sh
source "$(dirname "$0")/lib.sh"
# cf NAME: stdin BASE ---- EDIT of conftest.py; tests/test_calc.py has a failing test.
cf() {
  local all; all=$(cat); v "$1"
  printf '%s\n' "$PY" | put tests/test_calc.py
  printf '%s\n' "${all%%$'\n'----$'\n'*}" | put conftest.py; commit
  printf '%s\n' "${all#*$'\n'----$'\n'}" > conftest.py
  judge; rt py tests/test_calc.py
}
echo "==== (1) conftest hooks ===="
cf H1_continuation_dedented <<'X'
def pytest_collection_modifyitems(items):
    items[:] = [
i for i in items
]
----
def pytest_collection_modifyitems(items):
    items[:] = [
i for i in items if 0
]
X
cf H2_tuple_assign <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
pytest_collection_modifyitems, _x = _f, 1
X
cf H3_paren_assign <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
(pytest_collection_modifyitems) = _f
X
cf H4_globals_item <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
globals()["pytest_collection_modifyitems"] = _f
X
cf H5_setattr_module <<'X'
import sys
def _f(items):
    items[:] = []
----
import sys
def _f(items):
    items[:] = []
setattr(sys.modules[__name__], "pytest_collection_modifyitems", _f)
X
cf H6_annotated_assign <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
pytest_collection_modifyitems: object = _f
X
cf H7_walrus <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
(pytest_collection_modifyitems := _f)
X
cf H8_for_target <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
for pytest_collection_modifyitems in [_f]: pass
X
cf H9_import_as <<'X'
def _f(items):
    items[:] = []
----
def _f(items):
    items[:] = []
from conftest import _f as pytest_collection_modifyitems
X
cf H10_specname <<'X'
import pytest
def _f(items):
    items[:] = []
----
import pytest
@pytest.hookimpl(specname="pytest_collection_modifyitems")
def _f(items):
    items[:] = []
X
cf H11_tab_body <<'X'
def pytest_collection_modifyitems(items):
	items[:] = items
----
def pytest_collection_modifyitems(items):
	items[:] = []
X
cf H12_string_continuation <<'X'
def pytest_collection_modifyitems(items):
    k = """
"""
    items[:] = [i for i in items if k not in i.name]
----
def pytest_collection_modifyitems(items):
    k = """
"""[:0]
    items[:] = [i for i in items if k not in i.name]
X
cf H13_oneline_def <<'X'
def pytest_collection_modifyitems(items): items[:] = items
----
def pytest_collection_modifyitems(items): items[:] = []
X
cf H14_backslash <<'X'
def pytest_collection_modifyitems(items):
    items[:] = \
items
----
def pytest_collection_modifyitems(items):
    items[:] = \
[]
X
cf H15_helper_called_dedent_def <<'X'
def pytest_collection_modifyitems(items):
    _g(items)
def _g(items):
    pass
----
def pytest_collection_modifyitems(items):
    _g(items)
def _g(items):
    items[:] = []
X
cf H16_default_arg <<'X'
def pytest_collection_modifyitems(items, keep=(
1)):
    items[:] = items[:len(items) * keep]
----
def pytest_collection_modifyitems(items, keep=(
0)):
    items[:] = items[:len(items) * keep]
X
echo "==== (2) raises(skip) exemption ===="
py S1_raises_unittest_SkipTest_pytest_skip <<'X'
import pytest


def test_add():
    assert 1 + 2 == 4
----
import pytest
import unittest


def test_add():
    with pytest.raises(unittest.SkipTest):
        pytest.skip("x")
    assert 1 + 2 == 4
X
py S2_local_Skipped_alias <<'X'
import pytest


def test_add():
    assert 1 + 2 == 4
----
import pytest
from unittest import SkipTest as Skipped


def test_add():
    with pytest.raises(Skipped):
        pytest.skip("x")
    assert 1 + 2 == 4
X
py S3_raise_unittest_SkipTest_in_raises_skip <<'X'
import pytest


def test_add():
    assert 1 + 2 == 4
----
import pytest
import unittest


def test_add():
    with pytest.raises(pytest.skip.Exception):
        raise unittest.SkipTest("x")
    assert 1 + 2 == 4
X
py S4_pytest_rebound <<'X'
import pytest


def test_add():
    assert 1 + 2 == 4
----
import pytest
import unittest as _u


def test_add(pytest=type("P", (), {"raises": _u.TestCase().assertRaises, "skip": pytest.skip})):
    with pytest.raises(pytest.skip.Exception):
        pytest.skip("x")
    assert 1 + 2 == 4
X
py S5_skip_exc_is_other <<'X'
import pytest


def test_add():
    assert 1 + 2 == 4
----
import pytest
pytest.skip.Exception = KeyError  # noqa


def test_add():
    with pytest.raises(pytest.skip.Exception):
        pytest.skip("x")
    assert 1 + 2 == 4
X
py S6_skip_Exception_of_other_module <<'X'
import pytest


def test_add():
    assert 1 + 2 == 4
----
import pytest
import types
fake = types.SimpleNamespace(skip=types.SimpleNamespace(Exception=KeyError))


def test_add():
    with pytest.raises(fake.skip.Exception):
        pytest.skip("x")
    assert 1 + 2 == 4
X
echo "==== (3) rebound_anew ===="
py R1_rebind_new_name_existence <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    r = str(r)
    assert r is not None
X
py R2_rebind_other_name <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    assert r == 4
----
import pytest


def add(a, b):
    return a + b


def test_add():
    r = add(1, 2)
    r = sum([r])
    assert r
X
py R3_exact_replaced_existence_new_binding <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
import pytest


def add(a, b):
    return a + b


def test_add():
    result = add(1, 2)
    assert result is not None
X
