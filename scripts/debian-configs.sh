#!/bin/bash
# debian-configs.sh [--update-doc]
# The series against Debian's own kernel configs, the ones the queue's
# "debian-configs" file names (package linux-config-<base>), as TAP:
#  - make debian's quilt patches, pushed with "quilt push -a" onto the
#    pristine tree from the linux-source tarball (a hard-linked copy,
#    KEEP/debian/linux, of KEEP/debian/pristine: common.sh), give
#    build/linux: quilt touched exactly the files the series changes,
#    and each is build/linux's, mode included;
#  - as shipped: after olddefconfig STRICT_DEVMEM is still y and DEVKMEM
#    is offered, off ("# CONFIG_DEVKMEM is not set"), the .config is the
#    pristine tree's line for line but for that line, and every
#    object compiled from a C file the series touches or from a C file
#    including a header it touches (touched_objects: mem.o, kcore.o,
#    kcore.h's includers) keeps every section but the debug info
#    (size -A) and every symbol (nm -S). Only those objects are built,
#    before and after quilt push, in one O= folder
#    (KEEP/debian/obj/) that each config takes in turn: kbuild redoes
#    what a new .config changes, and builds the host tools (objtool,
#    scripts/) once, not once per config;
#  - as a debug flavour: kconfig-fragments/debug-flavour.config merged
#    with merge_config.sh, olddefconfig, scripts/diffconfig against the
#    shipped config (after olddefconfig here: the compiler's symbols are
#    this machine's); no symbol may change beyond the fragment's own
#    and DEVKMEM's children (its mode, its KUnit suite): a change would
#    be listed with its reason in the Kconfig files
#    (scripts/kconfig-why.py); mem.o with and without DEVKMEM gives the
#    device's cost;
#  - the table in docs/distributions.md between the "debian-configs"
#    markers is the one this run generates (--update-doc writes it), and
#    the cost sentence under it is in each cover letter and in
#    docs/upstream.md.
# Writes build/results/debian-configs/ (table.md, each config's
# .diffconfig) and build/debian/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
s=$(dirname "$0")

