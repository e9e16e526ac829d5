#!/bin/sh
# The app in a real browser: Debian's Chromium driven by playwright-core
# (no browser download) against the stack contrib/quickstart starts, one
# file of checks per view (*.test.js) sharing browserlib.js. Prints TAP.
# Skips only when node or chromium is missing; installs the pinned
# playwright-core (package-lock.json) with npm ci when it is not there
# yet, into the build tree's tests/browser/node_modules.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
src=$top_srcdir/tests/browser
out=$top_builddir/tests/browser

node=$(command -v node || command -v nodejs || true)
if [ -z "$node" ]; then
	echo "1..0 # SKIP node is not installed (Debian package nodejs)"
	exit 0
fi
chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
	for c in /usr/bin/chromium chromium chromium-browser; do
		chromium=$(command -v "$c" 2>/dev/null || true)
		[ -n "$chromium" ] && break
	done
fi
if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
	echo "1..0 # SKIP chromium is not installed (Debian package chromium)"
	exit 0
fi

# playwright-core at the version package-lock.json pins.
want=$("$node" -e 'const l=require(process.argv[1]);console.log(l.packages["node_modules/playwright-core"].version)' \
	"$src/package-lock.json") || {
	echo "Bail out! cannot read $src/package-lock.json"
	exit 99
}
have=$("$node" -e 'try{console.log(require(process.argv[1]).version)}catch(e){}' \
	"$out/node_modules/playwright-core/package.json" 2>/dev/null || true)
if [ "$have" != "$want" ]; then
	npm=$(command -v npm || true)
	if [ -z "$npm" ]; then
		echo "Bail out! playwright-core $want is not installed in $out/node_modules and there is no npm to install it"
		exit 99
	fi
	mkdir -p "$out"
	if [ "$(cd "$src" && pwd -P)" != "$(cd "$out" && pwd -P)" ]; then
		cp "$src/package.json" "$src/package-lock.json" "$out/" && chmod u+w "$out/package.json" "$out/package-lock.json"
	fi
	echo "# installing playwright-core $want with npm ci in $out"
	if ! (cd "$out" && "$npm" ci --no-audit --no-fund --loglevel=error) >"$out/npm-ci.log" 2>&1; then
		sed 's/^/# /' "$out/npm-ci.log"
		echo "Bail out! npm ci failed (log: $out/npm-ci.log)"
		exit 99
	fi
fi

# The views, in the order they run: each file's checks, in one browser
# against the same stacks (browserlib.js).
views="threads view image note graph chat orch resend daily"
set --
for v in $views; do
	set -- "$@" "$src/$v.test.js"
done
CHROMIUM=$chromium AIVISTA_BROWSER_MODULES=$out/node_modules AIVISTA_BROWSER_ARTIFACTS=$out/artifacts \
	top_srcdir=$top_srcdir top_builddir=$top_builddir \
	exec "$node" "$src/browserlib.js" "$@"
