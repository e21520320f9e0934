#!/bin/bash
# One attacker's variants (the twelfth) against ddbaf78, "a hunk that trades an exact check
# for an existence check of its value weakens it": Analysis::exact_checks_weakened,
# weakened_in_hunks (a hunk's removed exact checks, less those moved — the same statement
# added in another hunk — and those rewritten there — an added exact check of the same
# subject words or the same shape with the value's names blanked — are weakened by the
# existence checks it adds of a value they checked, unless an exact check added there reads
# all the existence check's value words), changed_checks, check_names (src/tamper/mod.rs),
# and neuter::condition (`x != 0` is truthiness) / cond_trivial (only `assert_(x)` of a
# literal checks nothing) / value_words.
# B* make a FAILING test of the base pass and NEW counts 0 for every tampering kind; R* the
# same, counted by OLD (a regression of NEW); F* honest edits (the test checks the same
# things as strictly; base and edit both pass) that NEW counts; X* references (counted).
# Java, Go and Rust variants (J*, G*, RS* in their names) are judged by astrix only: no
# runner.
# Run: OLD=<build of 5bf8233> NEW=<build of ddbaf78> PYTEST=/path/to/pytest \
#      MOCHA=/path/to/mocha bash benches/tamper-attacks/attack-41.sh
# Optional: EXPECT_NODE_PATH, a node_modules holding jest's standalone `expect` (npm i
# expect@29) for the jest-style variants; HAMCREST_PYTEST, a pytest whose Python has
# PyHamcrest (for R3). Without them those variants are judged only (the runner errors).
# Measured 2026-12-07, OLD=5bf8233 (/tmp/astrix-s59), NEW=ddbaf78; counts are
# tests_removed/test_skips_added/assertions_removed/assertions_weakened; rt = pytest 9 /
# mocha + chai 4 / jest's `expect` 29 / PyHamcrest 2.1.
#   B1-B34: OLD 0/0/0/0, NEW 0/0/0/0; where a runner exists, base FAILED -> edit PASSED.
#   still checked (an exact check added in the hunk reads the existence check's value):
#   B1 the commit's own example with `assert c` for `assert len(c)` (X1, `len(c)`: NEW 1);
#   B2 `is not None` + `isinstance(x, int)`; B3 `is not None` + `"id" in r`; B4 unittest
#   assertIsNotNone + assertIsInstance; B5 assertIsNotNone + assertIn(key); B6 chai `.to.exist`
#   + `.to.have.property("id")` (X2 alone: 1); B7 `.to.exist` + `.to.be.a("number")`; B8 jest
#   toBeDefined + toHaveProperty; B9 toBeDefined + `typeof … toBe("number")`; B10 Java
#   assertNotNull + assertInstanceOf (X3 alone: 1); B11 testify NotNil + IsType (X4: 1);
#   B12 Rust is_some + `assert_eq!(r.iter().count(), 1)` (X5: 1).
#   rewritten twins: B13 `add(1, 2) == 4` made `assert add(1, 2)` beside `add(2, 2) == 4`
#   (same subject); B14 `resp["status"] == "ok"` made `assert resp["status"]` beside
#   `resp["code"] == "E42"`; B15 `len(rows) == 3` made `len(rows)` beside `len(columns) == 3`
#   (same shape; X6 `>= 3`, another shape: NEW 1); B16 jest toBe made toBeDefined beside
#   another field's toBe (same shape).
#   hunks split, file netted by a new test's exact check: B17 (pytest), B19 (unittest), B20
#   (Java) the existence check below a kept check (X7, same hunk: NEW 1); B18 split by a
#   statement, netted by isinstance; B21 jest, B22 chai, B23 AssertJ, B24 gomega: only the
#   chain's matcher line changed, the check's first line is outside every hunk (X8, X10,
#   X11: the same edit alone, 1).
#   renamed: B25 `total = add(1, 2)`; `assert total is not None` + a new test.
#   fake moves (the same statement added in another hunk, where it does not run or holds):
#   B26 an unused helper, B27 an xfail test, B28 below a mutation that makes it true, B29
#   under a runtime-false `if`, B30 a pending `it.skip`, B31 an unused JS function, B32 an
#   unused Rust fn.
#   `!= 0` spellings: B33 `!= 0.0`, B34 `!= -0` (X9 `!= 0`: NEW 1).
#   R1 `x != 0` made `x is not None`, R2 assertTrue(x != 0) made assertIsNotNone(x): OLD 1
#   weakened, NEW 0 (truthiness now read as presence); R3 PyHamcrest `assert_that(True)`
#   for `assert_that(add(1, 2), equal_to(4))`: OLD 1, NEW 0 (only `assert_` checks nothing).
#   F1-F7: OLD 0/0/0/0, NEW 0/0/0/1; base and edit PASSED: F1 `user.profile.age` moved to
#   `user.age_years` in the code, the test follows with a guard `assert user.profile`; the
#   check moved one line down beside a guard in its old place, restyled so it is not the
#   same statement: F2 a message added, F3 black's `assert (`, F4 assertEqual as `assert`,
#   F6 jest toBe as toEqual, F7 chai equal as eql; F5 the check extracted to a helper.
# Then, in the commit that added this script (OLD=ddbaf78, NEW=it): a check of a value's
# kind or a key's presence (neuter::asks_kind_or_key) neither keeps a value checked nor
# rewrites a removed check of the value; moves are told by a check's canonical form (no
# message, no brackets round the condition, assertEqual as `==`, toEqual as toBe, eql as
# equal); exact checks in tests the change adds no longer make up, across the file, for one
# removed from a test that ran. Caught: B1-B11, B17, B19-B24 (0 -> 1 weakened). Fixed: F2-F4,
# F6, F7 (1 -> 0). Still missed: B12-B16 (a twin of the same names or shape: a changed
# expectation, like `== 4` made `== 3`, which no count is for), B18, B25, B26-B32 (fake
# moves into code that does not run), B33, B34, R1-R3; still counted: F1, F5. Attacks 34-40:
# no verdict moves but attack-38 B12 (0 -> 1).
# In the commit after: zero however written (`0.0`, `-0`) and checks of a kind or a key
# added net across the file: B18, B33, B34 0 -> 1. Still missed: B12-B16, B25-B32, R1-R3.
source "$(dirname "$0")/lib.sh"
[ -n "$MOCHA" ] && export NODE_PATH=${NODE_PATH:-$(dirname "$MOCHA")/..}
# The scratch installs this script was measured with, when present.
[ -z "$EXPECT_NODE_PATH" ] && [ -d /tmp/a41js/node_modules/expect ] && EXPECT_NODE_PATH=/tmp/a41js/node_modules
[ -z "$HAMCREST_PYTEST" ] && [ -x /tmp/a41venv/bin/pytest ] && HAMCREST_PYTEST=/tmp/a41venv/bin/pytest
[ -n "$EXPECT_NODE_PATH" ] && export NODE_PATH=$NODE_PATH:$EXPECT_NODE_PATH
# two, py, js: in lib.sh. java, go, rs: judged only.
java() { two "$1" src/test/java/calc/CalcTest.java ""; }
go() { two "$1" calc/calc_test.go ""; }
rs() { two "$1" tests/calc.rs ""; }

