#!/bin/bash
# mutants.sh [ID...]: the mutants of boot-tests/mutants for the queue BASE
# selects (all of them, or those named), each killed or not.
# A mutant runs in a mount namespace of its own (unshare -m) where the
# tree, the O= folder of each config it boots and this queue's build/
# are overlays on scratch folders: its sed, its rebuild (kbuild compiles
# what the edit touched and links), its initramfs and its boots write
# there, and no one else sees them. When the namespace ends the overlays
# are gone: the tree and the folders are as they were, and the next
# build rebuilds nothing. (A copy of the tree at another path would not
# do: the O= folders' .cmd files name the tree's path, and every object
# would be compiled again.) Reports, with the boots' logs, go to
# build/mutants/<id>/; the table to build/mutants/report.
# Exit status: 0 when every mutant was killed.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
keep_mine
s=$(cd "$(dirname "$0")" && pwd)

list=$TOP/boot-tests/mutants
# Outside the folders it overlays: overlayfs refuses nested layers.
scratch=/var/tmp/devkmem-mutants/$BASE
out=$BUILD/mutants

# mutants: "id<TAB>file<TAB>sed<TAB>boots<TAB>killer<TAB>cmdline" for
# this queue
mutants() {
	awk -F'\t+' -v base="$BASE" '
		/^#/ || NF < 6 { next }
		index(" " $2 " ", " " base " ") {
			print $1 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" ($7 == "" ? "-" : $7) }' "$list"
}

# overlay DIR NAME: DIR becomes an overlay whose writes go to scratch/NAME
overlay() {
	mkdir -p "$scratch/$2/up" "$scratch/$2/work"
	mount -t overlay overlay \
		-o "lowerdir=$1,upperdir=$scratch/$2/up,workdir=$scratch/$2/work" "$1"
}

# inside ID FILE SED BOOTS CMDLINE: run in the namespace (unshare -m
# "$0" --inside); CMDLINE "-" is none
inside() {
	local id=$1 file=$2 sedx=$3 boots=$4 b c set d
	[ "$5" = - ] || export BOOT_APPEND="$5"
	local -A folders=()
	mount --make-rprivate /
	for b in ${boots//,/ }; do
		folders[$KEEP/${b%%.*}]=o-${b%%.*}
	done
	folders[$TREE]=tree
	folders[$BUILD]=build
	for d in "${!folders[@]}"; do
		overlay "$d" "${folders[$d]}"
	done
	# Nothing is written below a folder that is not an overlay here.
	for d in "${!folders[@]}"; do
		[ "$(findmnt -no FSTYPE --mountpoint "$d" | tail -1)" = overlay ] ||
			die "mutant $id: $d is not an overlay; nothing changed"
	done
	sed -i -e "$sedx" "$TREE/$file"
	! git -C "$TREE" diff --quiet -- "$file" ||
		die "mutant $id: the sed script changes nothing in $file"
	git -C "$TREE" diff -- "$file" > "$scratch/diff"
	for b in ${boots//,/ }; do
		c=${b%%.*} set=${b#*.}
		if [ ! -f "$scratch/built-$c" ]; then
			"$s/build-kernel.sh" "$c" && "$s/initramfs.sh" "$c" ||
				{ echo "build of $c failed"; return 1; }
			touch "$scratch/built-$c"
		fi
		"$s/boot-test.sh" "$c" "$set" || true
		d=$("$s/configs.sh" boots | awk -v c="$c" -v s="$set" \
			'$1 == c && $2 == s { print $3 }')
		cp -r "$RESULTS/${d:-$c.$set}" "$scratch/results-$b"
	done
}

if [ "${1:-}" = --inside ]; then
	shift
	inside "$@"
	exit
fi

want=" $* "
mkdir -p "$out"
report=$out/report
: > "$report"
killed=0 survived=0
while IFS=$'\t' read -r id file sedx boots killer cmdline; do
	[ $# -eq 0 ] || [[ $want == *" $id "* ]] || continue
	rm -rf "$scratch" "${out:?}/$id"
	mkdir -p "$scratch" "$out/$id"
	echo "  MUTANT  $id ($file): boots $boots"
	t=$SECONDS
	rc=0
	unshare -m "$s/mutants.sh" --inside "$id" "$file" "$sedx" "$boots" \
		"$cmdline" < /dev/null > "$out/$id/log" 2>&1 || rc=$?
	cp "$scratch/diff" "$out/$id/diff" 2>/dev/null || true
	cp -r "$scratch"/results-* "$out/$id/" 2>/dev/null || true
	rm -rf "$scratch"
	# What failed: ktap.py's and boot-test.sh's "not ok" lines.
	failed=$(sed -n 's/^not ok - [^ ]*: \(.*\) failed$/\1/p; s/^not ok - boot \([^:]*\):.*/boot \1/p' \
		"$out/$id/log" | sort -u | paste -sd, -)
	failed=${failed//,/, }
	# Killed: the test meant to catch it failed. Other failures alone
	# (a test failing for another reason) do not count as a kill.
	if [ $rc -ne 0 ] || ! grep -q '^  RESULT  ' "$out/$id/log"; then
		verdict="error (see build/mutants/$id/log)"
		survived=$((survived + 1))
	elif [[ ", $failed, " == *", $killer, "* ]]; then
		verdict="killed by $failed"
		killed=$((killed + 1))
	elif [ "$(grep -hs -A40 '^Call Trace:' "$out/$id"/results-*/serial.log |
		  grep -c " ${killer##*/}+0x" || true)" -gt 0 ]; then
		# a KUnit case that oopses prints no result: the oops names it
		verdict="killed: an oops in ${killer##*/} (${failed:-a failed boot})"
		killed=$((killed + 1))
	elif [ -n "$failed" ]; then
		verdict="not killed by $killer; failed: $failed"
		survived=$((survived + 1))
	else
		verdict=survived
		survived=$((survived + 1))
	fi
	printf '%s\t%s\t%s\t%s s\n' "$id" "$boots" "$verdict" $((SECONDS - t)) |
		tee -a "$report"
done < <(mutants)
echo "  mutants of $SERIES_REL: $killed killed, $survived not ($BUILD_REL/mutants/report)"
[ "$survived" -eq 0 ]
