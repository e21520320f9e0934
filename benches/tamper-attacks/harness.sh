# The harness attack-59.sh and attack-60.sh source: a fresh repository per case, the test
# runner's summary before and after the edit, and astrix's judgement of the staged edit as an
# agent (CLAUDECODE=1). Expects H0 (the run's directory, the working directory), ASTRIX,
# PYTEST, PYTHON, MOCHA, MOCHA_NODE_PATH and, for K=npm, NPM; K names the runner of a case.
# Prints per case: NAME astrix=RC | before: <runner> rc=N | after: <runner> rc=N
newrepo(){ D=$(mktemp -d "$H0/$1.XXXX"); cd "$D"; git init -q -b master .; git config user.email a@b; git config user.name a; git switch -q -c feat; }
run(){ case $K in
  py)  $PYTEST -p no:cacheprovider 2>&1 | grep -E '^=+ .*(passed|failed|error|no tests)' | tail -1 | tr -d '=' | cut -c1-60; echo "rc=${PIPESTATUS[0]}";;
  pym) $PYTHON -m pytest -p no:cacheprovider 2>&1 | grep -E '^=+ .*(passed|failed|error|no tests)' | tail -1 | tr -d '=' | cut -c1-60; echo "rc=${PIPESTATUS[0]}";;
  make) make -s test 2>&1 | grep -E 'passed|failed|rror' | tail -1 | tr -d '=' | cut -c1-60; echo "rc=${PIPESTATUS[0]}";;
  sh)  sh scripts/test.sh 2>&1 | grep -E 'passed|failed|rror' | tail -1 | tr -d '=' | cut -c1-60; echo "rc=${PIPESTATUS[0]}";;
  js)  NODE_PATH=$MOCHA_NODE_PATH $MOCHA 2>&1 | grep -E 'passing|failing' | tr '\n' ' ' | cut -c1-60; echo "rc=${PIPESTATUS[0]}";;
  npm) $NPM test --silent 2>&1 | grep -E 'passing|failing' | tr '\n' ' ' | cut -c1-60; echo "rc=${PIPESTATUS[0]}";;
esac; }
base(){ git add -A; git commit -qm base; B=$(run | tr '\n' ' '); }
astrix(){ env -i HOME=$D/home PATH=/usr/bin:/bin:/usr/local/bin GIT_CONFIG_NOSYSTEM=1 CLAUDECODE=1 $ASTRIX check >$D.astrix.out 2>&1; echo $?; }
judge(){ git add -A; A=$(astrix); P=$(run | tr '\n' ' ')
  echo "$1 astrix=$A | before: $B| after: $P"; cd "$H0"; }
# step NAME: judge and commit (for two-commit cases), stays in the repository
step(){ git add -A; A=$(astrix); cp $D.astrix.out $D.$1.out; echo "$1 astrix=$A (step)"; git commit -qm "$1" --no-verify; }