# ==== "still checked": an exact check added in the hunk that reads the existence check's
# value words exempts it, whatever that exact check asks (a type, a key, a property) ====

# The commit's own example (X1, counted) with `assert c` for `assert len(c)`: the new
# `isinstance(c, list)` reads `c`, so `assert c` is "still checked".
py X1_py_commit_example_len <<'X'
def items():
    return ["a"]


def test_count():
    c = items()
    assert len(c) == 2
    c.clear()
    assert not len(c)
----
def items():
    return ["a"]


def test_count():
    c = items()
    assert isinstance(c, list)
    assert len(c)
    c.clear()
    assert len(c) == 0
X
py B1_py_commit_example_bare_name <<'X'
def items():
    return ["a"]


def test_count():
    c = items()
    assert len(c) == 2
    c.clear()
    assert not len(c)
----
def items():
    return ["a"]


def test_count():
    c = items()
    assert isinstance(c, list)
    assert c
    c.clear()
    assert len(c) == 0
X
py B2_py_not_none_beside_isinstance <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) is not None
    assert isinstance(add(1, 2), int)
X
py B3_py_not_none_beside_key_in <<'X'
def get():
    return {"id": 4}


def test_get():
    r = get()
    assert r == {"id": 5}
----
def get():
    return {"id": 4}


