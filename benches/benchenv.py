"""The environment every benchmark script runs git and astrix in.

Isolated like the tests: no system or global git configuration, fixed identities and dates,
and nothing else from the caller's environment but `PATH` (so no `GIT_*` variables and no
agent markers such as `CLAUDECODE`).
"""

import os


def git_env(home):
    """The environment, with `home` as `HOME`."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
        "LC_ALL": "C",
    }