pkg=$(config_package)
out=$RESULTS/debian-configs
deb=$BUILD/debian	# its quilt patches (debian-patches.sh)
keep_lock
src=$KEEP/debian/linux
obj=$KEEP/debian/obj
fragment=$FRAGMENTS/debug-flavour.config
doc=$TOP/docs/distributions.md
n=0
mapfile -t names < <(debian_configs)
mkdir -p "$out"
rm -f "$out"/*
: > "$out/off-cost"
: > "$out/differ"

# dmake ARGS...: make in the unpacked tree, into KEEP/debian/obj/
dmake() {
	make -C "$src" O="$obj" ARCH=x86_64 "${KBUILD_CC[@]}" "${KBUILD_STAMPS[@]}" "$@"
}

# mem_o CONFIG LABEL: build drivers/char/mem.o alone, keep it as
# $out/CONFIG.LABEL.o
mem_o() {
	dmake -s -j"$(nproc)" drivers/char/mem.o >> "$out/$1.log" 2>&1 &&
		cp "$obj/drivers/char/mem.o" "$out/$1.$2.o"
}

# The objects the series can change in a kernel that does not build
# /dev/kmem: those compiled from a C file it touches (one its directory's
# Makefile names: mem_kunit.c is #included by mem.c), or from a C file
# that includes a header it touches, directly or through other headers.
# Found with grep in the tree, not by building Debian's whole kernels.
touched_objects() {
	local f h hs=() hdr re more
	local -A seen=()
	while read -r f; do
		case $f in
		tools/*|Documentation/*) ;;
		*.c) ! grep -qw "$(basename "${f%.c}").o" "$TREE/$(dirname "$f")/Makefile" ||
			echo "${f%.c}.o" ;;
		*.h) hs+=("$f") ;;
		esac
	done < <(git -C "$TREE" diff --name-only base HEAD)
	# include/linux/x.h is <linux/x.h>, arch/x86/include/asm/x.h <asm/x.h>
	re=
	while [ ${#hs[@]} -gt 0 ]; do
		more=()
		for h in "${hs[@]}"; do
			hdr=$(sed -E 's#^(arch/x86/)?include/(uapi/)?##' <<<"$h")
			[ -z "${seen[$hdr]:-}" ] || continue
			seen[$hdr]=1
			re+="${re:+|}<${hdr//./\\.}>"
			while read -r f; do more+=("$f"); done < <(cd "$TREE" &&
				grep -rlE --include='*.h' "^#include <${hdr//./\\.}>" include arch/x86/include || true)
		done
		hs=("${more[@]}")
	done
	[ -z "$re" ] || (cd "$TREE" && { grep -rlE --include='*.c' "^#include ($re)" \
		--exclude-dir=tools --exclude-dir=Documentation --exclude-dir=arch . || true; }
		grep -rlE --include='*.c' "^#include ($re)" arch/x86) |
		sed -e 's|^\./||' -e 's|\.c$|.o|'
}

# objs_o CONFIG LABEL: build the touched objects with CONFIG, keep each as
# $out/CONFIG.LABEL.<path-of-object>. In the pristine tree, those that
# CONFIG does not build (aperture_64.o without GART_IOMMU: kbuild compiles
# a single object it is asked for, selected or not, and that one fails)
# are dropped from CONFIG's list, $out/CONFIG.objects: Debian builds these
# configs, so a pristine object that does not compile is one they leave
# out. With the series, every object of that list must build.
objs_o() {
	local o list=$out/$1.objects
	if [ "$2" = pristine ]; then
		(cd "$obj" && rm -f "${objects[@]}")
		dmake -k -s -j"$(nproc)" "${objects[@]}" >> "$out/$1.log" 2>&1 || true
		for o in "${objects[@]}"; do
			[ ! -f "$obj/$o" ] || echo "$o"
		done > "$list"
		[ -s "$list" ] || return 1
	else
		mapfile -t mine < "$list"
		dmake -s -j"$(nproc)" "${mine[@]}" >> "$out/$1.log" 2>&1 || return 1
	fi
	while read -r o; do
		cp "$obj/$o" "$out/$1.$2.${o//\//-}"
	done < "$list"
}

# sections OBJECT: size -A of the sections that reach the kernel: not
# the debug info Debian's configs build (DWARF records the line of every
# function, and the series moves mem.c's lines), nor the total.
sections() {
	size -A "$1" | sed 1d | grep -vE '^(\.rela)?\.debug_|^Total'
}

# same OBJ1 OBJ2: every such section the same size and the same symbols
# at the same offsets with the same sizes (nm -S; an initcall's line
# masked).
same() {
	diff -q <(sections "$1") <(sections "$2") > /dev/null &&
		cmp -s <(syms "$1") <(syms "$2")
}

{
echo "TAP version 13"
"$s/debian-patches.sh" > /dev/null
# The pristine tree: unpacked once per package version into
# KEEP/debian/pristine, and each run a hard-linked copy of it (patch(1),
# under quilt, writes a new file and renames it: the link breaks and the
# pristine copy stays as it was; checked here against the base commit).
# Its files keep their dates, so the O= folder, kept too, is built again
# only where a config or the series changes it.
pristine=$KEEP/debian/pristine
tarball=/usr/src/$(base_package).tar.xz
stamp=$(dpkg-query -W -f='${Version}' "$(base_package)")
if [ "$(cat "$pristine.stamp" 2>/dev/null)" != "$stamp" ] ||
   ! git -C "$TREE" diff --name-only --diff-filter=M base HEAD | while read -r f; do
	git -C "$TREE" show "base:$f" | cmp -s - "$pristine/$f" || exit 1
   done; then
	echo "  UNPACK  $tarball -> $pristine"
	rm -rf "$pristine" "$pristine.stamp" "$obj"
	mkdir -p "$pristine"
	tar -C "$pristine" --strip-components=1 -xJf "$tarball"
	echo "$stamp" > "$pristine.stamp"
fi
rm -rf "$src"
cp -al "$pristine" "$src"
mkdir -p "$obj"

# The pristine tree, each config as shipped.
mapfile -t objects < <(touched_objects | sort -u)
printf '%s\n' "${objects[@]}" > "$out/objects"
for c in "${names[@]}"; do
	xz -dc "/usr/src/$pkg/config.$c.xz" > "$out/$c.shipped"
	cp "$out/$c.shipped" "$obj/.config"
	dmake -s olddefconfig > "$out/$c.log" 2>&1
	cp "$obj/.config" "$out/$c.pristine.config"
	objs_o "$c" pristine || die "$c: ${objects[*]} do not build in the pristine tree ($BUILD_REL/results/debian-configs/$c.log)"
done

# make debian's patches onto it.
if (cd "$src" && QUILT_PATCHES=$deb/patches QUILT_PC=.pc quilt push -a -q) \
	> "$out/quilt.log" 2>&1; then
	point OK "quilt push -a applies the $(grep -c . "$deb/patches/series") patches of $BUILD_REL/debian/patches/series"
else
	point FAIL "quilt push -a fails ($BUILD_REL/results/debian-configs/quilt.log): $(tail -1 "$out/quilt.log")"
fi
# quilt keeps, in .pc/<patch>/, the file as it was before each patch.
touched=$(while read -r p; do
	(cd "$src/.pc/$p" && find . -type f ! -name .timestamp | sed 's|^\./||')
done < "$deb/patches/series" | sort -u)
changed=$(git -C "$TREE" diff --name-only base HEAD | sort)
differ=()
while read -r f; do
	mode=$(git -C "$TREE" ls-tree HEAD -- "$f" | awk '{ print $1 }')
	if [ -z "$mode" ]; then
		[ ! -e "$src/$f" ] || differ+=("$f")
	elif ! git -C "$TREE" show "HEAD:$f" | cmp -s - "$src/$f" ||
	     [ "$mode" != "$([ -x "$src/$f" ] && echo 100755 || echo 100644)" ]; then
		differ+=("$f")
	fi
done <<<"$changed"
if [ "$touched" = "$changed" ] && [ ${#differ[@]} -eq 0 ]; then
	point OK "the quilt-patched tree is build/linux: $(wc -l <<<"$changed") files changed, each the same, mode included"
else
	point FAIL "the quilt-patched tree is not build/linux: $(comm -3 <(echo "$touched") <(echo "$changed") | xargs) ${differ[*]}"
fi

# As shipped, with the series: DEVKMEM is offered beside STRICT_DEVMEM,
# and off; kconfig writes this line, and no other changes.
offered='# CONFIG_DEVKMEM is not set'

# as_pristine CONFIG: its .config is the pristine tree's and that line
as_pristine() {
	[ "$(diff "$out/$1.pristine.config" "$out/$1.config" | grep '^[<>]')" = "> $offered" ]
}

for c in "${names[@]}"; do
	cp "$out/$c.shipped" "$obj/.config"
	dmake -s olddefconfig >> "$out/$c.log" 2>&1
	cp "$obj/.config" "$out/$c.config"
	if grep -qx 'CONFIG_STRICT_DEVMEM=y' "$out/$c.config" &&
	   grep -qxF "$offered" "$out/$c.config"; then
		point OK "$c as shipped: STRICT_DEVMEM=y, DEVKMEM offered and off"
	else
		point FAIL "$c as shipped: $(grep -E 'CONFIG_(STRICT_DEVMEM|DEVKMEM)[ =]' "$out/$c.config" | xargs)"
	fi
	if as_pristine "$c"; then
		point OK "$c as shipped: the .config is the pristine tree's, line for line, and '$offered'"
	else
		point FAIL "$c as shipped: the .config differs from the pristine tree's: $(diff "$out/$c.pristine.config" "$out/$c.config" | grep '^[<>]' | xargs)"
	fi
	if ! objs_o "$c" series; then
		point FAIL "$c as shipped: ${objects[*]} do not build with the series ($BUILD_REL/results/debian-configs/$c.log)"
		continue
	fi
	differ=()
	mapfile -t mine < "$out/$c.objects"
	for o in "${mine[@]}"; do
		a=$out/$c.pristine.${o//\//-} b=$out/$c.series.${o//\//-}
		read -r t0 d0 b0 < <(sizes "$a")
		read -r t1 d1 b1 < <(sizes "$b")
		echo "$c|$o|$((t1 - t0))|$((d1 - d0))|$((b1 - b0))" >> "$out/off-cost"
		same "$a" "$b" || { differ+=("$o"); echo "$c|$o" >> "$out/differ"; }
	done
	if [ ${#differ[@]} -eq 0 ]; then
		point OK "$c as shipped: the ${#mine[@]} objects the series can change that it builds are the pristine tree's, every section but the debug info (size -A) and every symbol (nm -S; an initcall's line number masked): ${mine[*]}"
	else
		point FAIL "$c as shipped: differ from the pristine tree's: ${differ[*]} ($(grep "^$c|" "$out/off-cost" | grep -v '|0|0|0$' | cut -d'|' -f2- | xargs))"
	fi
done

# As a debug flavour.
mapfile -t own < <(grep -oE '^(# )?CONFIG_[A-Z0-9_]+' "$fragment" | sed 's/.*CONFIG_//')
rows=()
for c in "${names[@]}"; do
	cp "$out/$c.config" "$obj/.config"
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$fragment" >> "$out/$c.log" 2>&1
	dmake -s olddefconfig >> "$out/$c.log" 2>&1
	cp "$obj/.config" "$out/$c.debug.config"
	"$src/scripts/diffconfig" "$out/$c.config" "$out/$c.debug.config" > "$out/$c.diffconfig"
	mapfile -t all < <(awk '{ print $1 }' "$out/$c.diffconfig" | sed 's/^[-+]//')
	# Beyond the fragment's own symbols and DEVKMEM's children (the rest
	# of its mode's choice, its KUnit suite), nothing may change.
	mapfile -t beyond < <(printf '%s\n' "${all[@]}" | grep -vxF -f <(printf '%s\n' "${own[@]}") |
		grep -v '^DEVKMEM_' || true)
	if grep -qx 'CONFIG_DEVKMEM=y' "$out/$c.debug.config" &&
	   [ ${#beyond[@]} -eq 0 ]; then
		point OK "$c + debug-flavour.config: DEVKMEM=y, and nothing else changes but its own: ${all[*]}"
	else
		point FAIL "$c + debug-flavour.config: DEVKMEM is not y, or other symbols change: ${beyond[*]} ($BUILD_REL/results/debian-configs/$c.diffconfig)"
	fi
	missing=()
	while IFS=$'\t' read -r sym why; do
		[ -n "$why" ] || missing+=("$sym")
		line=$(grep -E "^[-+ ]$sym " "$out/$c.diffconfig")
		case $line in
		-*) was=${line#-"$sym" } now="not offered" ;;
		+*) was="not offered" now=${line#+"$sym" } ;;
		*)  was=$(sed 's/.* \(.*\) -> .*/\1/' <<<"$line") now=${line##*-> } ;;
		esac
		why=${why//|/\\|}	# a table cell
		rows+=("$sym"$'\t'"$was"$'\t'"$now"$'\t'"\`${why%%: *}\`: \`${why#*: }\`"$'\t'"$c")
	done < <([ ${#beyond[@]} -eq 0 ] ||
		"$s/kconfig-why.py" "$src" x86 "${all[@]}" -- "${beyond[@]}")
	# (a change beyond them has failed above; its reason goes to the table)
	[ ${#missing[@]} -eq 0 ] ||
		point FAIL "$c + debug-flavour.config: no Kconfig line explains ${missing[*]}"
	# The device's cost in mem.o: this config, with and without DEVKMEM.
	if grep -qx 'CONFIG_DEVKMEM=y' "$obj/.config" && mem_o "$c" debug &&
	   "$src/scripts/config" --file "$obj/.config" --disable DEVKMEM &&
	   dmake -s olddefconfig >> "$out/$c.log" 2>&1 && mem_o "$c" nodevice; then
		read -r t1 d1 b1 < <(sizes "$out/$c.debug.o")
		read -r t0 d0 b0 < <(sizes "$out/$c.nodevice.o")
		echo "$c|$((t1 - t0))|$((d1 - d0))|$((b1 - b0))" >> "$out/cost"
		if [ "$t1" -gt "$t0" ]; then
			point OK "$c + debug-flavour.config: the device costs $((t1 - t0)) bytes of text, $((d1 - d0)) data, $((b1 - b0)) bss in mem.o"
		else
			point FAIL "$c + debug-flavour.config: DEVKMEM=y adds no text to mem.o"
		fi
	else
		point FAIL "$c + debug-flavour.config: no device cost: DEVKMEM is not y, or mem.o does not build ($BUILD_REL/results/debian-configs/$c.log)"
	fi
done

# shipped_cell CONFIG: what the series changes in CONFIG as shipped.
shipped_cell() {
	local cfg="same, and '$offered'" d
	as_pristine "$1" || cfg=differs
	d=$(grep "^$1|" "$out/off-cost" 2>/dev/null | grep -v '|0|0|0$' | cut -d'|' -f2- | sed 's/|/: /; s/|/, /g' | paste -sd';' | sed 's/;/; /g')
	echo ".config $cfg; ${d:-the $(wc -l < "$out/$1.objects") objects it builds the same: 0, 0, 0 bytes}"
}

# cost_sentence: the cost with CONFIG_DEVKMEM=n as measured, one line,
# which the cover letters and docs/upstream.md carry (checked below).
cost_sentence() {
	local t d b c cfg="is the pristine tree's, line for line, and '$offered'" all=""
	read -r t d b < <(awk -F'|' '{ t += $3; d += $4; b += $5 }
		END { print t + 0, d + 0, b + 0 }' "$out/off-cost")
	for c in "${names[@]}"; do
		as_pristine "$c" ||
			cfg="differs from the pristine tree's"
	done
	grep -vq '|0|0|0$' "$out/off-cost" || [ -s "$out/differ" ] ||
		all=", every section (the debug info aside) and symbol the pristine tree's (an initcall's line number aside)"
	printf '%s %s %s: %s, and the objects compiled from a file %s, where the config builds them (%s), %s.\n' \
		"Cost with CONFIG_DEVKMEM=n, measured on Debian's" \
		"$(printf '%s, ' "${names[@]}" | sed 's/, $//')" \
		"configs ($pkg $(dpkg-query -W -f='${Version}' "$pkg"))" \
		"the .config $cfg" \
		"the series touches or from a C file including a header it touches" \
		"$(xargs < "$out/objects")" \
		"add $t bytes of text, $d of data and $b of bss$all"
}

# The table for docs/distributions.md: what the fragment changes, then
# one row per change beyond the fragment's own lines, with the configs it
# happens in.
{
	echo "<!-- debian-configs: generated by scripts/debian-configs.sh from $pkg $(dpkg-query -W -f='${Version}' "$pkg"); do not edit -->"
	echo
	echo "debug-flavour.config sets $(printf '%s, ' "${own[@]}" | sed 's/, $//'); after olddefconfig, $([ ${#rows[@]} -eq 0 ] && echo "no other symbol changes (scripts/diffconfig)." || echo "these change too:")"
	[ ${#rows[@]} -eq 0 ] || {
	echo
	echo "| symbol | as shipped | with debug-flavour.config | why (Kconfig) | configs |"
	echo "|---|---|---|---|---|"
	}
	[ ${#rows[@]} -eq 0 ] || printf '%s\n' "${rows[@]}" | awk -F'\t' -v n=${#names[@]} '
		{ k = $1 "\t" $2 "\t" $3 "\t" $4; if (!(k in c)) o[++m] = k
		  c[k] = (k in c) ? c[k] ", " $5 : $5; cnt[k]++ }
		END { for (i = 1; i <= m; i++) { k = o[i]; split(k, f, "\t")
			printf "| `%s` | %s | %s | %s | %s |\n", f[1], f[2], f[3], f[4],
				cnt[k] == n ? "all " n : c[k] } }'
	echo
	echo "| config | DEVKMEM as shipped | as shipped, against the pristine tree: .config, objects (text, data, bss) | device in mem.o with debug-flavour.config (text, data, bss) |"
	echo "|---|---|---|---|"
	for c in "${names[@]}"; do
		IFS='|' read -r _ t d b < <(grep "^$c|" "$out/cost" || echo "|?|?|?")
		echo "| $c | offered, off (beside STRICT_DEVMEM=y) | $(shipped_cell "$c") | $t, $d, $b bytes |"
	done
	echo
	cost_sentence
	echo
	echo "<!-- end of debian-configs -->"
} > "$out/table.md"

block() { sed -n '/^<!-- debian-configs: /,/^<!-- end of debian-configs -->$/p' "$1"; }
if [ "${1:-}" = --update-doc ]; then
	python3 - "$doc" "$out/table.md" <<'EOF'
import re, sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
s = open(doc).read()
s, k = re.subn(r'<!-- debian-configs: .*?<!-- end of debian-configs -->\n',
               lambda m: table, s, flags=re.S)
if k != 1:
    sys.exit(f'{doc}: no debian-configs block to replace')
open(doc, 'w').write(s)
EOF
fi
if diff -u <(block "$doc") "$out/table.md" > "$out/table.diff"; then
	point OK "docs/distributions.md has the table these configs give"
else
	point FAIL "docs/distributions.md's table is not what these configs give ($BUILD_REL/results/debian-configs/table.diff; scripts/debian-configs.sh --update-doc writes it)"
	sed 's/^/# /' "$out/table.diff"
fi
# The cost with DEVKMEM=n, as measured, in what a reviewer reads: each
# queue's cover letter and docs/upstream.md (lines rewrapped at will).
sentence=$(cost_sentence)
while read -r b; do
	for f in "$(base_series_dir "$b")/0000-cover-letter.patch" "$TOP/docs/upstream.md"; do
		[ "$b" = "$DEFAULT_BASE" ] || [ "$f" != "$TOP/docs/upstream.md" ] || continue
		if tr '\n' ' ' < "$f" | tr -s ' ' | matches -F "$sentence"; then
			point OK "${f#"$TOP"/} gives the cost with DEVKMEM=n as measured here"
		else
			point FAIL "${f#"$TOP"/} does not say, as measured here: $sentence"
		fi
	done
done < <(bases)
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