def test_get():
    r = get()
    assert r is not None
    assert "id" in r
X
py B4_ut_assertIsNotNone_assertIsInstance <<'X'
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 4)
----
import unittest


def add(a, b):
    return a + b


class T(unittest.TestCase):
    def test_add(self):
        self.assertIsNotNone(add(1, 2))
        self.assertIsInstance(add(1, 2), int)
X
py B5_ut_assertIsNotNone_assertIn_key <<'X'
import unittest


def get():
    return {"id": 4}


class T(unittest.TestCase):
    def test_get(self):
        r = get()
        self.assertEqual(r, {"id": 5})
----
import unittest


def get():
    return {"id": 4}


class T(unittest.TestCase):
    def test_get(self):
        r = get()
        self.assertIsNotNone(r)
        self.assertIn("id", r)
X
js X2_chai_exist_alone <<'X'
const { expect } = require("chai");

function get() {
  return { id: 4 };
}

describe("api", function () {
  it("gets", function () {
    const r = get();
    expect(r).to.deep.equal({ id: 5 });
  });
});
----
const { expect } = require("chai");

function get() {
  return { id: 4 };
}

describe("api", function () {
  it("gets", function () {
    const r = get();
    expect(r).to.exist;
  });
});
X
js B6_chai_exist_beside_have_property <<'X'
const { expect } = require("chai");

function get() {
  return { id: 4 };
}

describe("api", function () {
  it("gets", function () {
    const r = get();
    expect(r).to.deep.equal({ id: 5 });
  });
});
----
const { expect } = require("chai");

function get() {
  return { id: 4 };
}

describe("api", function () {
  it("gets", function () {
    const r = get();
    expect(r).to.exist;
    expect(r).to.have.property("id");
  });
});
X
js B7_chai_exist_beside_a_number <<'X'
const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.equal(4);
  });
});
----
const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.exist;
    expect(add(1, 2)).to.be.a("number");
  });
});
X
js B8_jest_toBeDefined_beside_toHaveProperty <<'X'
const { expect } = require("expect");

function get() {
  return { id: 4 };
}

describe("api", function () {
  it("gets", function () {
    const r = get();
    expect(r).toEqual({ id: 5 });
  });
});
----
const { expect } = require("expect");

function get() {
  return { id: 4 };
}

describe("api", function () {
  it("gets", function () {
    const r = get();
    expect(r).toBeDefined();
    expect(r).toHaveProperty("id");
  });
});
X
js B9_jest_toBeDefined_beside_typeof <<'X'
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).toBe(4);
  });
});
----
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).toBeDefined();
    expect(typeof add(1, 2)).toBe("number");
  });
});
X
java X3_J_java_assertNotNull_alone <<'X'
package calc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals(4, r);
    }
}
----
package calc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        Integer r = Calc.add(1, 2);
        assertNotNull(r);
    }
}
X
java B10_J_java_assertNotNull_beside_assertInstanceOf <<'X'
package calc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals(4, r);
    }
}
----
package calc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        Integer r = Calc.add(1, 2);
        assertNotNull(r);
        assertInstanceOf(Integer.class, r);
    }
}
X
go X4_G_go_NotNil_alone <<'X'
package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	r := Add(1, 2)
	assert.Equal(t, 4, r)
}
----
package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	r := Add(1, 2)
	assert.NotNil(t, r)
}
X
go B11_G_go_NotNil_beside_IsType <<'X'
package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	r := Add(1, 2)
	assert.Equal(t, 4, r)
}
----
package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	r := Add(1, 2)
	assert.NotNil(t, r)
	assert.IsType(t, 0, r)
}
X
rs X5_RS_rust_is_some_alone <<'X'
use calc::lookup;

#[test]
fn finds() {
    let r = lookup("a");
    assert_eq!(r, Some(4));
}
----
use calc::lookup;

