#!/bin/bash
# The form of the queue as mailed, as TAP: every file is what make export
# gives from its tree (git format-patch output, To/Cc from
# get_maintainer.pl, base-commit); each patch has a "[PATCH n/N]
# subsystem: summary" subject (n padded to N's width, as format-patch
# does), a body, the author's Signed-off-by:, a
# Link: (Closes:, which 6.12's checkpatch asks for) for every
# Reported-by:, and reviewers' notes below "---"; the cover letter has a
# subject, a blurb with the testing done, a diffstat and base-commit.
# Writes build/results/lint-form/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock
s=$(dirname "$0")

out=$RESULTS/lint-form
rm -rf "$out"
mkdir -p "$out"
n=0
mapfile -t patches < <(series_patches)
total=${#patches[@]}
cover=0000-cover-letter.patch

# check OK-CONDITION-EXIT-STATUS DESCRIPTION
check() {
	if [ "$1" -eq 0 ]; then point OK "$2"; else point FAIL "$2"; fi
}

{
echo "TAP version 13"
"$s/tree.sh" >/dev/null
"$s/export.sh" --to "$out/export" >/dev/null
for f in "$cover" "${patches[@]}"; do
	rc=0
	diff -u "$SERIES_DIR/$f" "$out/export/$f" > "$out/$f.diff" 2>&1 || rc=$?
	check $rc "$f is what 'make export' writes from build/linux"
	[ $rc -eq 0 ] || head -20 "$out/$f.diff" | sed 's/^/# /'
done

i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	d=$out/$i
	mkdir -p "$d"
	git mailinfo -k "$d/msg" "$d/patch" < "$SERIES_DIR/$p" > "$d/info"
	subject=$(sed -n 's/^Subject: //p' "$d/info")
	author="$(sed -n 's/^Author: //p' "$d/info") <$(sed -n 's/^Email: //p' "$d/info")>"
	# format-patch pads n to N's width: [PATCH 01/12]
	num=$(printf '%0*d' ${#total} $i)
	summary=${subject#"[PATCH $num/$total] "}

	re='^[a-zA-Z0-9_./-]+(: [a-zA-Z0-9_./-]+)*: [^ ].*[^.]$'
	rc=0; [ "$summary" != "$subject" ] && [[ $summary =~ $re ]] || rc=1
	check $rc "patch $i $p: subject \"[PATCH $num/$total] subsystem: summary\" (is \"$subject\")"
	rc=0; [ ${#summary} -le 75 ] || rc=1
	check $rc "patch $i $p: summary of ${#summary} characters (at most 75)"
	body=$(sed -E '/^[A-Za-z-]+: /,$d' "$d/msg" | grep -c '[^[:space:]]' || true)
	rc=0; [ "$body" -ge 3 ] || rc=1
	check $rc "patch $i $p: a body that says why ($body lines above the tags)"
	rc=0; [ "$(grep '^Signed-off-by: ' "$d/msg" | tail -1)" = "Signed-off-by: $author" ] || rc=1
	check $rc "patch $i $p: last Signed-off-by: is the author, $author"
	rc=0
	if grep -q '^Reported-by: ' "$d/msg" && ! grep -Eq '^(Link|Closes): https://' "$d/msg"; then
		rc=1
	fi
	check $rc "patch $i $p: a Link: or Closes: for its Reported-by: (if any)"
	rc=0; sed -n '/^---$/,/^diff --git /p' "$SERIES_DIR/$p" | matches -x 'Notes:' || rc=1
	check $rc "patch $i $p: reviewers' notes below ---"
done

c=$SERIES_DIR/$cover
subject=$(git mailinfo -k /dev/null /dev/null < "$c" | sed -n 's/^Subject: //p')
num=$(printf '%0*d' ${#total} 0)
rc=0; [[ $subject =~ ^\[PATCH\ $num/$total\]\ [a-z].*[^.]$ ]] && ! grep -q '\*\*\*' "$c" || rc=1
check $rc "$cover: subject and blurb written (\"$subject\", no *** placeholder)"
rc=0; grep -q '^Testing' "$c" || rc=1
check $rc "$cover: says what testing was done (a \"Testing\" paragraph)"
rc=0; grep -Eq '^ [0-9]+ files? changed' "$c" || rc=1
check $rc "$cover: has the diffstat"
rc=0; grep -qx "base-commit: $(git -C "$TREE" rev-parse base)" "$c" || rc=1
check $rc "$cover: base-commit: is the pristine tree, $(git -C "$TREE" rev-parse --short base)"
rc=0; grep -q '^To: ' "$c" && grep -q '^Cc: ' "$c" || rc=1
check $rc "$cover: To: and Cc: lines (get_maintainer.pl's, checked above)"
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
