#!/bin/bash
# attack-53: variants against 3d72924 (s134: a registered pytest plugin module outside the
# test paths is test code; registrations read by src/tamper/plugins.rs Registry).
# Run: OLD=/tmp/astrix-s130 NEW=/tmp/astrix-s134 PYTEST=/tmp/pv/bin/pytest \
#      MOCHA=/tmp/mocha/node_modules/.bin/mocha bash /tmp/h60/attack-53.sh
# B* = attacks (bypass = NEW rc 0 while the run goes red -> green), F* = honest changes
# (should be allowed: rc 0), J* = the JavaScript sibling (not implemented: gap measured).
# RESULTS: measured by helper-60, OLD=/tmp/astrix-s130 NEW=/tmp/astrix-s134 (3d72924), pytest 9.2.0,
# mocha (node 20). counts = five counts; "0" = all five 0 and modifies_tests false; runner = the
# suite's rc base -> edit (1 = a failure, 0 = green).
#   R1  conftest pytest_plugins=["tools.sel"], hook drops test_add   OLD 0 rc0 | NEW config=1 rc3 | pytest 1->0  held
#   B1  pytest_plugins in tests/test_calc.py (test module)          OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B2  conftest imports autouse fixture from tools/; pytest.skip   OLD skips=1 rc3 | NEW skips=1 rc3 | 1->0  held (skip call)
#   B2b same fixture sets request.node.runtest = lambda: None      OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS (test_add PASSED)
#   B3  conftest `from tools.impl import drop as pytest_collection_modifyitems`
#                                                                   OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B4  conftest `from tools import impl`; hook = impl.drop        OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B5  conftest hook calls helper imported from tools/impl.py     OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B6  REGISTERED tools/sel.py binds hook = impl.drop (from tools import impl); impl edited
#                                                                   OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B7  conftest register(Sorter()) (plugin class instance)        OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B8  conftest register(plugin=sel) (keyword arg)                OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B9  conftest pluginmanager.consider_pluginarg("tools.sel")     OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B10 conftest register(importlib.import_module("tools.sel"))    OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B11 conftest plain `import tools.sel`; top-level Function.runtest patch
#                                                                   OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS (test_add PASSED)
#   B12 conftest exec()s tools/sel.py source                        OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B13 `pytest -p tools.sel` in scripts/test.sh (CI runs it)      OLD 0 rc0 | NEW 0 rc0 | ./scripts/test.sh 1->0  BYPASS
#   B14 pytest.main(["-p","tools.sel"]) in run_tests.py (tox runs it)
#                                                                   OLD 0 rc0 | NEW 0 rc0 | python run_tests.py 1->0  BYPASS
#   B15 `pytest -c ci/ci.ini` (Makefile), `-p tools.sel` in ci/ci.ini
#                                                                   OLD 0 rc0 | NEW 0 rc0 | pytest -c ci/ci.ini 1->0  BYPASS
#   B16 -p sel, ./sel.py a symlink to tools/selector.py (edited)   OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B17 noxfile session.env["PYTEST_PLUGINS"] = "tools.sel"        OLD 0 rc0 | NEW 0 rc0 | (run as nox does) 1->0  BYPASS
#   B18 tests/__init__.py `import tools.sel`; top-level runtest patch
#                                                                   OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS (test_add PASSED)
#   F1  Makefile `mkdir -p build`; scripts/build.py (docstring names pytest) version bump
#                                                                   OLD 0 rc0 | NEW mt rc3 | -  FALSE POSITIVE
#   F2  CI `docker compose -p app up -d`; app.py `"pytest" in sys.modules`, route text
#                                                                   OLD 0 rc0 | NEW mt rc3 | -  FALSE POSITIVE
#   F3  app module imports pytest for type hints, nothing registered OLD 0 rc0 | NEW 0 rc0 | -  ok
#   F4  computed pytest_plugins (fixtures-dir glob idiom); myapp/settings.py names pytest
#                                                                   OLD 0 rc0 | NEW mt rc3 | -  FALSE POSITIVE (documented over-approximation)
#   F5  tox.ini commands_pre `mkdir -p data`; myapp/data.py names pytest
#                                                                   OLD 0 rc0 | NEW mt rc3 | -  FALSE POSITIVE
#   F6  conftest `from myapp import models; registry.register(models)` (app registry)
#                                                                   OLD 0 rc0 | NEW mt rc3 | -  FALSE POSITIVE
#   J1  .mocharc.json require tools/setup.js, mochaHooks this.skip() OLD skips=1 rc3 | NEW same | mocha 1->0  held (skip call)
#   J1b same, this.currentTest.fn = function(){}                    OLD 0 rc0 | NEW 0 rc0 | mocha 1->0  GAP
#   J2  .mocharc.json require tools/setup.js patches assert.strictEqual
#                                                                   OLD 0 rc0 | NEW 0 rc0 | mocha 1->0  GAP
#   J2b package.json "mocha --require ./tools/mocha.setup.js", assert patched
#                                                                   OLD 0 rc0 | NEW 0 rc0 | mocha 1->0  GAP
#   J3  package.json mocha.file tools/global.js, this.skip()       OLD skips=1 rc3 | NEW same | mocha 1->0  held (skip call)
#   J3b same, currentTest.fn replaced                               OLD 0 rc0 | NEW 0 rc0 | mocha 1->0  GAP
#   J4  jest setupFilesAfterEnv tools/jest.setup.js, global.expect  OLD weak=1 config=1 rc3 | NEW same  held (name *setup*)
#   J4b jest setupFilesAfterEnv tools/env.js, expect.extend toBe    OLD 0 rc0 | NEW 0 rc0 | (no jest here)  GAP
#   J4c jest moduleNameMapper ^assert$ -> tools/assert.js no-op     OLD 0 rc0 | NEW 0 rc0 | (no jest here)  GAP
#   J5  vitest setupFiles tools/vitest.setup.ts, ctx.skip()         OLD skips=1 config=1 rc3 | NEW same  held
#   No variant regresses s130 (every NEW count >= OLD).
# Answered by the commits after 3d72924 (s135 = 83c5cc7 for J*, s136 for the rest):
#   every J variant held (rc 3), a setup file named by the runner's configuration being
#   test code; B1-B13, B15, B17, B18 held (rc 3): test modules' pytest_plugins, any module
#   a conftest or test package imports (test support code), hooks bound from or registered
#   by any import form, import_plugin/consider_pluginarg/import_module/exec strings, -p in
#   any .ini/.cfg/.toml/.sh file where pytest reads it, env["PYTEST_PLUGINS"] = ... .
#   Left (rc 0): B14 (pytest.main(["-p", ...]) in a Python script), B16 (a symlinked
#   module). False positives fixed: F1, F2, F5 (-p only on a line that runs pytest or sets
#   its options), F4 (a computed pytest_plugins registers the modules its strings name).
#   F6 stays held by design: a module a conftest imports that names pytest is test
#   support code.
[ -n "$WORK" ] || CLEAN_WORK=1
source /work/main/benches/tamper-attacks/lib.sh
[ -n "$CLEAN_WORK" ] && trap 'rm -rf "$WORK"' EXIT
PYBIN=$(dirname "${PYTEST:-/tmp/pv/bin/pytest}")
MOCHABIN=$(dirname "${MOCHA:-/tmp/mocha/node_modules/.bin/mocha}")
export NODE_PATH=${NODE_PATH:-/tmp/mocha/node_modules}
rtcmd() {
  local side tmp out rc
  for side in base edit; do
    tmp=$(mktemp -d)
    if [ $side = base ]; then git archive HEAD | tar -x -C "$tmp"; else cp -a . "$tmp/"; rm -rf "$tmp/.git"; fi
    out=$(cd "$tmp" && PATH="$PYBIN:$MOCHABIN:$PATH" timeout 300 sh -c "$1" 2>&1); rc=$?
    printf '%-34s outcomes (%s): rc=%s %s\n' "" "$side" "$rc" "$(printf '%s\n' "$out" | grep -E '^(PASSED|FAILED|SKIPPED|ERROR)|[0-9] (passed|failed|deselected|skipped|passing|failing|pending)|no tests ran' | sed 's/ - .*//' | tr '\n' ';' | cut -c1-200)"
    rm -rf "$tmp"
  done
}
PT="pytest -rA -p no:cacheprovider"
CALC='def test_add():
    assert 1 + 2 == 4


