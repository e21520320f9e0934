#!/usr/bin/env bash
# The action's review step: `approved=true` only for a pull request whose head commit has
# an approving review by someone other than its author who is not a bot. Each reviewer's
# latest review counts (a later "changes requested" or a dismissal takes an approval back),
# and an approval of an older head does not count for a newer one.
#
# Environment: APPROVE_ON_REVIEW, GH_TOKEN, REPO, PR, AUTHOR, HEAD_SHA, GITHUB_OUTPUT.
set -euo pipefail

approved=false
if [ "$APPROVE_ON_REVIEW" = true ] && [ -n "$PR" ]; then
    reviews=$(mktemp)
    gh api --paginate "repos/$REPO/pulls/$PR/reviews" > "$reviews"
    approved=$(jq -rs --arg author "$AUTHOR" --arg head "$HEAD_SHA" '
      add // []
      | map(select(.user != null and .user.type != "Bot" and .user.login != $author
                   and .state != "COMMENTED" and .state != "PENDING"))
      | group_by(.user.login) | map(max_by(.submitted_at))
      | any(.state == "APPROVED" and .commit_id == $head)' "$reviews")
    rm -f "$reviews"
fi
echo "astrix: approved by review: $approved"
echo "approved=$approved" >> "$GITHUB_OUTPUT"
