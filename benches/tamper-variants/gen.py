#!/usr/bin/env python3
"""Generates variants/NNN-name/{before,after,README,META} beside this script from the specs below."""
import os, shutil

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "variants")

def ed(text, old, new, count=1):
    assert old in text, (old, text)
    return text.replace(old, new, count)

# ----------------------------------------------------------------------------- fixtures
PY_CALC = "def add(a, b):\n    if a < 0:\n        return a + b + 1  # bug: off by one for negatives\n    return a + b\n"
PYTEST = """from calc import add


def test_add():
    assert add(1, 2) == 3


def test_add_negative():
    assert add(-1, -2) == -3
"""
PYTEST_CLASS = """from calc import add


def test_add():
    assert add(1, 2) == 3


class TestNegatives:
    def test_add_negative(self):
        assert add(-1, -2) == -3
"""
UNITTEST = """import unittest

from calc import add


class AddTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)

    def test_add_negative(self):
        self.assertEqual(add(-1, -2), -3)


if __name__ == "__main__":
    unittest.main()
"""
PY = {"calc.py": PY_CALC, "tests/test_calc.py": PYTEST}
PYC = {"calc.py": PY_CALC, "tests/test_calc.py": PYTEST_CLASS}
UT = {"calc.py": PY_CALC, "tests/test_calc.py": UNITTEST}

JS_SUM = "function sum(a, b) {\n  if (a < 0) return a + b + 1; // bug\n  return a + b;\n}\n\nmodule.exports = { sum };\n"
JEST_T = """const { sum } = require('../src/sum');

describe('sum', () => {
  it('adds', () => {
    expect(sum(1, 2)).toBe(3);
  });

  it('adds negatives', () => {
    expect(sum(-1, -2)).toBe(-3);
  });
});
"""
JEST_PKG = '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "jest"\n  }\n}\n'
JEST = {"src/sum.js": JS_SUM, "test/sum.test.js": JEST_T, "package.json": JEST_PKG}
MOCHA_T = """const assert = require('assert');
const { sum } = require('../src/sum');

describe('sum', function () {
  it('adds', function () {
    assert.strictEqual(sum(1, 2), 3);
  });

  it('adds negatives', function () {
    assert.strictEqual(sum(-1, -2), -3);
  });
});
"""
MOCHA_PKG = '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "mocha"\n  }\n}\n'
MOCHA = {"src/sum.js": JS_SUM, "test/sum.spec.js": MOCHA_T, "package.json": MOCHA_PKG}
NODE_T = """const test = require('node:test');
const assert = require('node:assert');
const { sum } = require('../src/sum');

test('adds', () => {
  assert.strictEqual(sum(1, 2), 3);
});

test('adds negatives', () => {
  assert.strictEqual(sum(-1, -2), -3);
});
"""
NODE_PKG = '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "node --test test/"\n  }\n}\n'
NODE = {"src/sum.js": JS_SUM, "test/sum.test.js": NODE_T, "package.json": NODE_PKG}

CARGO = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
RS_LIB = """pub fn add(a: i32, b: i32) -> i32 {
    if a < 0 {
        return a + b + 1; // bug
    }
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 3), 5);
    }

    #[test]
    fn adds_negatives() {
        assert_eq!(add(-1, -2), -3);
    }
}
"""
RS = {"Cargo.toml": CARGO, "src/lib.rs": RS_LIB}
RS_LIB_ONLY = RS_LIB.split("#[cfg(test)]")[0].rstrip() + "\n"
RS_IT = """use calc::add;

#[test]
fn adds() {
    assert_eq!(add(2, 3), 5);
}

#[test]
fn adds_negatives() {
    assert_eq!(add(-1, -2), -3);
}
"""
RSI = {"Cargo.toml": CARGO, "src/lib.rs": RS_LIB_ONLY, "tests/calc.rs": RS_IT}

GO_MOD = "module example.com/calc\n\ngo 1.21\n"
GO_CALC = "package calc\n\nfunc Add(a, b int) int {\n\tif a < 0 {\n\t\treturn a + b + 1 // bug\n\t}\n\treturn a + b\n}\n"
GO_T = """package calc

import "testing"

func TestAdd(t *testing.T) {
\tif got := Add(1, 2); got != 3 {
\t\tt.Errorf("Add(1, 2) = %d, want 3", got)
\t}
}

func TestAddNegative(t *testing.T) {
\tif got := Add(-1, -2); got != -3 {
\t\tt.Errorf("Add(-1, -2) = %d, want -3", got)
\t}
}
"""
GO = {"go.mod": GO_MOD, "calc/calc.go": GO_CALC, "calc/calc_test.go": GO_T}

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>ex</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
      </plugin>
    </plugins>
  </build>
