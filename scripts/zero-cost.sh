#!/bin/bash
# What the series costs, from the builds lint-prefixes.sh kept, as TAP.
# A config without the device (boot set "off") must give the pristine
# kernel: every section of vmlinux the same size (size -A), an empty
# bloat-o-meter, and each object compiled from a file the series touches
# (drivers/char/mem.o, fs/proc/kcore.o and kcore.h's includers) the same
# sections and symbols. size(1) of vmlinux alone is
# not enough: x86_64 pads text to 2 MiB, so kilobytes hide in it.
# For a config with the device, the device's own cost (built without its
# KUnit suite) must stay within KMEM_TEXT_BUDGET bytes of text in the
# objects; the cost with the suite is printed beside it. The limit is
# this harness's, not an issue's (issue 5 asked for the delta printed and
# small, "a KiB or two of text"): 4096 held the device up to its vmalloc
# reads (4062 bytes on 6.12); the devkmem= mode and its sysctl (issue 25)
# took it past that, and the limit became 6144; lowering as a barrier
# (SRCU, a pseudo filesystem, a fault handler) took 6.12 to 6816 bytes,
# and the limit is now 7168, to catch growth.
# Writes build/results/zero-cost/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
s=$(dirname "$0")

in=$RESULTS/lint-prefixes
out=$RESULTS/zero-cost
mkdir -p "$out"
n=0
budget=${KMEM_TEXT_BUDGET:-7168}

# objdelta CONFIG OLD [NEW]: "text data bss" of the objects the series
# can change in CONFIG (lint-prefixes.sh's CONFIG.objects: those compiled
# from a file it touches), patched minus OLD's (base or nokunit); NEW
# (optional) replaces the patched build.
objdelta() {
	local c=$1 old=$2 new=${3:-} o t=0 d=0 b=0 objs
	mapfile -t objs < "$in/$c.objects"
	for o in "${objs[@]}"; do
		read -r t0 d0 b0 < <(sizes "$in/$old-$c.${o//\//-}")
		if [ -n "$new" ]; then
			read -r t1 d1 b1 < <(sizes "$in/$new-$c.${o//\//-}")
		elif linked "$c" "$o"; then
			read -r t1 d1 b1 < <(sizes "$KEEP/$c/$o")
		else
			t1=0 d1=0 b1=0
		fi
		t=$((t + t1 - t0)) d=$((d + d1 - d0)) b=$((b + b1 - b0))
	done
	echo "$t $d $b"
}

bloat_total() {
	sed -n 's/.*up\/down: \([0-9]*\)\/-\{0,1\}\([0-9]*\) (\(-\{0,1\}[0-9]*\))$/\3/p' "$1"
}

{
echo "TAP version 13"
for c in "${LINT_CONFIGS[@]}" $(lint_ends_configs); do
	base=$in/base-$c.vmlinux
	if [ ! -f "$base" ]; then
		point FAIL "$c: no pristine build (lint-prefixes.sh did not make one)"
		continue
	fi
	"$TREE/scripts/bloat-o-meter" "$base" "$KEEP/$c/vmlinux" \
		> "$out/$c.bloat" 2>&1 || true
	if [ "$("$s/configs.sh" sets "$c" | head -1)" = off ]; then
		if diff <(size -A "$base" | sed 1d) \
			<(size -A "$KEEP/$c/vmlinux" | sed 1d) > "$out/$c.sections"; then
			point OK "$c: every section of vmlinux is its pristine size (size -A; size: $(sizes "$base"))"
		else
			point FAIL "$c: vmlinux sections differ from the pristine build"
			sed 's/^/# /' "$out/$c.sections"
		fi
		if grep -q '^add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)$' \
			"$out/$c.bloat"; then
			point OK "$c: bloat-o-meter pristine -> patched: no symbol changed"
		else
			point FAIL "$c: bloat-o-meter pristine -> patched is not empty"
			sed 's/^/# /' "$out/$c.bloat"
		fi
		# Each object the series can change: every section its
		# pristine size (size -A), every symbol its pristine size
		# (nm -S; an initcall's name carries its line in the file:
		# masked). mem.o must be among them.
		bad=()
		grep -qx drivers/char/mem.o "$in/$c.objects" || bad+=("(no drivers/char/mem.o)")
		while read -r o; do
			f=$in/base-$c.${o//\//-}
			if ! diff <(size -A "$f" | sed 1d) <(size -A "$KEEP/$c/$o" | sed 1d) \
				> "$out/$c.${o//\//-}.sections" ||
			   ! diff <(syms "$f") <(syms "$KEEP/$c/$o") >> "$out/$c.${o//\//-}.sections"; then
				bad+=("$o")
			fi
		done < "$in/$c.objects"
		if [ ${#bad[@]} -eq 0 ] && [ "$(objdelta "$c" base)" = "0 0 0" ]; then
			point OK "$c: the $(wc -l < "$in/$c.objects") objects compiled from files the series touches ($(xargs < "$in/$c.objects")): every section and symbol the pristine one"
		else
			point FAIL "$c: objects differ from the pristine build: ${bad[*]} (text data bss: $(objdelta "$c" base))"
		fi
		continue
	fi
	if [ ! -f "$in/nokunit-$c.vmlinux" ]; then
		point FAIL "$c: no build without the KUnit suite"
		continue
	fi
	"$TREE/scripts/bloat-o-meter" "$base" "$in/nokunit-$c.vmlinux" \
		> "$out/$c-device.bloat" 2>&1 || true
	read -r t d b < <(objdelta "$c" base nokunit)
	if [ "$t" -gt 0 ] && [ "$t" -le "$budget" ]; then
		point OK "$c: the device costs $t bytes of text, $d data, $b bss (budget $budget bytes of text)"
	else
		point FAIL "$c: the device costs $t bytes of text, $d data, $b bss (budget $budget bytes of text)"
	fi
	read -r tk dk bk < <(objdelta "$c" base)
	echo "# $c: symbols, bloat-o-meter: device $(bloat_total "$out/$c-device.bloat") bytes, with the KUnit suite $(bloat_total "$out/$c.bloat") bytes"
	echo "# $c: objects with the KUnit suite: text $tk, data $dk, bss $bk bytes"
done
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
