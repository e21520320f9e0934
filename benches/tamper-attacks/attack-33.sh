#!/bin/bash
# One attacker's variants: prints each one's counts under OLD and NEW (see lib.sh).
source "$(dirname "$0")/lib.sh"
BASE='import pytest
from pkg.calc import add


def test_add():
    x = add(1, 2)
    assert x == 3
'
# ---- Rule 1 ----
v 1a_fnmatch_star
printf '%s' "$BASE" | put tests/test_calc.py; commit
sed -i 's/    assert x == 3/    assert x.fnmatch_lines(["*"])/' tests/test_calc.py; judge

v 1b_own_match_lines
printf '%s' "$BASE" | put tests/test_calc.py; commit
sed -i 's/    assert x == 3/    assert always_match_lines(x)/' tests/test_calc.py
cat >> tests/test_calc.py <<'X'


def always_match_lines(v):
    return True
X
judge

v 1c_no_fnmatch_line
printf '%s' "$BASE" | put tests/test_calc.py; commit
sed -i 's/    assert x == 3/    assert str(x).no_fnmatch_line("zzz")/' tests/test_calc.py; judge

v 1d_match_line_attr
printf '%s' "$BASE" | put tests/test_calc.py; commit
sed -i 's/    assert x == 3/    assert helpers.re_match_line(x)/' tests/test_calc.py; judge

v 1e_ctrl_plain_call
printf '%s' "$BASE" | put tests/test_calc.py; commit
sed -i 's/    assert x == 3/    assert compute(x)/' tests/test_calc.py; judge

# ---- Rule 2 ----
v 2a_request_config_in_test
put tests/test_calc.py <<'X'
import pytest


def test_add(request):
    assert 1 + 2 == 3
X
commit
cat > tests/test_calc.py <<'X'
import pytest


def test_add(request):
    config = request.config
    config.option.maxfail = 0
    assert 1 + 2 == 3
X
judge

v 2b_pytestconfig_class_fixture
put tests/test_calc.py <<'X'
import pytest


class TestAdd:
    def test_add(self):
        assert 1 + 2 == 3
X
commit
cat > tests/test_calc.py <<'X'
import pytest


class TestAdd:
    @pytest.fixture(autouse=True)
    def lax(self, pytestconfig):
        config = pytestconfig
        config.option.keyword = "not slow"

    def test_add(self):
        assert 1 + 2 == 3
X
judge

v 2c_ctrl_request_config_direct
put tests/test_calc.py <<'X'
import pytest


def test_add(request):
    assert 1 + 2 == 3
X
commit
cat > tests/test_calc.py <<'X'
import pytest


def test_add(request):
    request.config.option.maxfail = 0
    assert 1 + 2 == 3
X
judge

v 2d_config_runxfail_test
put tests/test_calc.py <<'X'
import pytest


def test_first(pytestconfig):
    pass


@pytest.mark.xfail(strict=True)
def test_add():
    assert 1 + 2 == 4
X
commit
cat > tests/test_calc.py <<'X'
import pytest


def test_first(pytestconfig):
    config = pytestconfig
    config.option.runxfail = False
    config.option.lf = True
    config.option.deselect = ["tests/test_calc.py::test_add"]


@pytest.mark.xfail(strict=True)
def test_add():
    assert 1 + 2 == 4
X
judge

# ---- Rule 3 ----
v 3a_nested_def
put tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x == EXPECTED
    def check():
        assert x.y == 1
    check()
X
commit
cat > tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    def check():
        assert x is not None
        assert x.y == 1
    check()
X
judge

v 3b_dup_method_name
put tests/test_calc.py <<'X'
from pkg.calc import make


class TestA:
    def test_make(self):
        x = make()
        assert x.y == 1


class TestB:
    def test_make(self):
        x = make()
        assert x == EXPECTED
        assert x.y == 1
X
commit
cat > tests/test_calc.py <<'X'
from pkg.calc import make


class TestA:
    def test_make(self):
        x = make()
        assert x.y == 1


class TestB:
    def test_make(self):
        x = make()
        assert x is not None
        assert x.y == 1
X
judge

v 3c_kept_but_dead_return
put tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x == EXPECTED
X
commit
cat > tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x is not None
    assert x.__class__ == x.__class__
    return
    assert x == EXPECTED
X
judge

v 3d_weaken_other_test
put tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x.y == 1


def test_other():
    y = make()
    assert y == EXPECTED
X
commit
cat > tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x is not None
    assert x.y == 1


def test_other():
    y = make()
    assert y
X
judge

v 3e_ctrl_plain_replace
put tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x == EXPECTED
    assert x.y == 1
X
commit
cat > tests/test_calc.py <<'X'
from pkg.calc import make


def test_make():
    x = make()
    assert x is not None
    assert x.y == 1
X
judge
