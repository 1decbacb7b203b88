#!/bin/bash
# config-check.sh DOTCONFIG FRAGMENT...
# Fail, naming the symbol, if any option a fragment asks for is not what
# the final .config has. merge_config.sh only warns when Kconfig drops a
# value (a typo, an unmet dependency); this makes it an error.
# "# CONFIG_X is not set" is satisfied by the same line or by X being
# absent (a symbol whose dependencies are unmet is not written at all).
set -euo pipefail

dotconfig=$1
shift
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		sym=${line%%=*}
		want=$line
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		want=""
		;;
	*)
		continue
		;;
	esac
	have=$(grep -E "^($sym=|# $sym is not set)" "$dotconfig" || true)
	[ "$have" = "# $sym is not set" ] && have=""
	if [ "$have" != "$want" ]; then
		echo "error: $sym: fragments ask for '${want:-is not set}'," \
		     "final .config has '${have:-is not set}'" >&2
		bad=1
	fi
done < <(cat "$@")
exit $bad
