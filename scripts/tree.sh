#!/bin/bash
# Unpack the queue's Debian kernel source (linux-source-6.1 for series/,
# the package its base-version names for series-<base>/) into KEEP/linux
# (common.sh; build/linux, build/<base>/linux link to it) as a git
# repository (tag "base" = pristine tree) and apply the queue on top with
# git am, one commit per patch, each with its reviewers' notes as a git
# note. Re-applies only when the queue changed, and then only the
# files the old and the new queue change are written again (git reset
# --hard base, git am), so that kbuild recompiles what depends on those
# alone; refuses to throw away commits or edits made in the tree that
# were not exported, whichever clone made them.
set -euo pipefail
. "$(dirname "$0")/common.sh"

PKG=$(base_package)
TARBALL=/usr/src/$PKG.tar.xz
STAMP=$KEEP/linux.applied	# "<series hash> <HEAD after apply> <clone>"
keep_lock
keep_link linux

read -r _ want < <(sed -e '/^#/d' "$SERIES_DIR/base-version")
have=$(dpkg-query -W -f='${Version}' "$PKG")
if [ "$have" != "$want" ]; then
	warn "series was refreshed against $PKG $want, $have is installed"
fi

# unexported: the kept tree has commits or edits that the queue its
# stamp names does not have (made by hand in this clone or another).
unexported() {
	local old_head=
	[ ! -f "$STAMP" ] || read -r _ old_head _ < "$STAMP"
	[ "$old_head" != "$(git -C "$TREE" rev-parse HEAD)" ] ||
		[ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]
}
refuse() {
	local owner=
	[ ! -f "$STAMP" ] || read -r _ _ owner < "$STAMP"
	die "$TREE has commits or edits not in ${owner:-its} queue; run" \
	    "'make export' in ${owner:-that clone} to keep them or" \
	    "'make tree FORCE=1' to discard them"
}

# no_gc: no repack in the background (git commit and git am start one
# when loose objects pile up): it would hold KEEP's lock open.
no_gc() {
	git -C "$TREE" config gc.auto 0
	git -C "$TREE" config maintenance.auto false
}

# A tree of another package version (Debian updated it) is unpacked again.
pristine="Debian $PKG $have (pristine)"
if [ -d "$TREE/.git" ] &&
   [ "$(git -C "$TREE" log -1 --format=%s base 2>/dev/null)" != "$pristine" ]; then
	! unexported || [ "${FORCE:-0}" = 1 ] || refuse
	rm -rf "$TREE" "$STAMP"
fi
if [ ! -d "$TREE/.git" ]; then
	echo "  UNPACK  $TARBALL -> $TREE"
	rm -rf "$TREE" "$STAMP"
	mkdir -p "$TREE"
	tar -C "$TREE" --strip-components=1 -xJf "$TARBALL"
	git -C "$TREE" init -q
	no_gc
	# Debian's top-level .gitignore ends in "/*": add with -f.
	git -C "$TREE" add -f -A .
	tooling_git commit -q -m "$pristine"
	git -C "$TREE" tag base
fi
no_gc

series_hash=$( (cat "$SERIES_DIR/series"; series_patches |
	while read -r p; do cat "$SERIES_DIR/$p"; done) | sha256sum | cut -c1-16)
head=$(git -C "$TREE" rev-parse HEAD)

# After make export: record that the tree matches series/ as it is now.
if [ "${1:-}" = --stamp ]; then
	echo "$series_hash $head $TOP" > "$STAMP"
	exit 0
fi

if [ -f "$STAMP" ]; then
	read -r old_hash old_head owner < "$STAMP"
	if [ "$old_hash" = "$series_hash" ] && [ "$old_head" = "$head" ]; then
		# The same queue, applied by another clone: this one's now,
		# if nobody edited it there.
		if [ "$owner" != "$TOP" ]; then
			! unexported || [ "${FORCE:-0}" = 1 ] || refuse
			echo "$series_hash $head $TOP" > "$STAMP"
		fi
		echo "  TREE    $BUILD_REL/linux up to date with $SERIES_REL/"
		exit 0
	fi
	! unexported || [ "${FORCE:-0}" = 1 ] || refuse
fi

echo "  APPLY   $SERIES_REL/ -> $BUILD_REL/linux"
git -C "$TREE" am --abort >/dev/null 2>&1 || true
git -C "$TREE" reset -q --hard base
n=0
while read -r p; do
	if ! git -C "$TREE" -c user.name="devkmem tooling" \
	     -c user.email=tooling@invalid am -q --committer-date-is-author-date \
	     "$SERIES_DIR/$p"; then
		git -C "$TREE" am --abort || true
		# Left at the base, stamped so: no clone's work to keep.
		git -C "$TREE" reset -q --hard base
		echo "none $(git -C "$TREE" rev-parse HEAD) $TOP" > "$STAMP"
		die "patch $SERIES_REL/$p does not apply to $PKG $have" \
		    "(series refreshed against $want)"
	fi
	# Reviewers' notes below "---" go back into the commit's git note,
	# where make export finds them.
	notes=$(awk '/^---$/ { sep = 1; next }
		sep && /^Notes:$/ { on = 1; next }
		on && /^    / { print substr($0, 5); next }
		on && /^$/ { print; next }
		on || /^diff --git / { exit }' "$SERIES_DIR/$p")
	if [ -n "$notes" ]; then
		tooling_git notes add -f -m "$notes" HEAD
	fi
	n=$((n + 1))
done < <(series_patches)
echo "$series_hash $(git -C "$TREE" rev-parse HEAD) $TOP" > "$STAMP"
echo "  TREE    $BUILD_REL/linux: $PKG + $n patches"
