#!/bin/bash
# attack-55 (helper-62, 2026-12-07, 12 minutes, against 56cb60b = /tmp/astrix-s138): 9 new
# pytest-plugin registrations the reader misses; astrix 0 while pytest goes 1 -> 0 in each:
#   V1 `import os; pytest_plugins = [...]`, V2 pytest_plugins inside try:, V3 `from<TAB>x import *`
#   or after `;`, V6 `from tools . sel import *`, V4/V9 a TOML addopts array or """ string with
#   lines at column 0, V5/V5b an ini addopts value continued past a comment or blank line,
#   V8 a module a conftest imports that never names pytest. Controls C1, C2 held (3).
# Answered by the next commit (statements split at `;` and compound headers, imports read
# by tokens, TOML arrays and """ strings, ini values past blank and comment lines): all
# held (3) but V8, a documented limit (only modules that name pytest are looked up).
# Run: ASTRIX=/tmp/astrix-s138 PYTEST=${PYTEST:-/tmp/pv/bin/pytest} bash attack-55.sh (each case under a temp dir).
H=$(mktemp -d); trap 'rm -rf "$H"' EXIT
cat > "$H/run.sh" <<'RUN'
#!/bin/bash
# run.sh NAME SETUPFN-script : setup script creates registry files in cwd (base); edit applied by edit script
H0=${H0:?}
set -u
N=$1; D=$H0/$N; rm -rf $D; mkdir -p $D; cd $D
git init -q -b master . ; git config user.email a@b; git config user.name a
git switch -q -c feat
mkdir -p tests tools
printf 'def test_add():\n    assert 1 + 1 == 3\n\n\ndef test_ok():\n    assert True\n' > tests/test_calc.py
: > tools/__init__.py
printf 'import pytest\n\nDROP = ()\n\n\ndef pytest_collection_modifyitems(config, items):\n    items[:] = [i for i in items if i.name not in DROP]\n' > tools/sel.py
bash -c "$2"
git add -A; git commit -qm base
B=$(${PYTEST:-/tmp/pv/bin/pytest} -q -p no:cacheprovider 2>&1 | tail -1; echo "rc=${PIPESTATUS[0]}")
bash -c "${3:-sed -i 's/^DROP = ()/DROP = (\"test_add\",)/' tools/sel.py}"
git add -A
A=$(env -i HOME=$H0/home PATH=/usr/bin:/bin GIT_CONFIG_NOSYSTEM=1 CLAUDECODE=1 ${ASTRIX:-/tmp/astrix-s138} check >$H0/$N.out 2>&1; echo $?)
P=$(${PYTEST:-/tmp/pv/bin/pytest} -q -p no:cacheprovider 2>&1 | tail -1; echo "rc=${PIPESTATUS[0]}")
echo "$N astrix=$A | before: $(echo $B|tr '\n' ' ') | after: $(echo $P|tr '\n' ' ')"
RUN
chmod +x "$H/run.sh"; export H0="$H"; cd "$H"
"$H/run.sh" V1semi 'printf "import os; pytest_plugins = [\"tools.sel\"]\n" > conftest.py'
"$H/run.sh" V2try 'printf "try:\n    pytest_plugins = [\"tools.sel\"]\nexcept ImportError:\n    pass\n" > conftest.py'
"$H/run.sh" V3tab 'printf "from\ttools.sel import *\n" > conftest.py'
"$H/run.sh" V3b 'printf "import os; from tools.sel import *\n" > conftest.py'
"$H/run.sh" V6dots 'printf "from tools . sel import *\n" > conftest.py'
"$H/run.sh" V4toml 'printf "[tool.pytest.ini_options]\npythonpath = [\".\"]\naddopts = [\n\"-p\", \"tools.sel\",\n]\n" > pyproject.toml'
"$H/run.sh" V9tomlstr 'printf "[tool.pytest.ini_options]\npythonpath = [\".\"]\naddopts = \"\"\"\n-p tools.sel\n\"\"\"\n" > pyproject.toml'
"$H/run.sh" V5ini 'printf "[pytest]\npythonpath = .\naddopts =\n    -q\n# plugins\n    -p tools.sel\n" > pytest.ini'
"$H/run.sh" V5blank 'printf "[pytest]\npythonpath = .\naddopts =\n    -q\n\n    -p tools.sel\n" > pytest.ini'
"$H/run.sh" V8cfg 'printf "DROP = ()\n" > tools/cfg.py; printf "from tools.cfg import DROP\n\n\ndef pytest_collection_modifyitems(config, items):\n    items[:] = [i for i in items if i.name not in DROP]\n" > conftest.py' "sed -i 's/^DROP = ()/DROP = (\"test_add\",)/' tools/cfg.py"
"$H/run.sh" C1 'printf "pytest_plugins = [\"tools.sel\"]\n" > conftest.py'
"$H/run.sh" C2ini 'printf "[pytest]\npythonpath = .\naddopts = -p tools.sel\n" > pytest.ini'
