#!/usr/bin/env bash
# The action's install step: astrix VERSION from its GitHub release (the archive for this
# runner, checked against its SHA-256 sum), else the astrix-guard wheel from PyPI, else,
# with VERSION=source, built from the action's own checkout. The installed program must
# answer `--version` as astrix does, at that version, before it goes on PATH.
#
# Environment: VERSION, ACTION_PATH, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH;
# ASTRIX_DOWNLOAD_BASE (default: the repository's releases) for a mirror or a test.
set -euo pipefail

repository=astrix-guard/astrix
base_url=${ASTRIX_DOWNLOAD_BASE:-https://github.com/$repository/releases/download}
dest=$RUNNER_TEMP/astrix
rm -rf "$dest"
mkdir -p "$dest"

fail() {
    echo "::error title=astrix::$1"
    exit 2
}

exe=astrix
[ "$RUNNER_OS" = Windows ] && exe=astrix.exe

from_release() {
    local target archive url sums
    case "$RUNNER_OS/$RUNNER_ARCH" in
    Linux/X64) target=x86_64-unknown-linux-musl ;;
    Linux/ARM64) target=aarch64-unknown-linux-musl ;;
    macOS/X64) target=x86_64-apple-darwin ;;
    macOS/ARM64) target=aarch64-apple-darwin ;;
    Windows/X64) target=x86_64-pc-windows-msvc ;;
    *)
        echo "astrix: no release binary for $RUNNER_OS/$RUNNER_ARCH"
        return 1
        ;;
    esac
    archive=astrix-$VERSION-$target.tar.gz
    [ "$RUNNER_OS" = Windows ] && archive=astrix-$VERSION-$target.zip
    url=$base_url/v$VERSION/$archive
    echo "astrix: downloading $url"
    curl --fail --silent --show-error --location --retry 3 -o "$dest/$archive" "$url" || return 1
    curl --fail --silent --show-error --location --retry 3 -o "$dest/$archive.sha256" "$url.sha256" || return 1
    sums=$(cd "$dest" && { sha256sum "$archive" 2>/dev/null || shasum -a 256 "$archive"; })
    if [ "${sums%% *}" != "$(cut -d ' ' -f 1 < "$dest/$archive.sha256")" ]; then
        fail "the SHA-256 sum of $archive does not match $archive.sha256: not installing it"
    fi
    case $archive in
    *.zip) (cd "$dest" && unzip -q "$archive") ;;
    *) tar -C "$dest" -xzf "$dest/$archive" ;;
    esac
    bin=$dest/astrix-$VERSION-$target
}

from_wheel() {
    local python=python3
    command -v "$python" > /dev/null 2>&1 || python=python
    echo "astrix: installing the wheel astrix-guard==$VERSION from PyPI"
    "$python" -m venv "$dest/venv" || return 1
    bin=$dest/venv/bin
    [ "$RUNNER_OS" = Windows ] && bin=$dest/venv/Scripts
    "$bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
        "astrix-guard==$VERSION" || return 1
}

from_source() {
    echo "astrix: building the action's own checkout ($ACTION_PATH) with cargo"
    cargo install --locked --path "$ACTION_PATH" --root "$dest/source"
    bin=$dest/source/bin
}

bin=
if [ "$VERSION" = source ]; then
    from_source
else
    # A version, and nothing that could go into a URL or a pip requirement as something else.
    [[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$ ]] ||
        fail "\`version: $VERSION\` is not a release version (such as 0.1.0) nor \`source\`"
    from_release || from_wheel ||
        fail "astrix $VERSION could not be installed: no release archive and no astrix-guard wheel for $RUNNER_OS/$RUNNER_ARCH"
fi

# What was installed must be astrix, at the version asked for.
line=$("$bin/$exe" --version | head -n 1) || fail "\`$bin/$exe --version\` failed"
if [ "$VERSION" = source ]; then
    pattern='^astrix [0-9]+\.[0-9]+\.[0-9][0-9A-Za-z.+-]* \(astrix-guard ([0-9a-f]+|unknown)\)$'
else
    pattern="^astrix ${VERSION//./\\.} \\(astrix-guard ([0-9a-f]+|unknown)\\)$"
fi
[[ $line =~ $pattern ]] || fail "the installed program is not astrix $VERSION: its --version says \`$line\`"
echo "astrix: $line, at $bin"
echo "$bin" >> "$GITHUB_PATH"