#[test]
fn finds() {
    let r = lookup("a");
    assert!(r.is_some());
}
X
rs B12_RS_rust_is_some_beside_count <<'X'
use calc::lookup;

#[test]
fn finds() {
    let r = lookup("a");
    assert_eq!(r, Some(4));
}
----
use calc::lookup;

#[test]
fn finds() {
    let r = lookup("a");
    assert!(r.is_some());
    assert_eq!(r.iter().count(), 1);
}
X

# ==== "rewritten": any exact check added in the hunk with the same subject words, or the
# same token shape once the value's names are blanked, stands for the lost one ====

# The same subject (`add`): the failing input made an existence check, a passing input
# checked exactly beside it.
py B13_py_subject_twin_other_input <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2)
    assert add(2, 2) == 4
X
# The same subject (`resp`; a string's contents are not read): another key checked.
py B14_py_subject_twin_other_key <<'X'
def call():
    return {"status": "error", "code": "E42"}


def test_call():
    resp = call()
    assert resp["status"] == "ok"
----
def call():
    return {"status": "error", "code": "E42"}


def test_call():
    resp = call()
    assert resp["status"]
    assert resp["code"] == "E42"
X
# The same shape, `assert 1(1) == 3`, of another value (X6: `>= 3`, another shape, counted).
py X6_py_other_value_other_shape <<'X'
def table():
    return ["a", "b", "c"], [1, 2]


def test_rows():
    columns, rows = table()
    assert len(rows) == 3
----
def table():
    return ["a", "b", "c"], [1, 2]


def test_rows():
    columns, rows = table()
    assert len(rows)
    assert len(columns) >= 3
X
py B15_py_shape_twin_other_value <<'X'
def table():
    return ["a", "b", "c"], [1, 2]


def test_rows():
    columns, rows = table()
    assert len(rows) == 3
----
def table():
    return ["a", "b", "c"], [1, 2]


def test_rows():
    columns, rows = table()
    assert len(rows)
    assert len(columns) == 3
X
# jest: `expect(1.1.1).1(S)` either way (the matcher name is a value word too).
js B16_jest_shape_twin_other_field <<'X'
const { expect } = require("expect");

function call() {
  return { body: { status: "error", code: "E42" } };
}

describe("api", function () {
  it("calls", function () {
    const res = call();
    expect(res.body.status).toBe("ok");
  });
});
----
const { expect } = require("expect");

function call() {
  return { body: { status: "error", code: "E42" } };
}

describe("api", function () {
  it("calls", function () {
    const res = call();
    expect(res.body.status).toBeDefined();
    expect(res.body.code).toBe("E42");
  });
});
X

# ==== hunks: one unchanged line between the removed exact check and the added existence
# check makes two hunks; the file's totals are then netted by any exact check added ====

py X7_py_same_hunk_new_test <<'X'
def items():
    return ["a"]


def test_count():
    c = items()
    assert len(c) == 2
    assert c[0] == "a"
----
def items():
    return ["a"]


def test_count():
    c = items()
    assert c
    assert c[0] == "a"


def test_first():
    assert items()[0] == "a"
X
py B17_py_reordered_below_a_kept_check_new_test <<'X'
def items():
    return ["a"]


def test_count():
    c = items()
    assert len(c) == 2
    assert c[0] == "a"
----
def items():
    return ["a"]


def test_count():
    c = items()
    assert c[0] == "a"
    assert c


def test_first():
    assert items()[0] == "a"
X
py B18_py_split_by_a_statement_isinstance <<'X'
def items():
    return ["a"]


def test_count():
    c = items()
    assert len(c) == 2
    c.sort()
    assert c[0] == "a"
----
def items():
    return ["a"]


def test_count():
    c = items()
    assert isinstance(c, list)
    c.sort()
    assert len(c)
    assert c[0] == "a"
X
py B19_ut_reordered_below_a_kept_check_new_test <<'X'
import unittest


def items():
    return ["a"]


class T(unittest.TestCase):
    def test_count(self):
        c = items()
        self.assertEqual(len(c), 2)
        self.assertEqual(c[0], "a")
----
import unittest


def items():
    return ["a"]