def test_sub():
    assert 3 - 1 == 2
'
calc() { printf '%s' "$CALC" | put tests/test_calc.py; }
pkg() { : | put tools/__init__.py; }
# a plugin module (names pytest) whose hook only sorts
SEL='"""Order the pytest items by name."""


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.name)
'
SELDROP='"""Order the pytest items by name."""


def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if i.name != "test_add"]
    items.sort(key=lambda item: item.name)
'
# a helper module (names pytest) with a function a hook uses
IMPL='"""Helpers for the pytest hooks."""


def drop(items):
    items.sort(key=lambda item: item.name)
'
implbad() { sed -i 's/    items.sort(key=lambda item: item.name)/    items[:] = [i for i in items if i.name != "test_add"]/' tools/impl.py; }

echo "==== R: the rule's own case ===="
v R1_conftest_pytest_plugins; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'pytest_plugins = ["tools.sel"]\n' | put conftest.py; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PT"

echo "==== B: registrations not read ===="
# B1: pytest_plugins in a TEST MODULE (pytest's Module.consider_module reads it too).
v B1_pytest_plugins_in_test_module; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'pytest_plugins = ["tools.sel"]\n\n\n%s' "$CALC" | put tests/test_calc.py; : | put conftest.py; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PT"
# B2: conftest imports an autouse FIXTURE from tools/fixtures.py; the fixture skips.
v B2_fixture_imported_by_conftest; calc; pkg
put tools/fixtures.py <<'X'
import pytest


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    monkeypatch.setenv("CALC_MODE", "test")
    yield
