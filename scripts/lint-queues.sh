#!/bin/bash
# The queues in step, as TAP: every patch of this queue (by its subject)
# is in every other queue, in the same order, unless its line in this
# queue's series file gives the reason it is not, as a comment:
#   some-fix.patch	# only-here: <why the other bases do not need it>
# The other direction is the other queue's own "make lint". A port
# changes a patch's code, never its subject.
# Writes build/results/lint-queues/ (build/<base>/results/...).
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$RESULTS/lint-queues
mkdir -p "$out"
n=0

# subjects DIR: "<subject>\t<only-here reason>" per patch of queue DIR, in order.
subjects() {
	local line p reason
	while IFS= read -r line; do
		p=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' <<<"$line")
		[ -n "$p" ] || continue
		reason=$(sed -n 's/^[^#]*#[[:space:]]*only-here:[[:space:]]*//p' <<<"$line")
		printf '%s\t%s\n' "$(git mailinfo /dev/null /dev/null < "$1/$p" |
			sed -n 's/^Subject: //p')" "$reason"
	done < "$1/series"
}

{
echo "TAP version 13"
subjects "$SERIES_DIR" > "$out/$BASE.subjects"
for b in $(bases); do
	[ "$b" != "$BASE" ] || continue
	other=$(base_series_dir "$b")
	subjects "$other" | cut -f1 > "$out/$b.subjects"
	while IFS=$'\t' read -r subj reason; do
		if grep -qxF "$subj" "$out/$b.subjects"; then
			point OK "in ${other#"$TOP"/} too: $subj"
		elif [ -n "$reason" ]; then
			point OK "only in $SERIES_REL (only-here: $reason): $subj"
		else
			point FAIL "not in ${other#"$TOP"/}, and its series line gives no \"# only-here:\" reason: $subj"
		fi
	done < "$out/$BASE.subjects"
	# The patches both queues have, in the same order in each.
	if diff <(cut -f1 "$out/$BASE.subjects" | grep -xF -f "$out/$b.subjects") \
		<(grep -xF -f <(cut -f1 "$out/$BASE.subjects") "$out/$b.subjects") \
		> "$out/$b.order.diff"; then
		point OK "the patches $SERIES_REL shares with ${other#"$TOP"/} are in the same order"
	else
		point FAIL "$SERIES_REL and ${other#"$TOP"/} order their common patches differently"
		sed 's/^/# /' "$out/$b.order.diff"
	fi
done
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
