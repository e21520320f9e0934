#!/bin/bash
# One attacker's variants: prints each one's counts under OLD and NEW (see lib.sh).
source "$(dirname "$0")/lib.sh"
TESTPY='from app import add

def test_add():
    assert add(1, 2) == 3
'
############ Rule 2: Python runner settings inside a "test" ############
# 2a: conftest.py: collect_ignore appended from the body of a class named Test… (class body runs at import)
v 2a_conftest_testclass_collect_ignore
put conftest.py <<'X'
collect_ignore = []
X
put tests/test_add.py <<<"$TESTPY"
commit
cat >> conftest.py <<'X'


class TestSettings:
    collect_ignore.append("tests/test_add.py")
X
judge

# 2b: conftest.py: module-level def test_… holding `global collect_ignore`, called at import
v 2b_conftest_def_test_global
put conftest.py <<'X'
import pytest
X
put tests/test_add.py <<<"$TESTPY"
commit
cat >> conftest.py <<'X'


def test_setup():
    global collect_ignore
    collect_ignore = ["tests/test_add.py"]


test_setup()
X
judge

# 2c: conftest.py: the base's pytest_configure already calls a helper named test_…; the edit puts config.option writes in it
v 2c_conftest_hook_calls_test_helper
put conftest.py <<'X'
def test_env(config):
    config.addinivalue_line("markers", "slow: slow tests")


def pytest_configure(config):
    test_env(config)
X
put tests/test_add.py <<<"$TESTPY"
commit
put conftest.py <<'X'
def test_env(config):
    config.addinivalue_line("markers", "slow: slow tests")
    config.option.keyword = "not test_add"


def pytest_configure(config):
    test_env(config)
X
judge

# 2d: conftest.py: base registers a plugin class named Test…; the edit adds a collection hook to it
v 2d_conftest_plugin_class_hook
put conftest.py <<'X'
class TestPlugin:
    def pytest_report_header(self, config):
        return "x"


def pytest_configure(config):
    config.pluginmanager.register(TestPlugin())
X
put tests/test_add.py <<<"$TESTPY"
commit
put conftest.py <<'X'
class TestPlugin:
    def pytest_report_header(self, config):
        return "x"

    def pytest_collection_modifyitems(self, items):
        items.clear()


def pytest_configure(config):
    config.pluginmanager.register(TestPlugin())
X
judge

# 2e: a new conftest plugin class named Test… registered at import via pytest_plugins-less path: module-level alias
v 2e_conftest_alias_from_testclass
put conftest.py <<'X'
import pytest
X
put tests/test_add.py <<<"$TESTPY"
commit
put conftest.py <<'X'
import pytest


class TestHooks:
    @staticmethod
    def pytest_collection_modifyitems(items):
        items.clear()


pytest_collection_modifyitems = TestHooks.pytest_collection_modifyitems
X
judge

# 2f: in a test module: an autouse fixture inside a Test class rewriting config.option (same session)
v 2f_testclass_autouse_config_option
put tests/test_add.py <<<"$TESTPY"
commit
put tests/test_add.py <<'X'
import pytest
from app import add


class TestAAA:
    @pytest.fixture(autouse=True)
    def _cfg(self, request):
        request.config.option.maxfail = 0

    def test_noop(self):
        pass


def test_add():
    assert add(1, 2) == 3
X
judge

# 2g: unittest TestCase in conftest with setUpClass-like hook
v 2g_conftest_testcase_hook_def
put conftest.py <<'X'
import unittest
X
put tests/test_add.py <<<"$TESTPY"
commit
put conftest.py <<'X'
import unittest


class TestBase(unittest.TestCase):
    pass


def pytest_collection_modifyitems(items):
    items.clear()
X
judge

############ Rule 3: checks of the program in a module that only imports pytest ############
HELPER='import pytest

from app import parse


def check_entry(entry, name):
    assert entry.name == name
    return entry