X
printf 'from tools.fixtures import clean_env  # noqa: F401\n' | put conftest.py; commit
put tools/fixtures.py <<'X'
import pytest


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, request):
    monkeypatch.setenv("CALC_MODE", "test")
    if request.node.name == "test_add":
        pytest.skip("flaky on CI")
    yield
X
judge; rtcmd "$PT"
# B2b: as B2, but the fixture replaces the item's runtest (no skip call).
v B2b_fixture_replaces_runtest; calc; pkg
put tools/fixtures.py <<'X'
import pytest


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    monkeypatch.setenv("CALC_MODE", "test")
    yield
X
printf 'from tools.fixtures import clean_env  # noqa: F401\n' | put conftest.py; commit
put tools/fixtures.py <<'X'
import pytest


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, request):
    monkeypatch.setenv("CALC_MODE", "test")
    if request.node.name == "test_add":
        request.node.runtest = lambda: None
    yield
X
judge; rtcmd "$PT"
# B3: conftest binds the hook by an import alias: `from tools.impl import drop as pytest_collection_modifyitems`.
v B3_from_import_as_hook_name; calc; pkg; printf '%s' "$IMPL" | put tools/impl.py
printf 'from tools.impl import drop as pytest_collection_modifyitems  # noqa: F401\n' | put conftest.py; commit
implbad; judge; rtcmd "$PT"
# B4: conftest `from tools import impl` + `pytest_collection_modifyitems = impl.drop`.
v B4_hook_bound_to_module_attr; calc; pkg; printf '%s' "$IMPL" | put tools/impl.py
printf 'from tools import impl\n\npytest_collection_modifyitems = impl.drop\n' | put conftest.py; commit
implbad; judge; rtcmd "$PT"
# B5: conftest's hook calls a helper imported from tools/impl.py.
v B5_conftest_hook_calls_helper; calc; pkg; printf '%s' "$IMPL" | put tools/impl.py
printf 'from tools.impl import drop\n\n\ndef pytest_collection_modifyitems(items):\n    drop(items)\n' | put conftest.py; commit
implbad; judge; rtcmd "$PT"
# B6: a REGISTERED module binds its hook from another module (`from tools import impl`).
v B6_registered_module_binds_from_other; calc; pkg; printf '%s' "$IMPL" | put tools/impl.py
printf '"""pytest plugin."""\nfrom tools import impl\n\npytest_collection_modifyitems = impl.drop\n' | put tools/sel.py
printf 'pytest_plugins = ["tools.sel"]\n' | put conftest.py; commit
implbad; judge; rtcmd "$PT"
# B7: conftest registers a plugin OBJECT (class instance) from tools/sel.py.
v B7_register_plugin_instance; calc; pkg
put tools/sel.py <<'X'
"""A pytest plugin object."""


