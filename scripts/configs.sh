#!/bin/bash
# configs.sh names | sets NAME | boots | sets-table SET FIELD
# What kconfig-fragments/configs and boot-tests/sets declare:
#   names           the config names, in order
#   sets NAME       the guest test sets config NAME boots, one per line
#   boots           every boot: "<config> <set> <result>", where <result>
#                   is the folder under build/results/ (the config's name
#                   for its first set, <config>.<set> for the others)
#   sets-table SET FIELD   the set's "cmdline", "timeout" or "machine" in
#                   boot-tests/sets
set -euo pipefail
. "$(dirname "$0")/common.sh"

list=$FRAGMENTS/configs
case ${1:-names} in
names)
	awk '!/^#/ && NF { print $1 }' "$list"
	;;
sets)
	t=$(awk -v n="$2" '$1 == n { print $2 }' "$list")
	[ -n "$t" ] || die "config '$2' is not in kconfig-fragments/configs"
	tr , '\n' <<<"$t"
	;;
boots)
	awk '!/^#/ && NF { n = split($2, s, ","); for (i = 1; i <= n; i++)
		print $1, s[i], (i == 1 ? $1 : $1 "." s[i]) }' "$list"
	;;
sets-table)
	f=$(awk -F'|' -v s="$2" -v f="$3" '
		{ n = $1; gsub(/[ \t]/, "", n) }
		n == s { v = (f == "cmdline" ? $2 : f == "timeout" ? $3 : $4); gsub(/^[ \t]+|[ \t]+$/, "", v);
			 print v; found = 1 }
		END { exit !found }' "$TOP/boot-tests/sets") ||
		die "set '$2' is not in boot-tests/sets"
	echo "$f"
	;;
*)
	die "usage: configs.sh names | sets NAME | boots | sets-table SET FIELD"
	;;
esac
