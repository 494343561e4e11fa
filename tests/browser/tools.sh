# tools.sh: sourced by the browser suites (test_browser.sh, test_pwa.sh)
# with $here and $suite set: Debian's chromium in $chromium and the pinned
# puppeteer-core, or a failure naming what is missing (never a skip).
chromium=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$chromium" ]; then
	echo "FAIL $suite: no chromium (make deps installs Debian's chromium)"
	exit 1
fi
if [ ! -d "$here/node_modules/puppeteer-core" ]; then
	echo "FAIL $suite: no puppeteer-core in $here/node_modules (make deps runs npm ci there)"
	exit 1
fi
