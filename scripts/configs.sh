#!/bin/bash
# configs.sh [names|tests NAME]
# What kconfig-fragments/configs declares: the config names, in order, or
# which boot tests (on|off) a config's guest runs.
set -euo pipefail
. "$(dirname "$0")/common.sh"

list=$FRAGMENTS/configs
case ${1:-names} in
names)
	awk '!/^#/ && NF { print $1 }' "$list"
	;;
tests)
	t=$(awk -v n="$2" '$1 == n { print $2 }' "$list")
	[ -n "$t" ] || die "config '$2' is not in kconfig-fragments/configs"
	echo "$t"
	;;
*)
	die "usage: configs.sh [names|tests NAME]"
	;;
esac
