#!/bin/sh
# The web board installable and offline (issue 44, item 6) in headless
# Chromium against the real daemon: tests/browser/test_pwa.mjs through
# puppeteer-core, over a certificate of the test's own CA that Chromium is
# told to trust (a service worker needs a secure context). Slow, so
# tests/module.mk runs it in one pass only (gcc, no sanitizers), as
# test_browser.sh. A missing tool is a failure, never a skip.
set -u
here=$(dirname "$0")
suite=pwa
. "$here/tools.sh"
command -v openssl > /dev/null || { echo "FAIL pwa: no openssl (make deps)"; exit 1; }
BINDIR=${BINDIR:-bin} CHROMIUM=$chromium exec node "$here/test_pwa.mjs"
