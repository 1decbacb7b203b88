#!/bin/bash
# kconfig-fragments/distro.config against Debian's amd64 config, as TAP:
# every symbol it sets has the value Debian's default amd64 flavour has
# (package linux-config-<base>, config.amd64_none_amd64.xz), so that the
# test kernels cannot drift from what distributions run. A symbol this
# base's tree does not define (renamed in another base) is met by its
# absence from Debian's config here, if another base's Debian config has
# it with that value: a name no base knows still fails. Writes
# build/results/distro-config/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

fragment=$FRAGMENTS/distro.config
flavour=amd64_none_amd64
out=$RESULTS/distro-config
mkdir -p "$out"
n=0

# debian_value BASE SYMBOL: the line Debian's config has for it, or ""
debian_value() {
	xz -dc "/usr/src/$(config_package "$1")/config.$flavour.xz" |
		grep -E "^($2=|# $2 is not set)" || true
}

{
echo "TAP version 13"
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) sym=${line%%=*} ;;
	"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
	*) continue ;;
	esac
	have=$(debian_value "$BASE" "$sym")
	if [ "$have" = "$line" ]; then
		point OK "$sym: '$line', as in Debian $BASE $flavour"
		continue
	fi
	if [ -z "$have" ] && ! kconfig_defined "$TREE" "$sym"; then
		other=
		for b in $(bases); do
			[ "$b" = "$BASE" ] ||
				[ "$(debian_value "$b" "$sym")" != "$line" ] ||
				other=$b
		done
		if [ -n "$other" ]; then
			point OK "$sym: not a symbol of $BASE; '$line' in Debian $other $flavour"
			continue
		fi
	fi
	point FAIL "$sym: distro.config has '$line', Debian $BASE $flavour has '${have:-nothing}'"
done < "$fragment"
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
! grep -q '^not ok' "$out/tap.txt"