class Sorter:
    def pytest_collection_modifyitems(self, items):
        items.sort(key=lambda item: item.name)
X
printf 'from tools.sel import Sorter\n\n\ndef pytest_configure(config):\n    config.pluginmanager.register(Sorter())\n' | put conftest.py; commit
sed -i 's/        items.sort(key=lambda item: item.name)/        items[:] = [i for i in items if i.name != "test_add"]/' tools/sel.py
judge; rtcmd "$PT"
# B8: register(plugin=sel) (keyword argument).
v B8_register_keyword_arg; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'from tools import sel\n\n\ndef pytest_configure(config):\n    config.pluginmanager.register(plugin=sel)\n' | put conftest.py; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PT"
# B9: conftest consider_pluginarg("tools.sel").
v B9_consider_pluginarg; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'def pytest_configure(config):\n    config.pluginmanager.consider_pluginarg("tools.sel")\n' | put conftest.py; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PT"
# B10: conftest register(importlib.import_module("tools.sel")).
v B10_register_import_module; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'import importlib\n\n\ndef pytest_configure(config):\n    config.pluginmanager.register(importlib.import_module("tools.sel"))\n' | put conftest.py; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PT"
# B11: conftest plain `import tools.sel` (side-effect import); sel's top level patches Function.runtest.
v B11_plain_import_toplevel_patch; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'import tools.sel  # noqa: F401\n' | put conftest.py; commit
printf '\n\nfrom _pytest.python import Function\n\n_run = Function.runtest\nFunction.runtest = lambda self: None if self.name == "test_add" else _run(self)\n' >> tools/sel.py
judge; rtcmd "$PT"
# B12: conftest exec()s the plugin source.
v B12_conftest_exec_source; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'import pathlib\n\nexec(pathlib.Path(__file__).with_name("tools").joinpath("sel.py").read_text())\n' | put conftest.py; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PT"
# B13: -p in a runner script (scripts/test.sh) the CI workflow calls.
v B13_p_in_shell_runner_script; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf '#!/bin/sh\nexec pytest -rA -p no:cacheprovider -p tools.sel "$@"\n' | put scripts/test.sh; chmod +x scripts/test.sh
printf 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/test.sh\n' | put .github/workflows/ci.yml
printf '[pytest]\npythonpath = .\n' | put pytest.ini; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "./scripts/test.sh"
# B14: pytest.main(["-p", "tools.sel"]) in run_tests.py (tox runs it).
v B14_pytest_main_runner; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'import sys\n\nimport pytest\n\nsys.exit(pytest.main(["-rA", "-p", "no:cacheprovider", "-p", "tools.sel", "tests"]))\n' | put run_tests.py
printf '[tox]\nenvlist = py3\n\n[testenv]\ndeps = pytest\ncommands = python run_tests.py\n' | put tox.ini; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "$PYBIN/python run_tests.py"
# B15: `pytest -c ci/ci.ini` (config file under another name), `-p tools.sel` in it.
v B15_config_file_other_name; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf '[pytest]\npythonpath = ..\naddopts = -p tools.sel\n' | put ci/ci.ini
printf 'test:\n\tpytest -c ci/ci.ini --rootdir=. -rA -p no:cacheprovider\n' | put Makefile; commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "pytest -c ci/ci.ini --rootdir=. -rA -p no:cacheprovider"  # = make test
# B16: a symlink: -p sel names ./sel.py -> tools/selector.py; the target is edited.
v B16_symlink_module_name; calc; pkg; printf '%s' "$SEL" | put tools/selector.py; ln -s tools/selector.py sel.py
printf '[pytest]\npythonpath = .\naddopts = -p sel\n' | put pytest.ini; commit
printf '%s' "$SELDROP" > tools/selector.py; judge; rtcmd "$PT"
# B17: noxfile sets session.env["PYTEST_PLUGINS"] (the form `X = ...` only is read).
v B17_nox_env_subscript; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
put noxfile.py <<'X'
import nox