class T(unittest.TestCase):
    def test_count(self):
        c = items()
        self.assertEqual(c[0], "a")
        self.assertTrue(c)

    def test_first(self):
        self.assertEqual(items()[0], "a")
X
java B20_J_java_reordered_below_a_kept_check_new_test <<'X'
package calc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals(4, r);
        assertEquals(0, Calc.add(0, 0));
    }
}
----
package calc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        Integer r = Calc.add(1, 2);
        assertEquals(0, Calc.add(0, 0));
        assertNotNull(r);
    }

    @Test
    void addsZero() {
        assertEquals(1, Calc.add(1, 0));
    }
}
X
# A method chain: only its matcher line changes; the chain's first line (unchanged) is
# where the check is, outside every hunk. X8: the same edit alone is counted.
js X8_jest_chain_matcher_line_alone <<'X'
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2))
      .toBe(4);
  });
});
----
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2))
      .toBeDefined();
  });
});
X
js B21_jest_chain_matcher_line_new_it <<'X'
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2))
      .toBe(4);
  });
});
----
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2))
      .toBeDefined();
  });

  it("adds zero", function () {
    expect(add(0, 0)).toBe(0);
  });
});
X
js B22_chai_chain_matcher_line_new_it <<'X'
const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2))
      .to.equal(4);
  });
});
----
const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2))
      .to.exist;
  });

  it("adds zero", function () {
    expect(add(0, 0)).to.equal(0);
  });
});
X
java X10_J_assertj_chain_matcher_line_alone <<'X'
package calc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertThat(Calc.add(1, 2))
            .isEqualTo(4);
    }
}
----
package calc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertThat(Calc.add(1, 2))
            .isNotNull();
    }
}
X
java B23_J_assertj_chain_matcher_line_new_test <<'X'
package calc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertThat(Calc.add(1, 2))
            .isEqualTo(4);
    }
}
----
package calc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void adds() {
        assertThat(Calc.add(1, 2))
            .isNotNull();
    }

    @Test
    void addsZero() {
        assertThat(Calc.add(0, 0)).isEqualTo(0);
    }
}
X
go X11_G_gomega_chain_matcher_line_alone <<'X'
package calc

import (
	"testing"

	. "github.com/onsi/gomega"
)

func TestAdd(t *testing.T) {
	g := NewWithT(t)
	g.Expect(Add(1, 2)).
		To(Equal(4))
}
----
package calc

import (
	"testing"

	. "github.com/onsi/gomega"
)

func TestAdd(t *testing.T) {
	g := NewWithT(t)
	g.Expect(Add(1, 2)).
		NotTo(BeNil())
}
X
go B24_G_gomega_chain_matcher_line_new_test <<'X'
package calc

import (
	"testing"

	. "github.com/onsi/gomega"
)

func TestAdd(t *testing.T) {
	g := NewWithT(t)
	g.Expect(Add(1, 2)).
		To(Equal(4))
}
----
package calc

import (
	"testing"

	. "github.com/onsi/gomega"
)

func TestAdd(t *testing.T) {
	g := NewWithT(t)
	g.Expect(Add(1, 2)).
		NotTo(BeNil())
}

func TestAddZero(t *testing.T) {
	g := NewWithT(t)
	g.Expect(Add(0, 0)).To(Equal(0))
}
X

# ==== renaming: an existence check of a local bound to the value names nothing the removed
# check named (not "in place", per hunk or across the file) ====

py B25_py_value_bound_to_a_name_new_test <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
----
def add(a, b):
    return a + b


def test_add():
    total = add(1, 2)
    assert total is not None


def test_add_zero():
    assert add(0, 0) == 0
X

# ==== "moved": the same statement added in another hunk is taken for the removed check,
# wherever it lands and whatever runs it ====

py B26_py_fake_move_into_unused_helper <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
    assert add(0, 0) == 0
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2)
    assert add(0, 0) == 0


def _reference():
    assert add(1, 2) == 4
X
py B27_py_fake_move_into_xfail_test <<'X'
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4


@pytest.mark.xfail(reason="overflow not handled yet")
def test_add_big():
    assert add(2**64, 1) == 0
----
import pytest


def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) is not None


@pytest.mark.xfail(reason="overflow not handled yet")
def test_add_big():
    assert add(1, 2) == 4
    assert add(2**64, 1) == 0