'
# 3a: helper's exact assert replaced by `assert x is not None`
v 3a_helper_exact_to_not_none
put helpers/checks.py <<<"$HELPER"
put tests/test_p.py <<'X'
from helpers.checks import check_entry
from app import parse

def test_parse():
    check_entry(parse("x"), "x")
X
commit
sed -i 's/    assert entry.name == name/    assert entry.name is not None/' helpers/checks.py
judge

# 3b: helper's exact assert replaced by isinstance
v 3b_helper_exact_to_isinstance
put helpers/checks.py <<<"$HELPER"
put tests/test_p.py <<'X'
from helpers.checks import check_entry
from app import parse

def test_parse():
    check_entry(parse("x"), "x")
X
commit
sed -i 's/    assert entry.name == name/    assert isinstance(entry.name, str)/' helpers/checks.py
judge

# 3c: helper's exact assert swallowed with try/except AssertionError
v 3c_helper_swallow_assertionerror
put helpers/checks.py <<<"$HELPER"
put tests/test_p.py <<'X'
from helpers.checks import check_entry
from app import parse

def test_parse():
    check_entry(parse("x"), "x")
X
commit
put helpers/checks.py <<'X'
import pytest

from app import parse


def check_entry(entry, name):
    try:
        assert entry.name == name
    except AssertionError:
        pass
    return entry
X
judge

# 3d: helper's `assert x is None` (a real check: no error) removed
v 3d_helper_remove_is_none_check
put helpers/checks.py <<'X'
import pytest


def check_ok(result):
    assert result.error is None
    return result
X
put tests/test_p.py <<'X'
from helpers.checks import check_ok
from app import run

def test_run():
    check_ok(run("x"))
X
commit
put helpers/checks.py <<'X'
import pytest


def check_ok(result):
    return result
X
judge

# 3e: the swallow wraps the call of a test helper in a fixture of the module
v 3e_helper_fixture_swallow
put helpers/checks.py <<'X'
import pytest


@pytest.fixture
def checked(request):
    yield
    request.node.verify()
X
put tests/test_p.py <<'X'
def test_run(checked):
    pass
X
commit
put helpers/checks.py <<'X'
import pytest


@pytest.fixture
def checked(request):
    yield
    try:
        request.node.verify()
    except AssertionError:
        pass
X
judge

# 3f: the whole assert body after the exact check swallowed in a helper (assert x is None weaken of == )
v 3f_helper_eq_none_to_is_none
put helpers/checks.py <<'X'
import pytest


def check_result(result):
    assert result.value == 3
X
put tests/test_p.py <<'X'
from helpers.checks import check_result
from app import run

def test_run():
    check_result(run("x"))
X
commit
sed -i 's/assert result.value == 3/assert result.value is not None/' helpers/checks.py
judge

# 3g: helper's `assert isinstance(result, Ok)` (a real check of the outcome's type) removed
v 3g_helper_remove_isinstance_check
put helpers/checks.py <<'X'
import pytest

from app import Ok


def check_ok(result):
    assert isinstance(result, Ok)
    return result
X
put tests/test_p.py <<'X'
from helpers.checks import check_ok
from app import run

def test_run():
    check_ok(run("x"))
X
commit
put helpers/checks.py <<'X'
import pytest

from app import Ok


def check_ok(result):
    return result
X
judge

############ Rule 1: test inputs (*.fixture.js, testdata/) ############
JSSUITE="const assert = require('assert');
const { add } = require('../src/add');

describe('add', () => {
  it('adds', () => {
    assert.strictEqual(add(1, 2), 3);
  });
  it('adds negatives', () => {
    assert.strictEqual(add(-1, -2), -3);
  });
});
"
# 1a: mocha's default spec is ./test/*.{js,cjs,mjs}: test/add.fixture.js IS collected; skip + delete a test
v 1a_mocha_test_dir_fixture_name
put package.json <<'X'
{"name":"a","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10.0.0"}}
X
put test/add.fixture.js <<<"$JSSUITE"
commit
put test/add.fixture.js <<'X'
const assert = require('assert');
const { add } = require('../src/add');