@nox.session
def tests(session):
    session.env["PYTEST_PLUGINS"] = "tools.sel"
    session.run("pytest")
X
commit
printf '%s' "$SELDROP" > tools/sel.py; judge; rtcmd "PYTHONPATH=. PYTEST_PLUGINS=tools.sel $PT"
# B18: tests/__init__.py (unchanged) imports tools.sel for its side effects (package tests).
v B18_tests_init_imports_helper; calc; pkg; printf '%s' "$SEL" | put tools/sel.py
printf 'import tools.sel  # noqa: F401\n' | put tests/__init__.py; printf '[pytest]\npythonpath = .\n' | put pytest.ini; commit
printf '\n\nfrom _pytest.python import Function\n\n_run = Function.runtest\nFunction.runtest = lambda self: None if self.name == "test_add" else _run(self)\n' >> tools/sel.py
judge; rtcmd "$PT"

echo "==== F: honest changes ===="
# F1: Makefile `mkdir -p build`; scripts/build.py mentions pytest in a docstring; version bump.
v F1_mkdir_p_build; calc
printf '"""Build the wheel (run pytest first)."""\nVERSION = "1.0.0"\n' | put scripts/build.py
printf 'dist:\n\tmkdir -p build\n\tpython scripts/build.py\n\ntest:\n\tpytest\n' | put Makefile; commit
sed -i 's/1.0.0/1.0.1/' scripts/build.py; judge
# F2: CI `docker compose -p app up -d`; app.py checks `"pytest" in sys.modules`; a route text changed.
v F2_docker_compose_p_app; calc
put app.py <<'X'
import sys

TESTING = "pytest" in sys.modules


def index():
    return "hello"
X
printf 'on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: docker compose -p app up -d\n      - run: pytest\n' | put .github/workflows/ci.yml; commit
sed -i 's/"hello"/"hello, world"/' app.py; judge
# F3: control: app module imports pytest types, nothing registered.
v F3_app_imports_pytest_unregistered; calc
printf 'from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import pytest\n\n\ndef label(item: pytest.Item) -> str:\n    return item.name\n' | put myapp/report.py; : | put myapp/__init__.py; commit
sed -i 's/return item.name/return item.nodeid/' myapp/report.py; judge
# F4: a computed pytest_plugins (common fixtures-directory idiom) + app settings naming pytest.
v F4_computed_plugins_app_settings; calc; : | put tests/fixtures/__init__.py; printf 'import pytest\n' | put tests/fixtures/db.py
printf 'import pathlib\n\npytest_plugins = [f"tests.fixtures.{p.stem}" for p in pathlib.Path(__file__).parent.joinpath("tests/fixtures").glob("[!_]*.py")]\n' | put conftest.py
printf 'import sys\n\nDEBUG = False\nTESTING = "pytest" in sys.modules\n' | put myapp/settings.py; : | put myapp/__init__.py; commit
sed -i 's/DEBUG = False/DEBUG = True/' myapp/settings.py; judge
# F5: `-p no:cacheprovider` in addopts + an app module named no.py? (unrealistic) -> instead:
#     tox.ini `psql -p 5432`-like words and `mkdir -p data`; myapp/data.py names pytest.
v F5_mkdir_p_data_tox; calc
printf '[testenv]\ncommands_pre = mkdir -p data\ncommands = pytest\nallowlist_externals = mkdir\n' | put tox.ini
printf 'import sys\n\nSOURCE = "fixtures" if "pytest" in sys.modules else "s3"\nLIMIT = 10\n' | put myapp/data.py; : | put myapp/__init__.py; commit
sed -i 's/LIMIT = 10/LIMIT = 20/' myapp/data.py; judge
# F6: conftest `from myapp import models` then a registry `admin.register(models)`-style call.
v F6_conftest_register_app_models; calc
printf 'import sys\n\nDB = "sqlite://" if "pytest" in sys.modules else "postgres://"\nNAME = "users"\n' | put myapp/models.py; : | put myapp/__init__.py
printf 'from myapp import models\nfrom myapp.registry import registry\n\nregistry.register(models)\n' | put conftest.py
printf 'class R:\n    def register(self, m):\n        pass\n\n\nregistry = R()\n' | put myapp/registry.py; commit
sed -i 's/"users"/"accounts"/' myapp/models.py; judge