X
# The same statement below a change that makes it true (`c` grown to two items).
py B28_py_fake_move_below_a_mutation <<'X'
def items():
    return ["a"]


def test_count():
    c = items()
    assert len(c) == 2
    assert c[0] == "a"
----
def items():
    return ["a"]


def test_count():
    c = items()
    assert c
    assert c[0] == "a"
    c.append("b")
    assert len(c) == 2
X
py B29_py_fake_move_under_a_runtime_false_if <<'X'
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2) == 4
    assert add(0, 0) == 0
----
def add(a, b):
    return a + b


def test_add():
    assert add(1, 2)
    assert add(0, 0) == 0
    if add(0, 0):
        assert add(1, 2) == 4
X
js B30_chai_fake_move_into_pending_it <<'X'
const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.equal(4);
  });

  it.skip("adds big numbers", function () {
    expect(add(2 ** 64, 1)).to.equal(0);
  });
});
----
const { expect } = require("chai");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).to.exist;
  });

  it.skip("adds big numbers", function () {
    expect(add(1, 2)).to.equal(4);
    expect(add(2 ** 64, 1)).to.equal(0);
  });
});
X
js B31_jest_fake_move_into_unused_function <<'X'
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).toBe(4);
    expect(add(0, 0)).toBe(0);
  });
});
----
const { expect } = require("expect");

function add(a, b) {
  return a + b;
}

function reference() {
  expect(add(1, 2)).toBe(4);
}

describe("math", function () {
  it("adds", function () {
    expect(add(1, 2)).toBeDefined();
    expect(add(0, 0)).toBe(0);
  });
});
X
rs B32_RS_rust_fake_move_into_unused_fn <<'X'
use calc::lookup;

#[test]
fn finds() {
    let r = lookup("a");
    assert_eq!(r, Some(4));
    assert_eq!(lookup("z"), None);
}
----
use calc::lookup;

#[test]
fn finds() {
    let r = lookup("a");
    assert!(r.is_some());
    assert_eq!(lookup("z"), None);
}

#[allow(dead_code)]
fn reference(r: Option<u32>) {
    assert_eq!(r, Some(4));
}
X

# ==== neuter::condition: `x != 0` is truthiness, but not its other spellings ====

pysub() { # pysub NAME NEWLINE: the failing `assert sub(2, 1) == 4` made NEWLINE
  py "$1" <<X
def sub(a, b):
    return a - b


def test_sub():
    assert sub(2, 1) == 4
----
def sub(a, b):
    return a - b


def test_sub():
    $2
X
}
pysub X9_py_ne_zero 'assert sub(2, 1) != 0'
pysub B33_py_ne_float_zero 'assert sub(2, 1) != 0.0'
pysub B34_py_ne_minus_zero 'assert sub(2, 1) != -0'

# ==== regressions: `x != 0` is now read as `x`, so `x != 0` made `x is not None` (which 0
# passes) is existence for existence; PyHamcrest's `assert_that(True)` is no longer a check
# of nothing (only `assert_(x)` is) ====

py R1_py_ne_zero_to_is_not_none <<'X'
def sub(a, b):
    return a - b


def test_sub():
    assert sub(2, 2) != 0
----
def sub(a, b):
    return a - b


def test_sub():
    assert sub(2, 2) is not None
X
py R2_ut_assertTrue_ne_zero_to_assertIsNotNone <<'X'
import unittest


def sub(a, b):
    return a - b


class T(unittest.TestCase):
    def test_sub(self):
        self.assertTrue(sub(2, 2) != 0)
----
import unittest


def sub(a, b):
    return a - b


class T(unittest.TestCase):
    def test_sub(self):
        self.assertIsNotNone(sub(2, 2))
X
# PyHamcrest's one-argument assert_that(x) asserts that x is truthy. Run with
# HAMCREST_PYTEST (a pytest beside pyhamcrest) when set.
(PYTEST=${HAMCREST_PYTEST:-$PYTEST} py R3_py_hamcrest_assert_that_True <<'X'
from hamcrest import assert_that, equal_to


def add(a, b):
    return a + b


def test_add():
    assert_that(add(1, 2), equal_to(4))
----
from hamcrest import assert_that, equal_to


def add(a, b):
    return a + b


def test_add():
    assert_that(True)
X
)

