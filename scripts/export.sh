#!/bin/bash
# Write the commits of the queue's tree (build/linux for series/,
# build/<base>/linux for series-<base>/: links to KEEP/linux, common.sh;
# base..HEAD) back to the queue as git format-patch files, one per
# commit, named after their subject without a number, with each
# commit's git note as the reviewers' notes below "---", and update the
# patch names in its series file while keeping its comments, banners and
# a patch line's own comment (an "only-here:" reason,
# scripts/lint-queues.sh) in place. The 0000-cover-letter.patch is
# regenerated around its subject and blurb (edit those by hand there):
# shortlog, diffstat, base-commit and the To/Cc lines that the tree's
# scripts/get_maintainer.pl gives for the series. Output is stable:
# exporting an unchanged tree changes nothing.
# export.sh --to DIR writes the same files to DIR and leaves series/ be
# (lint-form.sh compares the two).
set -euo pipefail
. "$(dirname "$0")/common.sh"

keep_lock
[ -d "$TREE/.git" ] || die "no $BUILD_REL/linux; run 'make tree' first"
# The tree is shared by the clones of this machine (KEEP, common.sh):
# export only a tree this clone applied.
keep_mine
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no)
[ -z "$dirty" ] || die "$BUILD_REL/linux has uncommitted changes; commit them first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$SERIES_DIR
if [ "${1:-}" = --to ]; then
	dest=$2
	mkdir -p "$dest"
fi
fp() {
	git -C "$TREE" -c core.abbrev=12 format-patch -q --zero-commit \
		--filename-max-length=100 --no-signature --base=base --notes \
		"$@" base..HEAD
}

# The cover letter's subject and blurb, from the current cover letter:
# everything above the shortlog ("Author Name (N):").
cover=$SERIES_DIR/0000-cover-letter.patch
cover_opts=()
if [ -f "$cover" ]; then
	author=$(git -C "$TREE" log -1 --format=%an HEAD)
	git mailinfo "$tmp/msg" "$tmp/diff" < "$cover" > "$tmp/info"
	{
		sed -n 's/^Subject: //p' "$tmp/info"
		echo
		awk -v a="$author" '$0 ~ "^" a " \\([0-9]+\\):$" { exit } { print }' \
			"$tmp/msg"
	} > "$tmp/description"
	branch=$(git -C "$TREE" symbolic-ref --short HEAD)
	git -C "$TREE" config "branch.$branch.description" "$(cat "$tmp/description")"
	cover_opts=(--cover-from-description=subject)
fi

# To: the maintainers get_maintainer.pl names (less the author), Cc: the
# lists, for the series as a whole.
mkdir "$tmp/draft"
fp -o "$tmp/draft"
from=$(git -C "$TREE" log -1 --format='%ae' HEAD)
addr_opts=()
while IFS= read -r a; do
	[[ $a == *"<$from>"* ]] || addr_opts+=("--to=$a")
done < <(cd "$TREE" && ./scripts/get_maintainer.pl --no-git-fallback \
	--no-rolestats --no-l --no-r "$tmp"/draft/*.patch)
while IFS= read -r a; do
	addr_opts+=("--cc=$a")
done < <(cd "$TREE" && ./scripts/get_maintainer.pl --no-git-fallback \
	--no-rolestats --no-m --no-r --l "$tmp"/draft/*.patch)
rm -rf "$tmp/draft"

fp -o "$tmp" --cover-letter "${cover_opts[@]}" "${addr_opts[@]}"
# format-patch dates the cover letter now; date it as the last patch.
date=$(git -C "$TREE" log -1 --format=%aD HEAD)
sed "0,/^Date: /s/^Date: .*/Date: $date/" "$tmp/0000-cover-letter.patch" \
	> "$dest/0000-cover-letter.patch"
rm "$tmp/0000-cover-letter.patch"

new=()
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	n=${n#[0-9][0-9][0-9][0-9]-}
	new+=("$n")
done

if [ "$dest" != "$SERIES_DIR" ]; then
	i=0
	for f in "$tmp"/*.patch; do
		mv "$f" "$dest/${new[$i]}"
		i=$((i + 1))
	done
	exit 0
fi

# Replace the old patch files with the new ones.
while read -r old; do
	rm -f "$SERIES_DIR/$old"
done < <(series_patches)
i=0
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	mv "$f" "$SERIES_DIR/${new[$i]}"
	i=$((i + 1))
done

# The series file: keep every comment or blank line where it is, put the
# new names in the slots of the old ones (with the old line's comment),
# and append any extra at the end.
i=0
while IFS= read -r line; do
	if [ -n "$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' <<<"$line")" ]; then
		comment=$(sed -n 's/^[^#]*\(#.*\)$/\1/p' <<<"$line")
		[ $i -lt ${#new[@]} ] && echo "${new[$i]}${comment:+	$comment}"
		i=$((i + 1))
	else
		echo "$line"
	fi
done < "$SERIES_DIR/series" > "$tmp/series"
while [ $i -lt ${#new[@]} ]; do
	echo "${new[$i]}"
	i=$((i + 1))
done >> "$tmp/series"
mv "$tmp/series" "$SERIES_DIR/series"

# The tree is what series/ now says: tree.sh need not re-apply it.
"$(dirname "$0")/tree.sh" --stamp
echo "  EXPORT  ${#new[@]} patches -> $SERIES_REL/"