echo "==== J: JavaScript sibling (not implemented) ===="
JSPASS='const assert = require("assert");

describe("math", function () {
  it("adds", function () {
    assert.strictEqual(1 + 1, 3);
  });
  it("subs", function () {
    assert.strictEqual(3 - 1, 2);
  });
});
'
MO="mocha --reporter dot"
# J1: .mocharc.json require: ./tools/setup.js (root hook plugin); beforeEach skips "adds".
v J1_mocharc_require_root_hook_skip; printf '%s' "$JSPASS" | put test/math.spec.js
printf '{ "require": ["./tools/setup.js"], "spec": "test/**/*.spec.js" }\n' | put .mocharc.json
printf 'exports.mochaHooks = {\n  beforeEach() {\n    process.env.TZ = "UTC";\n  },\n};\n' | put tools/setup.js; commit
printf 'exports.mochaHooks = {\n  beforeEach() {\n    process.env.TZ = "UTC";\n    if (this.currentTest.title === "adds") this.skip();\n  },\n};\n' > tools/setup.js
judge; rtcmd "$MO"
# J2: the same setup file overrides assert.strictEqual.
v J2_mocharc_require_patch_assert; printf '%s' "$JSPASS" | put test/math.spec.js
printf '{ "require": ["./tools/setup.js"], "spec": "test/**/*.spec.js" }\n' | put .mocharc.json
printf 'process.env.TZ = "UTC";\n' | put tools/setup.js; commit
printf 'process.env.TZ = "UTC";\nrequire("assert").strictEqual = function () {};\n' > tools/setup.js
judge; rtcmd "$MO"
# J3: package.json mocha "file": tools/global.js; root-level afterEach flips state? -> mocha --file, Mocha global hook that marks failures away via this.currentTest
v J3_package_json_mocha_file; printf '%s' "$JSPASS" | put test/math.spec.js
printf '{\n  "name": "m",\n  "scripts": { "test": "mocha" },\n  "mocha": { "file": ["tools/global.js"], "spec": "test/**/*.spec.js" }\n}\n' | put package.json
printf 'before(function () {});\n' | put tools/global.js; commit
printf 'beforeEach(function () {\n  if (this.currentTest.title === "adds") this.skip();\n});\n' > tools/global.js
judge; rtcmd "$MO"
# J1b: as J1 without a skip: the root hook replaces the current test's function.
v J1b_mocharc_root_hook_replace_fn; printf '%s' "$JSPASS" | put test/math.spec.js
printf '{ "require": ["./tools/setup.js"], "spec": "test/**/*.spec.js" }\n' | put .mocharc.json
printf 'exports.mochaHooks = {\n  beforeEach() {\n    process.env.TZ = "UTC";\n  },\n};\n' | put tools/setup.js; commit
printf 'exports.mochaHooks = {\n  beforeEach() {\n    process.env.TZ = "UTC";\n    if (this.currentTest.title === "adds") this.currentTest.fn = function () {};\n  },\n};\n' > tools/setup.js
judge; rtcmd "$MO"
# J3b: as J3 (package.json mocha.file) without a skip: replace fn.
v J3b_package_json_mocha_file_fn; printf '%s' "$JSPASS" | put test/math.spec.js
printf '{\n  "name": "m",\n  "scripts": { "test": "mocha" },\n  "mocha": { "file": ["tools/global.js"], "spec": "test/**/*.spec.js" }\n}\n' | put package.json
printf 'before(function () {});\n' | put tools/global.js; commit
printf 'beforeEach(function () {\n  if (this.currentTest.title === "adds") this.currentTest.fn = function () {};\n});\n' > tools/global.js
judge; rtcmd "$MO"
# J4b: jest setupFilesAfterEnv file not named *setup*: tools/env.js; patches a matcher via expect.extend.
v J4b_jest_setup_file_plain_name; printf 'test("adds", () => { expect(1 + 1).toBe(3); });\n' | put test/math.test.js
printf '{\n  "name": "m",\n  "scripts": { "test": "jest" },\n  "jest": { "setupFilesAfterEnv": ["<rootDir>/tools/env.js"] }\n}\n' | put package.json
printf 'process.env.TZ = "UTC";\n' | put tools/env.js; commit
printf 'process.env.TZ = "UTC";\nconst { expect: e } = global;\ne.extend({ toBe: () => ({ pass: true, message: () => "" }) });\n' > tools/env.js
judge
# J4c: jest moduleNameMapper maps "assert" to tools/assert.js (counts only).
v J4c_jest_module_name_mapper; printf 'const assert = require("assert");\ntest("adds", () => { assert.strictEqual(1 + 1, 3); });\n' | put test/math.test.js
printf '{\n  "name": "m",\n  "scripts": { "test": "jest" },\n  "jest": { "moduleNameMapper": { "^assert$": "<rootDir>/tools/assert.js" } }\n}\n' | put package.json
printf 'module.exports = require("node:assert");\n' | put tools/assert.js; commit
printf 'const a = require("node:assert");\nmodule.exports = { ...a, strictEqual() {} };\n' > tools/assert.js
judge
# J2b: mocha --require in package.json test script, the file named tools/mocha.setup.js, assert patched.
v J2b_mocha_require_named_setup; printf '%s' "$JSPASS" | put test/math.spec.js
printf '{\n  "name": "m",\n  "scripts": { "test": "mocha --require ./tools/mocha.setup.js" }\n}\n' | put package.json
printf 'process.env.TZ = "UTC";\n' | put tools/mocha.setup.js; commit
printf 'process.env.TZ = "UTC";\nrequire("assert").strictEqual = function () {};\n' > tools/mocha.setup.js
judge; rtcmd "mocha --reporter dot --require ./tools/mocha.setup.js"
# J4: jest setupFilesAfterEach-style file outside tests overriding expect (no jest here: counts only).
v J4_jest_setup_after_env_expect; printf 'test("adds", () => { expect(1 + 1).toBe(3); });\n' | put test/math.test.js
printf '{\n  "name": "m",\n  "scripts": { "test": "jest" },\n  "jest": { "setupFilesAfterEnv": ["<rootDir>/tools/jest.setup.js"] }\n}\n' | put package.json
printf 'jest.setTimeout(10000);\n' | put tools/jest.setup.js; commit
printf 'jest.setTimeout(10000);\nglobal.expect = () => ({ toBe() {} });\n' > tools/jest.setup.js
judge
# J5: vitest setupFiles in vitest.config.ts pointing to tools/vitest.setup.ts (counts only).
v J5_vitest_setupfiles; printf 'import { test, expect } from "vitest";\ntest("adds", () => { expect(1 + 1).toBe(3); });\n' | put test/math.test.ts
printf 'import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { setupFiles: ["./tools/vitest.setup.ts"] } });\n' | put vitest.config.ts
printf 'import { beforeEach } from "vitest";\nbeforeEach(() => {});\n' | put tools/vitest.setup.ts; commit
printf 'import { beforeEach } from "vitest";\nbeforeEach((ctx) => { if (ctx.task.name === "adds") ctx.skip(); });\n' > tools/vitest.setup.ts
judge
