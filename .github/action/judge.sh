#!/usr/bin/env bash
# The action's judging step: `astrix ci` with the base and head of the pull request (or of
# the inputs), `--approved` only when the review step said so. On GitHub Actions astrix
# writes an annotation per deciding rule and the job summary by itself.
#
# Environment: BASE, HEAD, TARGET_BRANCH, HEAD_BRANCH, PR_BASE_REF, PR_HEAD_SHA, APPROVED,
# WORKING_DIRECTORY, GITHUB_OUTPUT.
set -uo pipefail

cd "${WORKING_DIRECTORY:-.}" || {
    echo "::error title=astrix::the working-directory \`$WORKING_DIRECTORY\` does not exist"
    echo "exit-code=2" >> "$GITHUB_OUTPUT"
    exit 2
}

args=(ci)
if [ -n "$BASE" ]; then
    args+=(--base "$BASE")
elif [ -n "$PR_BASE_REF" ]; then
    args+=(--base "origin/$PR_BASE_REF")
else
    echo "::error title=astrix::no base to judge against: outside a pull request event, give the action \`base\` (and \`target-branch\` when it does not name a branch)"
    echo "exit-code=2" >> "$GITHUB_OUTPUT"
    exit 2
fi
head=${HEAD:-$PR_HEAD_SHA}
[ -n "$head" ] && args+=(--head "$head")
[ -n "$TARGET_BRANCH" ] && args+=(--target-branch "$TARGET_BRANCH")
[ -n "$HEAD_BRANCH" ] && args+=(--head-branch "$HEAD_BRANCH")
[ "$APPROVED" = true ] && args+=(--approved)

echo "astrix ${args[*]}"
astrix "${args[@]}"
code=$?
echo "exit-code=$code" >> "$GITHUB_OUTPUT"
exit "$code"
