#!/usr/bin/env bash
# tests/fuzz/run.sh: builds the libFuzzer targets with clang (address and
# undefined-behaviour sanitizers on) and runs each for a while from its
# seed corpus, printing TAP: one point per target, failed on any crash,
# leak or sanitizer report.
#
#   tests/fuzz/run.sh [SECONDS]      (default: $FUZZ_SECONDS, else 10)
#
# Environment: top_srcdir, top_builddir (set by make), CLANG (default clang).
set -uo pipefail
src=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${top_builddir:-$src}
secs=${1:-${FUZZ_SECONDS:-10}}
cc=${CLANG:-clang}
targets=(fuzz_req fuzz_sse fuzz_ids fuzz_inputs fuzz_png fuzz_patch fuzz_graph_apply fuzz_svg)

if ! command -v "$cc" >/dev/null || ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n){return 0;}' |
	"$cc" -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null; then
	echo "1..0 # SKIP no clang with libFuzzer (install clang and libclang-rt-14-dev)"
	exit 0
fi
out=$(mktemp -d /tmp/aivista-fuzz.XXXXXX)
trap 'rm -rf "$out"' EXIT
# The libraries and their flags as configure found them for the product
# (every *_CFLAGS and *_LIBS of the build's Makefile), so a new dependency
# needs nothing here.
mkvars() {
	sed -n "s/^\([A-Z0-9]*_$1\) = \(.*\)$/\2/p" "$build/Makefile" |
		grep -v -e '^[[:space:]]*$' -e '[$]' | tr '\n' ' '
}
if [ ! -r "$build/Makefile" ]; then
	echo "1..0 # SKIP no configured build tree at $build (run configure first)"
	exit 0
fi
cflags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -I$src/src -I$src/tests/fuzz -I$build $(mkvars CFLAGS)"
libs="$(mkvars LIBS) -lm"
n=0
objs=()
for f in $(cd "$src" && find src -name '*.c' ! -name main.c | sort); do
	o=$out/$(echo "$f" | tr / _).o
	if ! $cc $cflags -fsanitize=fuzzer-no-link -DAV_SYSCONFDIR='"/etc"' \
		-DAV_LOCALSTATEDIR='"/var"' -DAV_PKGDATADIR='"/usr/share/aivista"' \
		-c "$src/$f" -o "$o" 2>"$out/cc.log"; then
		echo "1..1"
		echo "not ok 1 - building $f for fuzzing"
		sed 's/^/# /' "$out/cc.log" | head -20
		exit 1
	fi
	objs+=("$o")
done
echo "1..${#targets[@]}"
for t in "${targets[@]}"; do
	n=$((n + 1))
	if ! $cc $cflags -fsanitize=fuzzer "$src/tests/fuzz/$t.c" "${objs[@]}" $libs -o "$out/$t" \
		2>"$out/$t.cc.log"; then
		echo "not ok $n - $t: does not build"
		sed 's/^/# /' "$out/$t.cc.log" | head -20
		continue
	fi
	mkdir -p "$out/corpus-$t"
	[ -d "$src/tests/fuzz/corpus/$t" ] && cp "$src/tests/fuzz/corpus/$t"/* "$out/corpus-$t/" 2>/dev/null
	(cd "$out" && ASAN_OPTIONS=detect_leaks=1 "$out/$t" -max_total_time="$secs" -max_len=4096 \
		-timeout=10 -rss_limit_mb=1024 "$out/corpus-$t" >"$out/$t.log" 2>&1)
	rc=$?
	stats=$(grep -E '^(#[0-9]+|Done)' "$out/$t.log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "ok $n - $t: ${secs}s, no crash (${stats})"
	else
		echo "not ok $n - $t: crashed (exit $rc)"
		grep -E 'ERROR|SUMMARY|==[0-9]+==|#[0-9] ' "$out/$t.log" | head -30 | sed 's/^/# /'
		ls "$out"/crash-* "$out"/leak-* 2>/dev/null | sed 's/^/# kept input: /'
		mkdir -p "$build/tests/fuzz/failures"
		cp "$out"/crash-* "$out"/leak-* "$build/tests/fuzz/failures/" 2>/dev/null
	fi
done