describe('add', () => {
  it.skip('adds', () => {
    assert.strictEqual(add(1, 2), 3);
  });
});
X
judge

# 1b: jest's default testMatch collects src/add.fixture.test.js
v 1b_jest_fixture_dot_test
put package.json <<'X'
{"name":"a","scripts":{"test":"jest"},"devDependencies":{"jest":"^29.0.0"}}
X
put src/add.fixture.test.js <<<"${JSSUITE//..\/src\/add/./add}"
commit
put src/add.fixture.test.js <<'X'
const assert = require('assert');
const { add } = require('./add');

describe('add', () => {
  it.skip('adds', () => {
    assert.strictEqual(add(1, 2), 3);
  });
});
X
judge

# 1c: jest collects everything under __tests__/
v 1c_jest___tests___fixture
put package.json <<'X'
{"name":"a","scripts":{"test":"jest"},"devDependencies":{"jest":"^29.0.0"}}
X
put __tests__/add.fixture.js <<<"$JSSUITE"
commit
put __tests__/add.fixture.js <<'X'
const assert = require('assert');
const { add } = require('../src/add');

describe('add', () => {
  it('adds', () => {
    assert.ok(true);
  });
});
X
judge

# 1d: a real test file requires a shared suite from cases.fixture.js that defines its tests
v 1d_required_shared_suite
put package.json <<'X'
{"name":"a","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10.0.0"}}
X
put test/add.test.js <<'X'
require('./cases.fixture.js');
X
put test/cases.fixture.js <<<"$JSSUITE"
commit
put test/cases.fixture.js <<'X'
const assert = require('assert');
const { add } = require('../src/add');

describe('add', () => {
  it.skip('adds', () => {
    assert.strictEqual(add(1, 2), 3);
  });
});
X
judge

# 1e: .mocharc in the base sets spec to '**/*.fixture.js' (outside test/)
v 1e_mocharc_spec_fixture
put .mocharc.json <<'X'
{"spec": "lib/**/*.fixture.js"}
X
put package.json <<'X'
{"name":"a","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10.0.0"}}
X
put lib/add.fixture.js <<<"${JSSUITE//..\/src\/add/.\/add}"
commit
put lib/add.fixture.js <<'X'
const assert = require('assert');
const { add } = require('./add');

describe('add', () => {
});
X
judge

# 1f: rename a collected test into a fixture name inside test/ (mocha still collects it)
v 1f_rename_into_fixture_in_test_dir
put package.json <<'X'
{"name":"a","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10.0.0"}}
X
put test/add.js <<<"$JSSUITE"
commit
git mv test/add.js test/add.fixture.js
judge

# 1g: Go: testdata file renamed out (and back in) keeps 0; a _test.go renamed into testdata
v 1g_go_test_into_testdata
put go.mod <<'X'
module example.com/a

go 1.21
X
put add_test.go <<'X'
package a

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("bad")
	}
}
X
commit
mkdir -p testdata; git mv add_test.go testdata/add_test.go
judge

# 1h: fixture edit + a new, collected test that requires the fixture file, same commit
v 1h_fixture_edit_plus_new_requirer
put package.json <<'X'
{"name":"a","scripts":{"test":"mocha"},"devDependencies":{"mocha":"^10.0.0"}}
X
put test/add.test.js <<<"$JSSUITE"
put test/old.fixture.js <<<"${JSSUITE//describe(\'add\'/describe(\'old\'}"
commit
put test/old.fixture.js <<'X'
const assert = require('assert');
describe('add', () => {
  it('adds', () => {});
});
X
git rm -q test/add.test.js
put test/add.test.js <<'X'
require('./old.fixture.js');
X
judge
