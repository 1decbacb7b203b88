#!/bin/bash
# config-check.sh [--tree DIR] DOTCONFIG FRAGMENT...
# Fail, naming the symbol, if any option a fragment asks for is not what
# the final .config has. merge_config.sh only warns when Kconfig drops a
# value (a typo, an unmet dependency); this makes it an error.
# "# CONFIG_X is not set" is satisfied by the same line or by X being
# absent (a symbol whose dependencies are unmet is not written at all).
# A later fragment's line for a symbol replaces an earlier one's, as in
# merge_config.sh (base.config's CONFIG_64BIT=y, i386.config's not set).
# With --tree, a symbol that no Kconfig file of that kernel tree defines
# is met by its absence whatever the fragment asks (a symbol renamed
# between the bases, as distro.config's two names of page table
# isolation); scripts/distro-check.sh makes sure each such name is
# defined in some base's Debian config, so a typo still fails.
set -euo pipefail
. "$(dirname "$0")/common.sh"

tree=
if [ "${1:-}" = --tree ]; then
	tree=$2
	shift 2
fi
dotconfig=$1
shift
bad=0
declare -A want
order=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		sym=${line%%=*}
		w=$line
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		w=""
		;;
	*)
		continue
		;;
	esac
	[ -n "${want[$sym]+set}" ] || order+=("$sym")
	want[$sym]=$w
done < <(cat "$@")
for sym in "${order[@]}"; do
	have=$(grep -E "^($sym=|# $sym is not set)" "$dotconfig" || true)
	[ "$have" = "# $sym is not set" ] && have=""
	if [ "$have" != "${want[$sym]}" ] &&
	   ! { [ -z "$have" ] && [ -n "$tree" ] && ! kconfig_defined "$tree" "$sym"; }; then
		echo "error: $sym: fragments ask for '${want[$sym]:-is not set}'," \
		     "final .config has '${have:-is not set}'" >&2
		bad=1
	fi
done
exit $bad
