"""Runs the astrix binary of the astrix-guard wheel, once it has shown that it is astrix.

The pre-commit framework (and prek) installs this package into the hook's own virtual
environment, with the astrix-guard wheel it depends on. The binary is taken from that
environment's scripts directory, never from PATH, and only when the first line of its
`--version` is exactly `astrix <version> (astrix-guard <commit>)`: another project's
program named astrix (one on PyPI is) is refused with exit 2, which blocks the commit.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig

__version__ = "0.1.0"

# The same rule as the shims that `astrix install` writes.
VERSION_LINE = re.compile(
    r"astrix [0-9][0-9A-Za-z.+-]*\.[0-9][0-9A-Za-z.+-]*\.[0-9][0-9A-Za-z.+-]*"
    r" \(astrix-guard (?:[0-9a-f]+|unknown)\)"
)


def fail(message):
    sys.stderr.write("error: " + message + "\n")
    sys.stderr.write(
        "  reinstall the hook's environment (`pre-commit clean` or `prek clean`, then commit"
        " again); the commit is blocked until then\n"
    )
    return 2


def main():
    scripts = sysconfig.get_path("scripts")
    binary = shutil.which("astrix", path=scripts)
    if binary is None:
        return fail(
            "astrix is not installed in the hook's environment (`%s`): the astrix-guard wheel"
            " is missing" % scripts
        )
    try:
        version = subprocess.run(
            [binary, "--version"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            check=False,
        )
    except OSError as error:
        return fail("`%s --version` could not run: %s" % (binary, error))
    first = version.stdout.decode("utf-8", "replace").split("\n", 1)[0].rstrip("\r")
    if version.returncode != 0 or not VERSION_LINE.fullmatch(first):
        return fail(
            "`%s` is not astrix: its `--version` does not answer `astrix <version>"
            " (astrix-guard <commit>)`, so it is another program named astrix" % binary
        )
    argv = [binary] + sys.argv[1:]
    if os.name == "posix":
        os.execv(binary, argv)
    return subprocess.run(argv, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