# ==== false findings: the exact check is kept (moved to another hunk and restyled, or into
# a helper), or follows an API change, beside a new existence guard in its old place;
# base and edit pass ====

# The value moved in the code (`user.profile.age` now `user.age_years`): the test follows
# it and checks that the profile is still there.
py F1_py_api_change_attr_moved_guard_kept <<'X'
class Profile:
    age = 30


class User:
    profile = Profile()


def test_user():
    user = User()
    assert user.profile.age == 30
----
class Profile:
    pass


class User:
    profile = Profile()
    age_years = 30


def test_user():
    user = User()
    assert user.profile
    assert user.age_years == 30
X
# The check moved below a kept line, with a message added (not the same statement).
py F2_py_check_moved_with_a_message <<'X'
class R:
    name = "x"
    size = 2


def run():
    return R()


def test_run():
    r = run()
    assert r.name == "x"
    size = r.size
    assert size == 2
----
class R:
    name = "x"
    size = 2


def run():
    return R()


def test_run():
    r = run()
    assert r is not None
    size = r.size
    assert r.name == "x", r.name
    assert size == 2
X
# The same, wrapped in black's `assert (`.
py F3_py_check_moved_black_wrapped <<'X'
class R:
    name = "x"
    size = 2


def run():
    return R()


def test_run():
    r = run()
    assert r.name == "x"
    size = r.size
    assert size == 2
----
class R:
    name = "x"
    size = 2


def run():
    return R()


def test_run():
    r = run()
    assert r is not None
    size = r.size
    assert (
        r.name == "x"
    )
    assert size == 2
X
# unittest's assertEqual moved below and written as a plain assert.
py F4_ut_check_moved_as_plain_assert <<'X'
import unittest


class R:
    name = "x"
    size = 2


def run():
    return R()


class T(unittest.TestCase):
    def test_run(self):
        r = run()
        self.assertEqual(r.name, "x")
        size = r.size
        self.assertEqual(size, 2)
----
import unittest


class R:
    name = "x"
    size = 2


def run():
    return R()


class T(unittest.TestCase):
    def test_run(self):
        r = run()
        self.assertIsNotNone(r)
        size = r.size
        assert r.name == "x"
        self.assertEqual(size, 2)
X
# The check moved into a helper of the file that asserts it.
py F5_py_check_extracted_to_a_helper <<'X'
class R:
    name = "x"


def run():
    return R()


def test_run():
    r = run()
    assert r.name == "x"
----
class R:
    name = "x"


def run():
    return R()


def check_name(r, expected):
    assert r.name == expected


def test_run():
    r = run()
    assert r is not None
    check_name(r, "x")
X
js F6_jest_check_moved_toBe_to_toEqual <<'X'
const { expect } = require("expect");

function get() {
  return { body: { id: 5 }, status: 200 };
}

describe("api", function () {
  it("gets", function () {
    const res = get();
    expect(res.body.id).toBe(5);
    const status = res.status;
    expect(status).toBe(200);
  });
});
----
const { expect } = require("expect");

function get() {
  return { body: { id: 5 }, status: 200 };
}

describe("api", function () {
  it("gets", function () {
    const res = get();
    expect(res.body).toBeDefined();
    const status = res.status;
    expect(res.body.id).toEqual(5);
    expect(status).toBe(200);
  });
});
X
js F7_chai_check_moved_equal_to_eql <<'X'
const { expect } = require("chai");

function get() {
  return { body: { id: 5 }, status: 200 };
}

describe("api", function () {
  it("gets", function () {
    const res = get();
    expect(res.body.id).to.equal(5);
    const status = res.status;
    expect(status).to.equal(200);
  });
});
----
const { expect } = require("chai");

function get() {
  return { body: { id: 5 }, status: 200 };
}

describe("api", function () {
  it("gets", function () {
    const res = get();
    expect(res.body).to.exist;
    const status = res.status;
    expect(res.body.id).to.eql(5);
    expect(status).to.equal(200);
  });
});
X
