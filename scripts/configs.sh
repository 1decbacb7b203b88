#!/bin/bash
# configs.sh names | sets NAME | boots | sets-table SET FIELD
# What kconfig-fragments/configs and boot-tests/sets declare, for the
# queue BASE selects (its folder's "configs" file, if it has one, names
# the configs it builds; otherwise it builds them all):
#   names           the config names, in order
#   sets NAME       the guest test sets config NAME boots, one per line
#   boots           every boot: "<config> <set> <result>", where <result>
#                   is the folder under build/results/ (the config's name
#                   for its first set, <config>.<set> for the others)
#   sets-table SET FIELD   the set's "cmdline", "timeout" or "machine" in
#                   boot-tests/sets
#   fragments NAME  the fragment files of config NAME, in merge order
#   arch NAME       the ARCH make runs with for config NAME: i386 when its
#                   fragments turn CONFIG_64BIT off (the last fragment to
#                   name a symbol wins, as in merge_config.sh), else x86_64
set -euo pipefail
. "$(dirname "$0")/common.sh"

list=$FRAGMENTS/configs
# The configs table, cut to the lines of this queue's configs.
table() {
	local only=$SERIES_DIR/configs
	if [ -f "$only" ]; then
		awk 'NR == FNR { if (!/^#/ && NF) want[$1] = 1; next }
		     !/^#/ && NF && ($1 in want)' "$only" "$list"
	else
		awk '!/^#/ && NF' "$list"
	fi
}

case ${1:-names} in
names)
	table | awk '{ print $1 }'
	;;
sets)
	t=$(awk -v n="$2" '$1 == n { print $2 }' "$list")
	[ -n "$t" ] || die "config '$2' is not in kconfig-fragments/configs"
	tr , '\n' <<<"$t"
	;;
boots)
	table | awk '{ n = split($2, s, ","); for (i = 1; i <= n; i++)
		print $1, s[i], (i == 1 ? $1 : $1 "." s[i]) }'
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
fragments)
	read -r -a frags < <(awk -v n="$2" '$1 == n { $1 = $2 = ""; print }' "$list")
	[ ${#frags[@]} -gt 0 ] || die "config '$2' is not in kconfig-fragments/configs"
	for f in "${frags[@]}"; do
		[ -f "$FRAGMENTS/$f.config" ] || die "$2: no fragment kconfig-fragments/$f.config"
		echo "$FRAGMENTS/$f.config"
	done
	;;
arch)
	mapfile -t paths < <("$0" fragments "$2")
	last=$(grep -hE '^(CONFIG_64BIT=|# CONFIG_64BIT is not set)' "${paths[@]}" | tail -1)
	if [ "$last" = "# CONFIG_64BIT is not set" ]; then echo i386; else echo x86_64; fi
	;;
*)
	die "usage: configs.sh names | sets NAME | boots | sets-table SET FIELD | fragments NAME | arch NAME"
	;;
esac