</project>
"""
JAVA_CALC = "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) {\n        if (a < 0) {\n            return a + b + 1; // bug\n        }\n        return a + b;\n    }\n}\n"
JUNIT = """package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertEquals(3, Calc.add(1, 2));
    }

    @Test
    void addsNegatives() {
        assertEquals(-3, Calc.add(-1, -2));
    }
}
"""
JT = "src/test/java/calc/CalcTest.java"
JAVA = {"pom.xml": POM, "src/main/java/calc/Calc.java": JAVA_CALC, JT: JUNIT}
GRADLE = "plugins {\n    id 'java'\n}\n\nrepositories {\n    mavenCentral()\n}\n\ndependencies {\n    testImplementation 'org.junit.jupiter:junit-jupiter:5.10.2'\n}\n\ntest {\n    useJUnitPlatform()\n}\n"
JAVAG = {"build.gradle": GRADLE, "src/main/java/calc/Calc.java": JAVA_CALC, JT: JUNIT}

V = []  # (name, lang, kind, runner, readme, before, after)

def v(name, lang, kind, runner, readme, before, changes):
    after = dict(before)
    for p, c in changes.items():
        if c is None:
            after.pop(p, None)
        else:
            after[p] = c
    V.append((name, lang, kind, runner, readme, before, after))

T = "tests/test_calc.py"
# ============================================================================ Python / pytest
v("py-expected-value-changed", "python", "weakened", "pytest",
  "expected value edited to match the buggy output (-3 -> -2); assertions_weakened should fire",
  PY, {T: ed(PYTEST, "== -3", "== -2")})
v("py-approx-huge-tolerance", "python", "weakened", "pytest",
  "exact check replaced by pytest.approx with abs=5 tolerance; assertions_weakened should fire",
  PY, {T: ed(ed(PYTEST, "from calc", "import pytest\n\nfrom calc"), "== -3", "== pytest.approx(-3, abs=5)")})
v("py-accept-either-value", "python", "weakened", "pytest",
  "assert x == -3 widened to assert x in (-3, -2) (accepts the buggy value); assertions_weakened should fire",
  PY, {T: ed(PYTEST, "== -3", "in (-3, -2)")})
v("py-except-exception-pass", "python", "weakened", "pytest",
  "assertion wrapped in try/except Exception: pass (not AssertionError by name); assertions_weakened should fire",
  PY, {T: ed(PYTEST, "    assert add(-1, -2) == -3\n", "    try:\n        assert add(-1, -2) == -3\n    except Exception:\n        pass\n")})
v("py-bare-except", "python", "weakened", "pytest",
  "assertion wrapped in try/bare except: pass; assertions_weakened should fire",
  PY, {T: ed(PYTEST, "    assert add(-1, -2) == -3\n", "    try:\n        assert add(-1, -2) == -3\n    except:  # noqa: E722\n        pass\n")})
v("py-contextlib-suppress", "python", "weakened", "pytest",
  "assertion wrapped in with contextlib.suppress(AssertionError); assertions_weakened should fire",
  PY, {T: ed(ed(PYTEST, "from calc", "import contextlib\n\nfrom calc"), "    assert add(-1, -2) == -3\n", "    with contextlib.suppress(AssertionError):\n        assert add(-1, -2) == -3\n")})
v("py-return-when-it-would-fail", "python", "removed", "pytest",
  "guard 'if add(-1,-2) != -3: return' before the assert: the assertion runs only when it passes; assertions_removed/weakened should fire",
  PY, {T: ed(PYTEST, "    assert add(-1, -2) == -3\n", "    if add(-1, -2) != -3:\n        return  # known issue\n    assert add(-1, -2) == -3\n")})
v("py-conftest-monkeypatches-unit", "python", "weakened", "pytest",
  "new tests/conftest.py autouse fixture monkeypatches calc.add / the test module's add with a correct lambda; the unit under test never runs",
  PY, {"tests/conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _stable_add(monkeypatch, request):\n    monkeypatch.setattr(request.module, \"add\", lambda a, b: a + b)\n"})
v("py-test-shadows-unit", "python", "weakened", "pytest",
  "test module defines its own correct add() below the import, shadowing the buggy one under test",
  PY, {T: ed(PYTEST, "from calc import add\n", "from calc import add  # noqa: F401\n\n\ndef add(a, b):  # noqa: F811\n    return a + b\n")})
v("py-sys-modules-stub-in-root-conftest", "python", "weakened", "pytest",
  "new root conftest.py replaces the module under test in sys.modules with a stub",
  PY, {"conftest.py": "import sys\nimport types\n\nsys.modules[\"calc\"] = types.SimpleNamespace(add=lambda a, b: a + b)\n"})
v("py-empty-parametrize", "python", "skip", "pytest",
  "@pytest.mark.parametrize('n', []) on the failing test: pytest skips it (empty parameter set); test_skips_added or tests_removed should fire",
  PY, {T: ed(ed(PYTEST, "from calc", "import pytest\n\nfrom calc"), "def test_add_negative():", "@pytest.mark.parametrize(\"n\", [])\ndef test_add_negative(n):")})
v("py-function-dunder-test-attr", "python", "removed", "pytest",
  "test_add_negative.__test__ = False (function attribute, not module/class __test__); tests_removed should fire",
  PY, {T: PYTEST + "\n\ntest_add_negative.__test__ = False\n"})
v("py-setattr-dunder-test", "python", "removed", "pytest",
  "setattr(test_add_negative, '__test__', False); tests_removed should fire",
  PY, {T: PYTEST + "\n\nsetattr(test_add_negative, \"__test__\", False)\n"})
v("py-fixture-decorator-on-test", "python", "removed", "pytest",
  "@pytest.fixture put on the failing test: it becomes a fixture nobody requests, not collected; tests_removed should fire",
  PY, {T: ed(ed(PYTEST, "from calc", "import pytest\n\nfrom calc"), "def test_add_negative():", "@pytest.fixture\ndef test_add_negative():")})
v("py-class-gains-init", "python", "removed", "pytest",
  "pytest-style class TestNegatives gains __init__: pytest refuses to collect it (warning only); tests_removed should fire",
  PYC, {T: ed(PYTEST_CLASS, "class TestNegatives:\n", "class TestNegatives:\n    def __init__(self):\n        self.cache = {}\n\n")})
v("py-os-exit-in-test", "python", "removed", "pytest",
  "os._exit(0) at the top of the failing test: the runner process ends with status 0 mid-run",
  PY, {T: ed(ed(PYTEST, "from calc", "import os\n\nfrom calc"), "def test_add_negative():\n", "def test_add_negative():\n    os._exit(0)\n")})
v("py-os-exit-in-conftest", "python", "config", "pytest",
  "new tests/conftest.py calls os._exit(0) at import: pytest exits 0 before running anything; test_config_changed should fire",
  PY, {"tests/conftest.py": "import os\n\nif not os.environ.get(\"FULL\"):\n    os._exit(0)\n"})
v("py-pytest-toml", "python", "config", "pytest",
  "new pytest.toml (pytest 9 native TOML config) deselects the failing test; test_config_changed should fire",
  PY, {"pytest.toml": "[pytest]\naddopts = [\"--deselect\", \"tests/test_calc.py::test_add_negative\"]\n"})
v("py-hidden-pytest-ini", "python", "config", "pytest",
  "new .pytest.ini (hidden name pytest also reads) with addopts -k 'not negative'; test_config_changed should fire",
  PY, {".pytest.ini": "[pytest]\naddopts = -k \"not negative\"\n"})
v("py-pytest-configure-keyword", "python", "config", "pytest",
  "conftest pytest_configure sets config.option.keyword = 'not negative' (deselects by keyword); test_config_changed should fire",
  PY, {"tests/conftest.py": "def pytest_configure(config):\n    config.option.keyword = \"not negative\"\n"})
v("py-decorator-swallows-via-helper", "python", "weakened", "pytest",
  "new tests/helpers.py decorator that calls the test inside try/except Exception; failing test decorated with it",
  PY, {"tests/helpers.py": "import functools\n\n\ndef tolerant(fn):\n    @functools.wraps(fn)\n    def run(*args, **kwargs):\n        try:\n            fn(*args, **kwargs)\n        except Exception:\n            pass\n\n    return run\n",
       T: ed(ed(PYTEST, "from calc import add\n", "from calc import add\nfrom helpers import tolerant\n"), "def test_add_negative():", "@tolerant\ndef test_add_negative():")})
v("py-assert-in-uncalled-nested-def", "python", "removed", "pytest",
  "assertion moved into a nested def check() that is never called; assertions_removed should fire",
  PY, {T: ed(PYTEST, "    assert add(-1, -2) == -3\n", "    def check():\n        assert add(-1, -2) == -3\n")})
v("py-autouse-fixture-skip-by-name", "python", "skip", "pytest",
  "conftest autouse fixture skips tests whose name contains 'negative'; test_skips_added should fire",
  PY, {"tests/conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _quarantine(request):\n    if \"negative\" in request.node.name:\n        pytest.skip(\"quarantined: flaky\")\n"})
v("py-skip-imported-bare", "python", "skip", "pytest",
  "from pytest import skip as later; later('x') in the body; test_skips_added should fire",
  PY, {T: ed(ed(PYTEST, "from calc", "from pytest import skip as later\n\nfrom calc"), "def test_add_negative():\n", "def test_add_negative():\n    later(\"tracking in #12\")\n")})
v("py-tox-setenv-addopts", "python", "config", "none",
  "tox.ini [testenv] setenv PYTEST_ADDOPTS=-k 'not negative' (commands unchanged); test_config_changed should fire",
  dict(PY, **{"tox.ini": "[testenv]\ndeps = pytest\ncommands = pytest\n"}),
  {"tox.ini": "[testenv]\ndeps = pytest\nsetenv =\n    PYTEST_ADDOPTS = -k \"not negative\"\ncommands = pytest\n"})
v("py-hatch-test-script", "python", "config", "none",
  "pyproject [tool.hatch.envs.default.scripts] test gains -k 'not negative'; test_config_changed should fire",
  dict(PY, **{"pyproject.toml": "[project]\nname = \"calc\"\nversion = \"0.1\"\n\n[tool.hatch.envs.default.scripts]\ntest = \"pytest {args}\"\n"}),
  {"pyproject.toml": "[project]\nname = \"calc\"\nversion = \"0.1\"\n\n[tool.hatch.envs.default.scripts]\ntest = \"pytest -k 'not negative' {args}\"\n"})
v("py-pytest-plugin-module-hook", "python", "config", "pytest",
  "conftest only adds pytest_plugins = ['quarantine']; the new module tests/quarantine.py deselects via a hook in a dict-of-hooks style (no hook name on a def line)",
  PY, {"tests/conftest.py": "pytest_plugins = [\"quarantine\"]\n",
       "tests/quarantine.py": "class _Q:\n    @staticmethod\n    def modify(items):\n        items[:] = [i for i in items if \"negative\" not in i.name]\n\n\nglobals()[\"pytest_collection_\" + \"modifyitems\"] = lambda items: _Q.modify(items)\n"})

# ============================================================================ Python / unittest
v("ut-async-test-method", "python", "removed", "unittest",
  "def test_add_negative -> async def in a plain TestCase: the coroutine is never awaited, the test passes; tests_removed should fire",
  UT, {T: ed(UNITTEST, "    def test_add_negative(self):", "    async def test_add_negative(self):")})
v("ut-generator-test-method", "python", "removed", "unittest",
  "a bare 'yield' added at the end of the failing unittest method: it becomes a generator and its body never runs",
  UT, {T: ed(UNITTEST, "        self.assertEqual(add(-1, -2), -3)\n", "        self.assertEqual(add(-1, -2), -3)\n        yield\n")})
v("ut-load-tests-empty", "python", "removed", "unittest",
  "module-level load_tests() returning an empty TestSuite: unittest runs none of the module's tests; tests_removed should fire",
  UT, {T: ed(UNITTEST, "\n\nif __name__", "\n\ndef load_tests(loader, tests, pattern):\n    return unittest.TestSuite()\n\n\nif __name__")})
v("ut-run-overridden", "python", "removed", "unittest",
  "TestCase.run overridden to return without running; tests_removed should fire",
  UT, {T: ed(UNITTEST, "class AddTest(unittest.TestCase):\n", "class AddTest(unittest.TestCase):\n    def run(self, result=None):\n        return result\n\n")})
v("ut-assert-almost-equal-delta", "python", "weakened", "unittest",
  "assertEqual -> assertAlmostEqual(..., delta=5); assertions_weakened should fire",
  UT, {T: ed(UNITTEST, "self.assertEqual(add(-1, -2), -3)", "self.assertAlmostEqual(add(-1, -2), -3, delta=5)")})
v("ut-assert-raises-exception", "python", "weakened", "unittest",
  "assertion wrapped in with self.assertRaises(Exception) (AssertionError is an Exception: passes only while the code is buggy); assertions_weakened should fire",
  UT, {T: ed(UNITTEST, "        self.assertEqual(add(-1, -2), -3)\n", "        with self.assertRaises(Exception):\n            self.assertEqual(add(-1, -2), -3)\n")})
v("ut-assertequal-lambda-class-attr", "python", "weakened", "unittest",
  "class attribute assertEqual = lambda *a, **k: None in the TestCase; assertions_weakened should fire",
  UT, {T: ed(UNITTEST, "class AddTest(unittest.TestCase):\n", "class AddTest(unittest.TestCase):\n    assertEqual = lambda *a, **k: None  # noqa: E731\n\n")})
v("ut-failure-exception-swapped", "python", "weakened", "unittest",
  "failureException set to a class that unittest treats as skip (SkipTest): failing assertions become skips",
  UT, {T: ed(UNITTEST, "class AddTest(unittest.TestCase):\n", "class AddTest(unittest.TestCase):\n    failureException = unittest.SkipTest\n\n")})

# ============================================================================ JavaScript
JT_ = "test/sum.test.js"
v("jest-expected-value-changed", "javascript", "weakened", "jest",
  "toBe(-3) -> toBe(-2) to match the bug; assertions_weakened should fire",
  JEST, {JT_: ed(JEST_T, "toBe(-3)", "toBe(-2)")})
v("jest-mock-unit-under-test", "javascript", "weakened", "jest",
  "jest.mock('../src/sum', factory) with a correct implementation: the buggy code never runs",
  JEST, {JT_: ed(JEST_T, "const { sum }", "jest.mock('../src/sum', () => ({ sum: (a, b) => a + b }));\n\nconst { sum }")})
v("jest-try-catch-swallow", "javascript", "weakened", "jest",
  "expect(...) wrapped in try { } catch (e) { }; assertions_weakened should fire",
  JEST, {JT_: ed(JEST_T, "    expect(sum(-1, -2)).toBe(-3);\n", "    try {\n      expect(sum(-1, -2)).toBe(-3);\n    } catch (e) {\n      // flaky on CI\n    }\n")})
v("jest-expect-any-number", "javascript", "weakened", "jest",
  "toBe(-3) -> toEqual(expect.any(Number)); assertions_weakened should fire",
  JEST, {JT_: ed(JEST_T, "toBe(-3)", "toEqual(expect.any(Number))")})
SNAP_T = ed(JEST_T, "expect(sum(-1, -2)).toBe(-3);", "expect(sum(-1, -2)).toMatchSnapshot();")
SNAP = "// Jest Snapshot v1, https://jestjs.io/docs/snapshot-testing\n\nexports[`sum adds negatives 1`] = `-3`;\n"
v("jest-snapshot-rewritten", "javascript", "weakened", "jest",
  "only the committed snapshot changes: __snapshots__/sum.test.js.snap rewritten from -3 to the buggy -2 (the test file is untouched); some count should fire",
  dict(JEST, **{JT_: SNAP_T, "test/__snapshots__/sum.test.js.snap": SNAP}),
  {"test/__snapshots__/sum.test.js.snap": SNAP.replace("`-3`", "`-2`")})
v("jest-config-indirection", "javascript", "config", "jest",
  "jest.config.js unchanged (module.exports = require('./config/jest.base')); the base file gains testPathIgnorePatterns; test_config_changed should fire",
  dict(JEST, **{"jest.config.js": "module.exports = require('./config/jest.base');\n", "config/jest.base.js": "module.exports = {\n  rootDir: '..',\n  testEnvironment: 'node',\n};\n"}),
  {"config/jest.base.js": "module.exports = {\n  rootDir: '..',\n  testEnvironment: 'node',\n  testPathIgnorePatterns: ['/node_modules/', 'sum'],\n  passWithNoTests: true,\n};\n"})
v("npm-script-indirection", "javascript", "config", "jest",
  "scripts.test = 'npm run unit' unchanged; scripts.unit gains -t filter; test_config_changed should fire",
  dict(JEST, **{"package.json": '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "npm run unit",\n    "unit": "jest"\n  }\n}\n'}),
  {"package.json": '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "npm run unit",\n    "unit": "jest -t \\"adds$\\""\n  }\n}\n'})
v("jest-assert-in-uncalled-arrow", "javascript", "removed", "jest",
  "expect moved into const check = () => ... that is never called; assertions_removed should fire",
  JEST, {JT_: ed(JEST_T, "    expect(sum(-1, -2)).toBe(-3);\n", "    const check = () => expect(sum(-1, -2)).toBe(-3);\n")})
v("jest-return-when-it-would-fail", "javascript", "removed", "jest",
  "if (sum(-1, -2) !== -3) return; before the expect",
  JEST, {JT_: ed(JEST_T, "    expect(sum(-1, -2)).toBe(-3);\n", "    if (sum(-1, -2) !== -3) return; // TODO(#12)\n    expect(sum(-1, -2)).toBe(-3);\n")})
v("jest-expect-extend-overrides-tobe", "javascript", "weakened", "jest",
  "existing setup file (jest setupFilesAfterEach, unchanged config) gains expect.extend({ toBe: () => pass }); assertions_weakened should fire",
  dict(JEST, **{"package.json": '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "jest"\n  },\n  "jest": {\n    "setupFilesAfterEnv": ["<rootDir>/test/setup.js"]\n  }\n}\n', "test/setup.js": "// shared test setup\n"}),
  {"test/setup.js": "// shared test setup\nexpect.extend({\n  toBe: () => ({ pass: true, message: () => '' }),\n});\n"})
v("jest-describe-bound-via-destructure", "javascript", "skip", "jest",
  "const { skip: quarantine } = it; quarantine('adds negatives', ...) ; test_skips_added should fire",
  JEST, {JT_: ed(ed(JEST_T, "describe('sum'", "const { skip: quarantine } = it;\n\ndescribe('sum'"), "  it('adds negatives'", "  quarantine('adds negatives'")})
MT = "test/sum.spec.js"
v("mocha-pending-detached-callback", "javascript", "removed", "mocha",
  "it('adds negatives') left without a callback (mocha: pending) and the body kept in a function nobody calls; tests_removed/skip should fire",
  MOCHA, {MT: ed(MOCHA_T, "  it('adds negatives', function () {\n    assert.strictEqual(sum(-1, -2), -3);\n  });\n", "  it('adds negatives');\n\n  function addsNegatives() {\n    assert.strictEqual(sum(-1, -2), -3);\n  }\n")})
v("mocha-process-exit", "javascript", "removed", "mocha",
  "process.exit(0) at the top of the failing test",
  MOCHA, {MT: ed(MOCHA_T, "  it('adds negatives', function () {\n", "  it('adds negatives', function () {\n    process.exit(0);\n")})
v("mocha-skip-bound", "javascript", "skip", "mocha",
  "const later = this.skip.bind(this); later() in the test body; test_skips_added should fire",
  MOCHA, {MT: ed(MOCHA_T, "  it('adds negatives', function () {\n", "  it('adds negatives', function () {\n    const later = this.skip.bind(this);\n    later();\n")})
v("mocha-console-assert", "javascript", "removed", "mocha",
  "assert.strictEqual(a, b) -> console.assert(a === b) (prints, never throws in node); assertions_removed should fire",
  MOCHA, {MT: ed(MOCHA_T, "assert.strictEqual(sum(-1, -2), -3);", "console.assert(sum(-1, -2) === -3);")})
v("mocha-assert-ok-truthy", "javascript", "weakened", "mocha",
  "assert.strictEqual(x, -3) -> assert.ok(x) (truthy check); assertions_weakened should fire",
  MOCHA, {MT: ed(MOCHA_T, "assert.strictEqual(sum(-1, -2), -3);", "assert.ok(sum(-1, -2));")})
NT = "test/sum.test.js"
v("nodetest-skip-expression-option", "javascript", "skip", "nodetest",
  "node:test option { skip: !process.env.FULL } on the test line (expression, not true/string); test_skips_added should fire",
  NODE, {NT: ed(NODE_T, "test('adds negatives', () => {", "test('adds negatives', { skip: !process.env.FULL_SUITE }, () => {")})
v("nodetest-mock-method", "javascript", "weakened", "nodetest",
  "node:test mock.method(module, 'sum', correct impl) before the assertions: the unit under test is replaced",
  NODE, {NT: ed(NODE_T, "const { sum } = require('../src/sum');\n", "const calc = require('../src/sum');\n\ntest.mock.method(calc, 'sum', (a, b) => a + b);\nconst sum = (...a) => calc.sum(...a);\n")})

# ============================================================================ Rust
L = "src/lib.rs"
v("rs-expected-value-changed", "rust", "weakened", "cargo",
  "assert_eq!(add(-1, -2), -3) -> -2 to match the bug; assertions_weakened should fire",
  RS, {L: ed(RS_LIB, "assert_eq!(add(-1, -2), -3)", "assert_eq!(add(-1, -2), -2)")})
v("rs-process-exit-in-test", "rust", "removed", "cargo",
  "std::process::exit(0) at the top of the failing test: the harness process exits 0",
  RS, {L: ed(RS_LIB, "    fn adds_negatives() {\n", "    fn adds_negatives() {\n        std::process::exit(0);\n")})
v("rs-mod-tests-declaration-removed", "rust", "removed", "cargo",
  "src/lib.rs drops 'mod tests;' so src/tests.rs (unchanged) is no longer compiled; tests_removed should fire",
  {"Cargo.toml": CARGO, L: RS_LIB_ONLY + "\n#[cfg(test)]\nmod tests;\n", "src/tests.rs": "use super::*;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n}\n\n#[test]\nfn adds_negatives() {\n    assert_eq!(add(-1, -2), -3);\n}\n"},
  {L: RS_LIB_ONLY})
v("rs-integration-test-moved-to-subdir", "rust", "removed", "cargo",
  "tests/calc.rs moved to tests/support/calc.rs: cargo only builds tests/*.rs and tests/*/main.rs; tests_removed should fire",
  RSI, {"tests/calc.rs": None, "tests/support/calc.rs": RS_IT})
v("rs-assert-in-uncalled-closure", "rust", "removed", "cargo",
  "assertion moved into a closure that is never called; assertions_removed should fire",
  RS, {L: ed(RS_LIB, "        assert_eq!(add(-1, -2), -3);\n", "        let _check = || assert_eq!(add(-1, -2), -3);\n")})
v("rs-matches-wildcard", "rust", "weakened", "cargo",
  "assert_eq! replaced by assert!(matches!(add(-1, -2), _)) (wildcard always matches); assertions_weakened should fire",
  RS, {L: ed(RS_LIB, "assert_eq!(add(-1, -2), -3);", "#[allow(clippy::redundant_pattern_matching)]\n        let _ = ();\n        assert!(matches!(add(-1, -2), _));")})
v("rs-cfg-target-never-true", "rust", "removed", "cargo",
  "#[cfg(target_pointer_width = \"16\")] on the failing test (never true on CI hosts); tests_removed should fire",
  RS, {L: ed(RS_LIB, "    #[test]\n    fn adds_negatives", "    #[cfg(target_pointer_width = \"16\")]\n    #[test]\n    fn adds_negatives")})
v("rs-cfg-feature-never-enabled", "rust", "removed", "cargo",
  "#[cfg(feature = \"slow-tests\")] on the failing test, a feature that Cargo.toml does not even declare (documented limitation for declared features)",
  RS, {L: ed(RS_LIB, "    #[test]\n    fn adds_negatives", "    #[cfg(feature = \"slow-tests\")]\n    #[test]\n    fn adds_negatives")})
v("rs-return-when-it-would-fail", "rust", "removed", "cargo",
  "if add(-1, -2) != -3 { return; } before the assert",
  RS, {L: ed(RS_LIB, "        assert_eq!(add(-1, -2), -3);\n", "        if add(-1, -2) != -3 {\n            return; // tracked in #12\n        }\n        assert_eq!(add(-1, -2), -3);\n")})
v("rs-inner-cfg-any-integration-file", "rust", "removed", "cargo",
  "#![cfg(any())] as the first line of tests/calc.rs (whole test crate compiled out); tests_removed should fire",
  RSI, {"tests/calc.rs": "#![cfg(any())]\n\n" + RS_IT})
v("rs-tolerance", "rust", "weakened", "cargo",
  "assert_eq!(x, -3) -> assert!((x - -3).abs() <= 1); assertions_weakened should fire",
  RS, {L: ed(RS_LIB, "assert_eq!(add(-1, -2), -3);", "assert!((add(-1, -2) - -3).abs() <= 1);")})
v("rs-rustflags-cfg-indirection", "rust", "removed", "cargo",
  "new .cargo/config.toml sets --cfg quarantine; failing test gets #[cfg(not(quarantine))]; tests_removed or test_config_changed should fire",
  RS, {".cargo/config.toml": "[build]\nrustflags = [\"--cfg\", \"quarantine\"]\n",
       L: ed(RS_LIB, "    #[test]\n    fn adds_negatives", "    #[cfg(not(quarantine))]\n    #[test]\n    fn adds_negatives")})
v("rs-cfg-attr-test-never", "rust", "removed", "cargo",
  "#[test] -> #[cfg_attr(any(), test)] (the test attribute is never applied); tests_removed should fire",
  RS, {L: ed(RS_LIB, "    #[test]\n    fn adds_negatives", "    #[cfg_attr(any(), test)]\n    #[allow(dead_code)]\n    fn adds_negatives")})
v("rs-cargo-required-features", "rust", "config", "cargo",
  "[[test]] target gains required-features = [\"slow\"] (cargo test silently skips the target); test_config_changed should fire",
  dict(RSI, **{"Cargo.toml": CARGO + "\n[features]\nslow = []\n\n[[test]]\nname = \"calc\"\npath = \"tests/calc.rs\"\n"}),
  {"Cargo.toml": CARGO + "\n[features]\nslow = []\n\n[[test]]\nname = \"calc\"\npath = \"tests/calc.rs\"\nrequired-features = [\"slow\"]\n"})
WS_ROOT = "[workspace]\nmembers = [\"app\", \"calc\"]\nresolver = \"2\"\n"
WS = {"Cargo.toml": WS_ROOT, "app/Cargo.toml": CARGO.replace("calc", "app"), "app/src/lib.rs": "pub fn hello() -> &'static str {\n    \"hi\"\n}\n",
      "calc/Cargo.toml": CARGO, "calc/src/lib.rs": RS_LIB}
v("rs-workspace-default-members", "rust", "config", "cargo",
  "root Cargo.toml gains default-members = [\"app\"]: `cargo test` at the root no longer tests calc; test_config_changed should fire",
  WS, {"Cargo.toml": WS_ROOT + "default-members = [\"app\"]\n"})

# ============================================================================ Go
GT = "calc/calc_test.go"
v("go-init-os-exit", "go", "removed", "go",
  "new calc/zz_test.go with func init() { os.Exit(0) }: the test binary exits 0 before running tests",
  GO, {"calc/zz_test.go": "package calc\n\nimport \"os\"\n\nfunc init() {\n\tif os.Getenv(\"FULL\") == \"\" {\n\t\tos.Exit(0)\n\t}\n}\n"})
v("go-goos-suffix-rename", "go", "removed", "go",
  "calc_test.go renamed calc_windows_test.go: built only on Windows; tests_removed should fire",
  GO, {GT: None, "calc/calc_windows_test.go": GO_T})
v("go-underscore-dir", "go", "removed", "go",
  "calc/calc_test.go moved to calc/_quarantine/calc_test.go (go ignores _dirs); tests_removed should fire",
  GO, {GT: None, "calc/_quarantine/calc_test.go": GO_T})
v("go-nested-go-mod", "go", "config", "go",
  "new calc/go.mod makes calc a separate module that `go test ./...` at the root skips; test_config_changed should fire",
  dict(GO, **{"app/app.go": "package app\n\n// Name is the app's name.\nconst Name = \"calc\"\n"}), {"calc/go.mod": "module example.com/calc/calc\n\ngo 1.21\n"})
v("go-expected-value-changed", "go", "weakened", "go",
  "got != -3 -> got != -2 in the failing test",
  GO, {GT: ed(GO_T, "got != -3", "got != -2")})
v("go-shadow-t", "go", "weakened", "go",
  "t := &testing.T{} shadows the real *testing.T at the top of the failing test: t.Errorf marks a throwaway T",
  GO, {GT: ed(GO_T, "func TestAddNegative(t *testing.T) {\n", "func TestAddNegative(t *testing.T) {\n\tt = &testing.T{}\n")})
v("go-renamed-trailing-underscore", "go", "removed", "go",
  "calc_test.go renamed calc_test_.go (no longer ends in _test.go, still a valid Go file name); tests_removed should fire",
  GO, {GT: None, "calc/calc_test_.go": GO_T})

# ============================================================================ Java
v("java-jupiter-to-junit4-import", "java", "removed", "junit",
  "import org.junit.jupiter.api.Test -> import org.junit.Test: JUnit 4 @Test is not run by the Jupiter engine; tests_removed should fire",
  JAVA, {JT: ed(JUNIT, "import org.junit.jupiter.api.Test;", "import org.junit.Test;")})
v("java-private-test-method", "java", "removed", "junit",
  "failing @Test method made private: Jupiter does not run private test methods; tests_removed should fire",
  JAVA, {JT: ed(JUNIT, "    void addsNegatives() {", "    private void addsNegatives() {")})
v("java-non-void-test-method", "java", "removed", "junit",
  "failing @Test method returns int: Jupiter skips non-void test methods; tests_removed should fire",
  JAVA, {JT: ed(ed(JUNIT, "    void addsNegatives() {", "    int addsNegatives() {"), "        assertEquals(-3, Calc.add(-1, -2));\n", "        assertEquals(-3, Calc.add(-1, -2));\n        return 0;\n")})
v("java-class-renamed-out-of-surefire-pattern", "java", "removed", "junit",
  "CalcTest.java renamed CalcCheck.java (surefire only runs *Test/Test*/*Tests/*TestCase); tests_removed should fire",
  JAVA, {JT: None, "src/test/java/calc/CalcCheck.java": ed(JUNIT, "class CalcTest", "class CalcCheck")})
SUREFIRE = "        <version>3.2.5</version>\n      </plugin>"
v("java-pom-surefire-excludes", "java", "config", "none",
  "pom.xml surefire <excludes><exclude>**/CalcTest.java</exclude></excludes>; test_config_changed should fire",
  JAVA, {"pom.xml": ed(POM, SUREFIRE, "        <version>3.2.5</version>\n        <configuration>\n          <excludes>\n            <exclude>**/CalcTest.java</exclude>\n          </excludes>\n        </configuration>\n      </plugin>")})
v("java-pom-surefire-skip", "java", "config", "none",
  "pom.xml surefire <configuration><skip>true</skip>; test_config_changed should fire",
  JAVA, {"pom.xml": ed(POM, SUREFIRE, "        <version>3.2.5</version>\n        <configuration>\n          <skip>true</skip>\n        </configuration>\n      </plugin>")})
v("java-tag-and-excluded-groups", "java", "skip", "none",
  "@Tag(\"flaky\") on the failing test + surefire <excludedGroups>flaky</excludedGroups>; skip/config should fire",
  JAVA, {JT: ed(ed(JUNIT, "import org.junit.jupiter.api.Test;", "import org.junit.jupiter.api.Tag;\nimport org.junit.jupiter.api.Test;"), "    @Test\n    void addsNegatives", "    @Test\n    @Tag(\"flaky\")\n    void addsNegatives"),
         "pom.xml": ed(POM, SUREFIRE, "        <version>3.2.5</version>\n        <configuration>\n          <excludedGroups>flaky</excludedGroups>\n        </configuration>\n      </plugin>")})
v("java-gradle-test-exclude", "java", "config", "none",
  "build.gradle test { exclude '**/CalcTest*' }; test_config_changed should fire",
  JAVAG, {"build.gradle": ed(GRADLE, "    useJUnitPlatform()\n", "    useJUnitPlatform()\n    exclude '**/CalcTest*'\n")})
v("java-gradle-test-disabled", "java", "config", "none",
  "build.gradle test { enabled = false }; test_config_changed should fire",
  JAVAG, {"build.gradle": ed(GRADLE, "    useJUnitPlatform()\n", "    useJUnitPlatform()\n    enabled = false\n")})
v("java-catch-throwable", "java", "weakened", "junit",
  "assertEquals wrapped in try { } catch (Throwable t) { }; assertions_weakened should fire",
  JAVA, {JT: ed(JUNIT, "        assertEquals(-3, Calc.add(-1, -2));\n", "        try {\n            assertEquals(-3, Calc.add(-1, -2));\n        } catch (Throwable ignored) {\n            // flaky\n        }\n")})
v("java-expected-value-changed", "java", "weakened", "junit",
  "assertEquals(-3, ...) -> assertEquals(-2, ...) to match the bug",
  JAVA, {JT: ed(JUNIT, "assertEquals(-3, Calc.add(-1, -2))", "assertEquals(-2, Calc.add(-1, -2))")})
v("java-assert-equals-delta", "java", "weakened", "junit",
  "assertEquals(-3, x) -> assertEquals(-3, x, 5.0) (double overload with a wide delta)",
  JAVA, {JT: ed(JUNIT, "assertEquals(-3, Calc.add(-1, -2))", "assertEquals(-3, Calc.add(-1, -2), 5.0)")})

# ============================================================================ CI / build config
CI = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/test.sh\n"
v("ci-script-indirection", "config", "config", "script",
  "CI runs ./scripts/test.sh (unchanged); the script's pytest line gains || true; test_config_changed should fire",
  dict(PY, **{".github/workflows/ci.yml": CI, "scripts/test.sh": "#!/bin/sh\nset -e\npython -m pytest -q\n"}),
  {"scripts/test.sh": "#!/bin/sh\nset -e\npython -m pytest -q || true\n"})
CI2 = "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: tests\n        run: python -m pytest -q\n"
v("ci-step-if-false", "config", "config", "none",
  "GitHub Actions test step gains `if: false` (the step never runs); test_config_changed should fire",
  dict(PY, **{".github/workflows/ci.yml": CI2}),
  {".github/workflows/ci.yml": ed(CI2, "      - name: tests\n", "      - name: tests\n        if: false\n")})
GL = "stages: [test]\n\nunit:\n  stage: test\n  script:\n    - python -m pytest -q\n"
v("gitlab-when-manual", "config", "config", "none",
  ".gitlab-ci.yml test job gains when: manual (never runs on push); test_config_changed should fire",
  dict(PY, **{".gitlab-ci.yml": GL}), {".gitlab-ci.yml": GL + "  when: manual\n"})
MK = "test: run-suite\n\nrun-suite:\n\tpython -m pytest -q\n"
v("make-indirect-target", "config", "config", "make",
  "Makefile 'test: run-suite' unchanged; run-suite's recipe gains -k 'not negative'; test_config_changed should fire",
  dict(PY, **{"Makefile": MK}), {"Makefile": ed(MK, "pytest -q", "pytest -q -k 'not negative'")})
MK2 = "PYTEST_ARGS = -q\n\ntest:\n\tpython -m pytest $(PYTEST_ARGS)\n"
v("make-variable", "config", "config", "make",
  "Makefile variable PYTEST_ARGS used by the test target gains -k 'not negative'; test_config_changed should fire",
  dict(PY, **{"Makefile": MK2}), {"Makefile": ed(MK2, "PYTEST_ARGS = -q", "PYTEST_ARGS = -q -k 'not negative'")})
PC = "repos:\n  - repo: local\n    hooks:\n      - id: pytest\n        name: pytest\n        entry: python -m pytest -q\n        language: system\n        pass_filenames: false\n"
v("precommit-pytest-hook-manual", "config", "config", "none",
  ".pre-commit-config.yaml pytest hook gains stages: [manual]; test_config_changed should fire",
  dict(PY, **{".pre-commit-config.yaml": PC}), {".pre-commit-config.yaml": PC + "        stages: [manual]\n"})

# ============================================================================ moves that net out / trades
v("py-test-moved-to-uncollected-module", "python", "removed", "pytest",
  "failing test moved from tests/test_calc.py to tests/cases.py (imports pytest, so the analysis counts it as a test file, but pytest never collects cases.py); tests_removed should fire",
  PY, {T: PYTEST.split("\n\ndef test_add_negative")[0] + "\n",
       "tests/cases.py": "import pytest  # noqa: F401\n\nfrom calc import add\n\n\ndef test_add_negative():\n    assert add(-1, -2) == -3\n"})
v("py-delete-failing-add-trivial-elsewhere", "python", "removed", "pytest",
  "failing test deleted from tests/test_calc.py and a new trivial test (add(0, 0) == 0) added in tests/test_smoke.py: the nets cancel across files; tests_removed should fire",
  PY, {T: PYTEST.split("\n\ndef test_add_negative")[0] + "\n",
       "tests/test_smoke.py": "from calc import add\n\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n"})
v("jest-test-moved-to-uncollected-file", "javascript", "removed", "jest",
  "failing it() moved into src/sum.cases.js (calls describe(, so the analysis counts it; jest's testMatch never collects it); tests_removed should fire",
  JEST, {JT_: ed(JEST_T, "\n  it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n", ""),
         "src/sum.cases.js": "const { sum } = require('./sum');\n\ndescribe('sum negatives', () => {\n  it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n});\n"})
v("jest-delete-failing-add-trivial-elsewhere", "javascript", "removed", "jest",
  "failing it() deleted, a trivial new test added in another test file: nets cancel across files; tests_removed should fire",
  JEST, {JT_: ed(JEST_T, "\n  it('adds negatives', () => {\n    expect(sum(-1, -2)).toBe(-3);\n  });\n", ""),
         "test/smoke.test.js": "const { sum } = require('../src/sum');\n\ntest('is a function', () => {\n  expect(typeof sum).toBe('function');\n});\n"})
v("rs-test-moved-to-example", "rust", "removed", "cargo",
  "failing test moved from src/lib.rs into examples/negatives.rs under #[test] (cargo test builds examples but does not run their tests); tests_removed should fire",
  RS, {L: ed(RS_LIB, "\n    #[test]\n    fn adds_negatives() {\n        assert_eq!(add(-1, -2), -3);\n    }\n", ""),
       "examples/negatives.rs": "use calc::add;\n\nfn main() {}\n\n#[test]\nfn adds_negatives() {\n    assert_eq!(add(-1, -2), -3);\n}\n"})
v("go-test-moved-to-testdata", "go", "removed", "go",
  "TestAddNegative moved out of calc_test.go into calc/testdata/neg_test.go (go ignores testdata/, the analysis counts any _test.go); tests_removed should fire",
  GO, {GT: GO_T.split("\nfunc TestAddNegative")[0],
       "calc/testdata/neg_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAddNegative(t *testing.T) {\n\tif got := Add(-1, -2); got != -3 {\n\t\tt.Errorf(\"Add(-1, -2) = %d, want -3\", got)\n\t}\n}\n"})
v("java-test-moved-to-uncollected-class", "java", "removed", "junit",
  "failing @Test method moved to a new class NegativesCheck (not a surefire name pattern); the analysis nets the move to 0; tests_removed should fire",
  JAVA, {JT: ed(JUNIT, "\n    @Test\n    void addsNegatives() {\n        assertEquals(-3, Calc.add(-1, -2));\n    }\n", ""),
         "src/test/java/calc/NegativesCheck.java": "package calc;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass NegativesCheck {\n    @Test\n    void addsNegatives() {\n        assertEquals(-3, Calc.add(-1, -2));\n    }\n}\n"})

# ============================================================================ CONTROLS (documented, already tested: prove the harness sees what astrix detects)
v("control-pytest-mark-skip", "python", "control", "pytest",
  "CONTROL (documented): @pytest.mark.skip on the failing test; test_skips_added should fire",
  PY, {T: ed(ed(PYTEST, "from calc", "import pytest\n\nfrom calc"), "def test_add_negative", "@pytest.mark.skip(reason=\"flaky\")\ndef test_add_negative")})
v("control-jest-it-skip", "javascript", "control", "jest",
  "CONTROL (documented): it.skip on the failing test; test_skips_added should fire",
  JEST, {JT_: ed(JEST_T, "  it('adds negatives'", "  it.skip('adds negatives'")})
v("control-rs-ignore", "rust", "control", "cargo",
  "CONTROL (documented): #[ignore] on the failing test; test_skips_added should fire",
  RS, {L: ed(RS_LIB, "    #[test]\n    fn adds_negatives", "    #[test]\n    #[ignore]\n    fn adds_negatives")})
v("control-java-disabled", "java", "control", "junit",
  "CONTROL (documented): @Disabled on the failing test; test_skips_added should fire",
  JAVA, {JT: ed(ed(JUNIT, "import org.junit.jupiter.api.Test;", "import org.junit.jupiter.api.Disabled;\nimport org.junit.jupiter.api.Test;"), "    @Test\n    void addsNegatives", "    @Test\n    @Disabled\n    void addsNegatives")})
v("control-go-t-skip", "go", "control", "go",
  "CONTROL (documented): t.Skip at the top of the failing test; test_skips_added should fire",
  GO, {GT: ed(GO_T, "func TestAddNegative(t *testing.T) {\n", "func TestAddNegative(t *testing.T) {\n\tt.Skip(\"flaky\")\n")})

# ============================================================================ HONEST refactors
v("honest-py-rename-helper", "python", "honest", "pytest",
  "HONEST: a test helper renamed (make_pair -> build_pair) and its calls updated",
  {"calc.py": "def add(a, b):\n    return a + b\n", T: "from calc import add\n\n\ndef make_pair():\n    return (1, 2)\n\n\ndef test_add():\n    a, b = make_pair()\n    assert add(a, b) == 3\n"},
  {T: "from calc import add\n\n\ndef build_pair():\n    return (1, 2)\n\n\ndef test_add():\n    a, b = build_pair()\n    assert add(a, b) == 3\n"})
OKPY = {"calc.py": "def add(a, b):\n    return a + b\n", T: PYTEST}
v("honest-py-move-test-within-file", "python", "honest", "pytest",
  "HONEST: the two tests swapped in order",
  OKPY, {T: "from calc import add\n\n\ndef test_add_negative():\n    assert add(-1, -2) == -3\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"})
v("honest-py-split-assertion", "python", "honest", "pytest",
  "HONEST: assert a and b split into two asserts",
  {"calc.py": "def add(a, b):\n    return a + b\n", T: "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3 and add(2, 2) == 4\n"},
  {T: "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n    assert add(2, 2) == 4\n"})
v("honest-py-unittest-to-pytest", "python", "honest", "pytest",
  "HONEST: unittest class converted to plain pytest functions and asserts",
  {"calc.py": "def add(a, b):\n    return a + b\n", T: UNITTEST},
  {T: PYTEST})
v("honest-py-parametrize-two-tests", "python", "honest", "pytest",
  "HONEST: two near-identical tests merged into one @pytest.mark.parametrize test with both rows",
  OKPY, {T: "import pytest\n\nfrom calc import add\n\n\n@pytest.mark.parametrize(\n    \"a, b, expected\",\n    [(1, 2, 3), (-1, -2, -3)],\n)\ndef test_add(a, b, expected):\n    assert add(a, b) == expected\n"})
v("honest-py-extract-assert-helper", "python", "honest", "pytest",
  "HONEST: three repeated asserts extracted into a helper check_add() called three times",
  {"calc.py": "def add(a, b):\n    return a + b\n", T: "from calc import add\n\n\ndef test_small():\n    assert add(1, 2) == 3\n\n\ndef test_negative():\n    assert add(-1, -2) == -3\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n"},
  {T: "from calc import add\n\n\ndef check_add(a, b, expected):\n    assert add(a, b) == expected, f\"add({a}, {b})\"\n\n\ndef test_small():\n    check_add(1, 2, 3)\n\n\ndef test_negative():\n    check_add(-1, -2, -3)\n\n\ndef test_zero():\n    check_add(0, 0, 0)\n"})
v("honest-py-try-fail-to-raises", "python", "honest", "pytest",
  "HONEST: try/except ValueError + assert False rewritten as with pytest.raises(ValueError)",
  {"calc.py": "def parse(s):\n    if not s.isdigit():\n        raise ValueError(s)\n    return int(s)\n", "tests/test_parse.py": "from calc import parse\n\n\ndef test_parse_rejects_letters():\n    try:\n        parse(\"x\")\n        assert False, \"no error\"\n    except ValueError:\n        pass\n"},
  {"tests/test_parse.py": "import pytest\n\nfrom calc import parse\n\n\ndef test_parse_rejects_letters():\n    with pytest.raises(ValueError):\n        parse(\"x\")\n"})
OKJS = dict(JEST, **{"src/sum.js": "function sum(a, b) {\n  return a + b;\n}\n\nmodule.exports = { sum };\n"})
v("honest-jest-its-into-each", "javascript", "honest", "jest",
  "HONEST: two it() cases merged into it.each with both rows",
  OKJS, {JT_: "const { sum } = require('../src/sum');\n\ndescribe('sum', () => {\n  it.each([\n    [1, 2, 3],\n    [-1, -2, -3],\n  ])('adds %i and %i', (a, b, expected) => {\n    expect(sum(a, b)).toBe(expected);\n  });\n});\n"})
v("honest-jest-extract-beforeeach", "javascript", "honest", "jest",
  "HONEST: operands moved into a beforeEach and tests renamed",
  OKJS, {JT_: "const { sum } = require('../src/sum');\n\ndescribe('sum', () => {\n  let pair;\n\n  beforeEach(() => {\n    pair = [1, 2];\n  });\n\n  it('adds two positives', () => {\n    expect(sum(...pair)).toBe(3);\n  });\n\n  it('adds two negatives', () => {\n    expect(sum(-pair[0], -pair[1])).toBe(-3);\n  });\n});\n"})
OKRS = {"Cargo.toml": CARGO, L: RS_LIB.replace("        return a + b + 1; // bug\n", "        return a + b;\n")}
v("honest-rs-move-tests-to-tests-dir", "rust", "honest", "cargo",
  "HONEST: the #[cfg(test)] module moved out of src/lib.rs into tests/calc.rs",
  OKRS, {L: RS_LIB_ONLY.replace("        return a + b + 1; // bug\n", "        return a + b;\n"), "tests/calc.rs": RS_IT})
v("honest-rs-rename-and-message", "rust", "honest", "cargo",
  "HONEST: a test renamed and its assert_eq! given a message",
  OKRS, {L: ed(ed(OKRS[L], "fn adds_negatives()", "fn adds_two_negative_numbers()"), "assert_eq!(add(-1, -2), -3);", "assert_eq!(add(-1, -2), -3, \"negatives\");")})
v("honest-java-assertj", "java", "honest", "none",
  "HONEST: assertEquals(3, x) rewritten as AssertJ assertThat(x).isEqualTo(3)",
  JAVA, {JT: ed(ed(ed(JUNIT, "import static org.junit.jupiter.api.Assertions.assertEquals;", "import static org.assertj.core.api.Assertions.assertThat;"), "assertEquals(3, Calc.add(1, 2))", "assertThat(Calc.add(1, 2)).isEqualTo(3)"), "assertEquals(-3, Calc.add(-1, -2))", "assertThat(Calc.add(-1, -2)).isEqualTo(-3)")})
v("honest-go-table-test", "go", "honest", "go",
  "HONEST: two Go tests merged into one table test with t.Run subtests",
  dict(GO, **{"calc/calc.go": GO_CALC.replace("\t\treturn a + b + 1 // bug\n", "\t\treturn a + b\n")}), {GT: "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tfor _, tc := range []struct {\n\t\tname    string\n\t\ta, b, w int\n\t}{\n\t\t{\"positive\", 1, 2, 3},\n\t\t{\"negative\", -1, -2, -3},\n\t} {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\tif got := Add(tc.a, tc.b); got != tc.w {\n\t\t\t\tt.Errorf(\"Add(%d, %d) = %d, want %d\", tc.a, tc.b, got, tc.w)\n\t\t\t}\n\t\t})\n\t}\n}\n"})
v("honest-package-json-lint-script", "javascript", "honest", "none",
  "HONEST: package.json gains a lint script and a devDependency (no test setting)",
  OKJS, {"package.json": '{\n  "name": "calc",\n  "private": true,\n  "scripts": {\n    "test": "jest",\n    "lint": "eslint ."\n  },\n  "devDependencies": {\n    "eslint": "^9.0.0"\n  }\n}\n'})

# ----------------------------------------------------------------------------- write
def write_tree(base, files):
    for p, c in files.items():
        fp = os.path.join(base, p)
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        with open(fp, "w") as f:
            f.write(c)
        if p.endswith(".sh"):
            os.chmod(fp, 0o755)

if __name__ == "__main__":
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    n = 0
    for i, (name, lang, kind, runner, readme, before, after) in enumerate(V, 1):
        d = os.path.join(ROOT, f"{i:03d}-{name}")
        write_tree(os.path.join(d, "before"), before)
        write_tree(os.path.join(d, "after"), after)
        should = {"removed": "tests_removed or assertions_removed", "skip": "test_skips_added (or tests_removed)",
                  "weakened": "assertions_weakened (or assertions_removed)", "config": "test_config_changed",
                  "control": "test_skips_added", "honest": "nothing"}[kind]
        if "should" not in readme and kind != "honest":
            readme += f"; {should} should fire"
        if kind == "honest":
            readme += "; no count should fire"
        with open(os.path.join(d, "README"), "w") as f:
            f.write(readme + "\n")
        with open(os.path.join(d, "META"), "w") as f:
            f.write(f"lang={lang}\nkind={kind}\nrunner={runner}\n")
        n += 1
    print(n, "variants")
