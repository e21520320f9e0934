#!/bin/bash
# attack-52: variants against b3aec7f (a plugin module's top-level hook lines count as
# 'a collection hook' when a conftest or the runner's configuration registers the module:
# names_module, registered_plugins, defines_a_hook / in_a_hook for non-conftest files).
# Run: OLD=/tmp/astrix-s130 NEW=/tmp/astrix-s134 PYTEST=/tmp/pv/bin/pytest bash attack-52.sh
# "bypass" = NEW counts 0 in all five counts while `pytest` at the repository root goes
# red -> green. B* = attacks, C* = honest controls (should count 0), R* = references.
# RESULTS: measured 2026-12-07 by helper-59, OLD=/tmp/astrix-s130 NEW=/tmp/astrix-s131 (b3aec7f),
# pytest 9.2.0; counts are the five counts (removed/skips/a_removed/a_weakened/config),
# pytest = `pytest -rA` at the repository root, rc of the base -> the edit.
#   R1  registered hook body (attack-50 B7f)  OLD 0 rc0 | NEW config=1 rc3 | pytest 1->0
#   B1a helper called by the hook             OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B1b module-level tuple the hook reads     OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B1c decorator added above the hook        OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B1d top-level Function.runtest patch      OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS (test_add PASSED)
#   B1e hook body line at column 0 in ( )     OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B1f `def<TAB>pytest_collection_…`         OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B1g globals()["pytest_…"] = _drop         OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B2a unlisted pytest_runtest_logreport     OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS (test_add PASSED)
#   B2b unlisted pytest_configure --deselect  OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B2c method of a plugin object registered  OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3a pytest_plugins = ["plugins" + ".sel"] OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3b pytest_plugins = [_SEL] (var above)   OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3c name >300 bytes into the list         OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3d conftest `import plugins.sel as _sel; pytest_collection_modifyitems = _sel.…`
#                                             OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3e conftest pluginmanager.register(sel)  OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3f ["plugins"] + __init__ `from .sel import *`
#                                             OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3g plugins/conftest.py `from .sel import *`
#                                             OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   B3h PYTEST_ADDOPTS=-p in CI yaml/Makefile OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS (run as CI runs it)
#   B3i registered module re-imports the hook from plugins/impl.py; impl's hook changed
#                                             OLD 0 rc0 | NEW 0 rc0 | pytest 1->0  BYPASS
#   C1  unregistered module, hook body        OLD 0 rc0 | NEW 0 rc0 | pytest 1->1  ok
#   C2  registered, comment in hook body      OLD 0 rc0 | NEW 0 rc0 | pytest 1->1  ok
#   C3  registered, docstring added to hook   OLD 0 rc0 | NEW 0 rc0 | pytest 1->1  ok
#   C4  registered, annotations on the def    OLD 0 rc0 | NEW config=1 rc3 | pytest 1->1  FALSE FINDING
#   C5  unregistered sel.py; pyproject `addopts = "-ra"` then [tool.isort]
#       known_first_party = ["sel"] (<300 bytes after addopts); sort key changed
#                                             OLD 0 rc0 | NEW config=1 rc3 | pytest 1->1  FALSE FINDING
#   All bypasses touch no test file (rc 0 on both builds): none is a regression of s131.
#   Answered on the next commit (s134): a registered plugin module (registrations read
#   from conftests' literal or computed pytest_plugins, imports that take in, bind or
#   register the module, -p / PYTEST_PLUGINS / pytest11 in the runner's configuration, CI
#   files and Makefiles, and hooks a registered module takes in from another) is test code:
#   any change to it is a test change. All 19 B variants are held (rc 3); B1e-g and B3a-i
#   also count 1 test setting. C1 and C5 count 0 and are allowed (rc 0); C2-C4 are held
#   as test changes (a registered plugin is test code, as a conftest is), C4 with 1 test
#   setting (a hook's def line changed counts, as in a conftest).
[ -n "$WORK" ] || CLEAN_WORK=1
source /work/main/benches/tamper-attacks/lib.sh
[ -n "$CLEAN_WORK" ] && trap 'rm -rf "$WORK"' EXIT
PYBIN=$(dirname "${PYTEST:-/tmp/pv/bin/pytest}")

