#!/bin/bash
# debian-patches.sh: the queue as a Debian kernel maintainer takes it,
# quilt patches with DEP-3 headers, in the layout of debian/patches/ in
# Debian's kernel packaging: build/debian/patches/features/all/devkmem/
# holds the patches and build/debian/patches/series lists them, in the
# order of series/series. Each header comes from the patch's own mail:
#   Description  the subject, then the commit message (DEP-3 folding:
#                each line indented by a space, an empty one as " .")
#   Author       From:
#   Origin       other: this repository's queue, at its git revision
#   Forwarded    no (the series is not posted upstream yet)
#   Last-Update  the patch's Date:, as YYYY-MM-DD
# then the diff, as git wrote it (quilt reads git diffs with -p1).
# Prints the series file's path.
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$BUILD/debian/patches
sub=features/all/devkmem
rev=$(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown)
rm -rf "$out"
mkdir -p "$out/$sub"

while read -r p; do
	f=$SERIES_DIR/$p
	subject=$(sed -n '/^Subject: /{s/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//;p;q}' "$f")
	author=$(awk '/^From: / { sub(/^From: /, ""); a = $0; getline
		if ($0 ~ /^ /) a = a $0; print a; exit }' "$f")
	date=$(date -u -d "$(sed -n '/^Date: /{s///;p;q}' "$f")" +%F)
	{
		echo "Description: $subject"
		# The commit message: from the blank line after the headers to
		# the "---" before the notes and the diffstat.
		awk 'body && /^---$/ { exit }
		     body { print (length($0) ? " " $0 : " .") }
		     !body && /^$/ { body = 1 }' "$f" | sed '1{/^ \.$/d}'
		echo "Author: $author"
		echo "Origin: other, devkmem series $SERIES_REL/$p at $rev"
		echo "Forwarded: no"
		echo "Last-Update: $date"
		echo "---"
		# without a mail signature ("-- " and git's version, the last
		# two lines), if the patch has one
		awk '/^diff --git / { on = 1 } on { l[++n] = $0 }
		     END { if (n > 2 && l[n - 1] == "-- ") n -= 2
			   for (i = 1; i <= n; i++) print l[i] }' "$f"
	} > "$out/$sub/$p"
	echo "$sub/$p"
done < <(series_patches) > "$out/series"
echo "$BUILD_REL/debian/patches/series"
