#!/bin/sh
# The web board in headless Chromium against the real daemon (issue 24):
# tests/browser/test_web.mjs through puppeteer-core, pinned by
# tests/browser/package-lock.json and installed by `make deps` (npm ci).
# Slow, so tests/module.mk runs it in one pass only (gcc, no sanitizers).
# A missing tool is a failure, never a skip. Screenshots go to
# $O/browser (build/<variant>/browser): the lobby, a game and a replay in
# English and Chinese in its en/ and zh_CN/ (issue 42). BROWSER_CASE=name (or names,
# comma-separated) runs those cases of test_web.mjs's table alone (puzzleBoard, ...), and
# BROWSER_PORT=n puts its daemon on port n.
set -u
here=$(dirname "$0")
suite=browser
. "$here/tools.sh"
BINDIR=${BINDIR:-bin} SHOTS=${O:-build}/browser CHROMIUM=$chromium exec node "$here/test_web.mjs"