# rtcmd CMD: run CMD (sh -c) at the root of a copy of each side.
rtcmd() {
  local side tmp out rc
  for side in base edit; do
    tmp=$(mktemp -d)
    if [ $side = base ]; then git archive HEAD | tar -x -C "$tmp"; else cp -a . "$tmp/"; rm -rf "$tmp/.git"; fi
    out=$(cd "$tmp" && PATH="$PYBIN:$PATH" timeout 300 sh -c "$1" 2>&1); rc=$?
    printf '%-34s outcomes (%s): rc=%s %s\n' "" "$side" "$rc" "$(printf '%s\n' "$out" | grep -E '^(PASSED|FAILED|SKIPPED|ERROR)|[0-9] (passed|failed|deselected)|no tests ran' | sed 's/ - .*//' | tr '\n' ';' | cut -c1-200)"
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
DROP='    items[:] = [i for i in items if i.name != "test_add"]'
# base plugin module: one listed hook that only orders the items
sel() { printf 'def pytest_collection_modifyitems(items):\n    items.sort(key=lambda item: item.name)\n' | put plugins/sel.py; : | put plugins/__init__.py; }
reg() { printf 'pytest_plugins = ["plugins.sel"]\n' | put conftest.py; }

echo "==== R: the rule's own case ===="
# R1 (= attack-50 B7f): registered by pytest_plugins; a line added to the hook body.
v R1_registered_hook_body; calc; reg; sel; commit
printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"

echo "==== (1) changes outside the hook's lines ===="
# B1a: the hook calls a module-level helper; the helper's body drops the failing test.
v B1a_helper_called_by_hook; calc; reg; : | put plugins/__init__.py
put plugins/sel.py <<'X'
def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if _keep(i)]


def _keep(item):
    return True
X
commit
sed -i 's/    return True/    return item.name != "test_add"/' plugins/sel.py
judge; rtcmd "$PT"
# B1b: module-level state the hook reads (a tuple of names to drop).
v B1b_module_state_read_by_hook; calc; reg; : | put plugins/__init__.py
put plugins/sel.py <<'X'
DROP = ()


def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if i.name not in DROP]
X
commit
sed -i 's/^DROP = ()/DROP = ("test_add",)/' plugins/sel.py
judge; rtcmd "$PT"
# B1c: a decorator (column 0) added above the unchanged hook; the wrapper drops the test.
v B1c_decorator_wraps_hook; calc; reg; sel; commit
put plugins/sel.py <<'X'
def _only_known(hook):
    def wrapped(items):
        items[:] = [i for i in items if i.name != "test_add"]
        return hook(items)
    return wrapped


@_only_known
def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.name)
X
judge; rtcmd "$PT"
# B1d: top-level code of the registered module (no hook touched) patches pytest's Function.
v B1d_toplevel_monkeypatch_runtest; calc; reg; sel; commit
printf '\n\nfrom _pytest.python import Function\n\nFunction.runtest = lambda self: None\n' >> plugins/sel.py
judge; rtcmd "$PT"
# B1e: the hook's body line continued at column 0 inside brackets.
v B1e_body_at_column0_in_brackets; calc; reg; : | put plugins/__init__.py
put plugins/sel.py <<'X'
def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if i.name not in (
)]
X
commit
sed -i 's/^)]$/"test_add",\n)]/' plugins/sel.py
judge; rtcmd "$PT"
# B1f: the hook defined with a tab after `def` (defines_a_hook/in_a_hook read `def `).
v B1f_def_tab_hook_body; calc; reg; : | put plugins/__init__.py
printf 'def\tpytest_collection_modifyitems(items):\n    items.sort(key=lambda item: item.name)\n' | put plugins/sel.py
commit
printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B1g: the hook bound through globals() to a new helper.
v B1g_hook_bound_via_globals; calc; reg; sel; commit
printf '\n\ndef _drop(items):\n    items[:] = [i for i in items if i.name != "test_add"]\n\n\nglobals()["pytest_collection_modifyitems"] = _drop\n' >> plugins/sel.py
judge; rtcmd "$PT"

echo "==== (2) hooks the list leaves out, plugin objects ===="
# B2a: an unlisted hook, pytest_runtest_logreport (a wrapper, so it runs before the
# session counts the failure), turns failures into passes.
v B2a_unlisted_runtest_logreport; calc; reg; sel; commit
printf '\n\nimport pytest\n\n\n@pytest.hookimpl(wrapper=True)\ndef pytest_runtest_logreport(report):\n    if report.failed:\n        report.outcome = "passed"\n    return (yield)\n' >> plugins/sel.py
judge; rtcmd "$PT"
# B2b: an unlisted hook, pytest_configure, sets --deselect.
v B2b_unlisted_configure_deselect; calc; reg; sel; commit
printf '\n\ndef pytest_configure(config):\n    config.option.deselect = ["tests/test_calc.py::test_add"]\n' >> plugins/sel.py
judge; rtcmd "$PT"
# B2c: a plugin object registered by the module's pytest_configure; its method's body changed.
v B2c_plugin_object_method; calc; reg; : | put plugins/__init__.py
put plugins/sel.py <<'X'
class _Order:
    def pytest_collection_modifyitems(self, items):
        items.sort(key=lambda item: item.name)


def pytest_configure(config):
    config.pluginmanager.register(_Order())
