#!/bin/bash
# Write the commits of build/linux (base..HEAD) back to series/ as
# git format-patch files, one per commit, named after their subject
# without a number, and update the patch names in series/series while
# keeping its comments and banners in place. Output is stable: exporting
# an unchanged tree changes nothing.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -d "$TREE/.git" ] || die "no build/linux; run 'make tree' first"
dirty=$(git -C "$TREE" status --porcelain --untracked-files=no)
[ -z "$dirty" ] || die "build/linux has uncommitted changes; commit them first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$TREE" -c core.abbrev=12 format-patch -q --zero-commit \
	--filename-max-length=100 \
	--no-signature --base=base -o "$tmp" base..HEAD

new=()
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	n=$(basename "$f")
	n=${n#[0-9][0-9][0-9][0-9]-}
	new+=("$n")
done

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

# series/series: keep every comment or blank line where it is, put the new
# names in the slots of the old ones, and append any extra at the end.
i=0
while IFS= read -r line; do
	if [ -n "$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' <<<"$line")" ]; then
		[ $i -lt ${#new[@]} ] && echo "${new[$i]}"
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
echo "  EXPORT  ${#new[@]} patches -> series/"