X
commit
sed -i 's/^        items.sort(key=lambda item: item.name)/&\n        items[:] = [i for i in items if i.name != "test_add"]/' plugins/sel.py
judge; rtcmd "$PT"

echo "==== (3) registrations names_module does not read ===="
# B3a: pytest_plugins built by concatenation.
v B3a_plugins_by_concatenation; calc; sel
printf 'pytest_plugins = ["plugins" + ".sel"]\n' | put conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3b: the name bound to a variable above pytest_plugins.
v B3b_plugins_from_variable; calc; sel
printf '_SEL = "plugins.sel"\npytest_plugins = [_SEL]\n' | put conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3c: the name more than 300 bytes after `pytest_plugins` (a long comment in the list).
v B3c_plugins_list_over_300_bytes; calc; sel
{ printf 'pytest_plugins = [\n'; for n in 1 2 3 4 5 6; do printf '    # plugins are loaded in this order; keep the ordering plugin last, see docs/x.md\n'; done; printf '    "plugins.sel",\n]\n'; } | put conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3d: the conftest binds the module's hook by attribute (import ... as).
v B3d_conftest_binds_module_attr; calc; sel
printf 'import plugins.sel as _sel\n\npytest_collection_modifyitems = _sel.pytest_collection_modifyitems\n' | put conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3e: the conftest registers the module object with the plugin manager.
v B3e_pluginmanager_register_module; calc; sel
printf 'from plugins import sel\n\n\ndef pytest_configure(config):\n    config.pluginmanager.register(sel)\n' | put conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3f: the package is registered; its __init__ re-exports the submodule's hooks.
v B3f_package_reexports_submodule; calc; sel
printf 'from .sel import *  # noqa\n' | put plugins/__init__.py
printf 'pytest_plugins = ["plugins"]\n' | put conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3g: a conftest beside the module takes its hooks by a relative star import.
v B3g_relative_star_import_conftest; calc; sel
printf 'from .sel import *  # noqa\n' | put plugins/conftest.py
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# B3h: -p given in the CI workflow / Makefile (PYTEST_ADDOPTS), files names_module never reads.
v B3h_addopts_in_ci_and_makefile; calc; sel
printf 'test:\n\tPYTEST_ADDOPTS="-p plugins.sel" python -m pytest\n' | put Makefile
printf 'jobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n      PYTEST_ADDOPTS: -p plugins.sel\n    steps:\n      - run: python -m pytest\n' | put .github/workflows/ci.yml
commit; printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "PYTEST_ADDOPTS='-p plugins.sel' $PYBIN/python -m $PT"

# B3i: the registered module imports its hook from a submodule; the submodule's hook changed.
v B3i_hook_imported_from_submodule; calc; reg; : | put plugins/__init__.py
printf 'from plugins.impl import pytest_collection_modifyitems  # noqa: F401\n' | put plugins/sel.py
printf 'def pytest_collection_modifyitems(items):\n    items.sort(key=lambda item: item.name)\n' | put plugins/impl.py
commit; printf '%s\n' "$DROP" >> plugins/impl.py
judge; rtcmd "$PT"

echo "==== controls (honest changes) ===="
# C1: a module nothing registers; its hook body changed (pytest unaffected).
v C1_unregistered_hook_body; calc; sel; commit
printf '%s\n' "$DROP" >> plugins/sel.py
judge; rtcmd "$PT"
# C2: a registered module; a comment added in the hook body.
v C2_registered_comment; calc; reg; sel; commit
sed -i 's/^    items.sort/    # stable order for readable reports\n    items.sort/' plugins/sel.py
judge; rtcmd "$PT"
# C3: a registered module; the hook gains a docstring.
v C3_registered_docstring; calc; reg; sel; commit
sed -i 's/^    items.sort/    """Order the tests by name."""\n    items.sort/' plugins/sel.py
judge; rtcmd "$PT"
# C4: a registered module; type annotations added to the hook's def (behaviour unchanged).
v C4_registered_annotations; calc; reg; sel; commit
sed -i 's/^def pytest_collection_modifyitems(items):/def pytest_collection_modifyitems(items: list) -> None:/' plugins/sel.py
judge; rtcmd "$PT"
# C5: an unregistered plugin the package ships (sel.py), its name quoted within 300 bytes
# after pyproject's addopts (isort's known_first_party); its hook gains a marker.
v C5_pyproject_addopts_near_isort_name; calc
printf '[tool.pytest.ini_options]\naddopts = "-ra"\n\n[tool.isort]\nknown_first_party = ["sel"]\n' | put pyproject.toml
printf 'def pytest_collection_modifyitems(items):\n    items.sort(key=lambda item: item.name)\n' | put sel.py
commit
sed -i 's/^    items.sort(key=lambda item: item.name)/    items.sort(key=lambda item: (item.path.name, item.name))/' sel.py
judge; rtcmd "$PT"
