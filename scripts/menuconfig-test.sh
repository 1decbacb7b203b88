#!/bin/bash
# Drive the real "make menuconfig" under tmux, as a person would, and
# assert on what the screen shows (tmux capture-pane), for the
# devkmem-on config, for devkmem-off (STRICT_DEVMEM on, DEVKMEM off) and,
# where the queue names Debian's configs (debian-configs), for the first
# of them as Debian ships it. Each run
# works on a copy of the config in build/menuconfig/<config>/, so the
# kernels' own .config files are never touched. Screens and TAP go to
# build/results/menuconfig/.
set -euo pipefail
. "$(dirname "$0")/common.sh"
keep_lock

out=$RESULTS/menuconfig
mkdir -p "$out"
rm -f "$out"/*.txt
# One tmux server per queue, on its own socket, kept up between sessions
# and killed at the end: check-all.sh runs the queues side by side, and
# on one shared server "-t ...-6_1" also named 6.12's session (tmux
# matches a session name by prefix), and the server, exiting with its
# last session, raced the next new-session. Not with KEEP's lock open.
session=devkmem-menuconfig-${BASE//./_}
tm() { tmux -L "$session" "$@"; }
tm start-server \; set-option -g exit-empty off {KEEP_LOCK_FD}>&-
n=0

screen() {
	tm capture-pane -p -t "=$session:"
}

# wait_for TEXT NAME [SECONDS]: poll the screen until it shows TEXT (60 s
# at most, or SECONDS), then save it as NAME.txt; fails if it never does,
# with the screen's last lines as TAP diagnostics.
wait_for() {
	local i
	for i in $(seq 1 $((2 * ${3:-60}))); do
		if grep -qF -- "$1" <<<"$(screen)"; then
			screen > "$out/$2.txt"
			return 0
		fi
		sleep 0.5
	done
	screen > "$out/$2.txt" || true
	echo "# no '$1' on the screen; its last lines ($2.txt):"
	grep '[[:alnum:]]' "$out/$2.txt" | tail -5 | sed 's/^ */#   /'
	return 1
}

# End the session and everything in it: killing the tmux session alone
# leaves mconf running without a terminal, spinning on the CPU. The pane's
# process leads its own session, so kill that session.
stop() {
	local sid
	sid=$(tm display-message -p -t "=$session:" '#{pane_pid}' 2>/dev/null) || true
	[ -n "$sid" ] || return 0	# no session (tmux 3.3 prints nothing, exit 0)
	pkill -KILL -s "$sid" 2>/dev/null || true
	tm kill-session -t "=$session" 2>/dev/null || true
}
trap 'stop; tm kill-server 2>/dev/null || true' EXIT

keys() {
	tm send-keys -t "=$session:" "$@"
	sleep 0.5
}

start() {	# start NAME [CONFIG-FILE]: menuconfig on build/NAME/.config or CONFIG-FILE
	local dir=$BUILD/menuconfig/$1
	mkdir -p "$dir"
	cp "${2:-$KEEP/$1/.config}" "$dir/.config"
	stop
	# If make fails (it builds mconf first, in each copy's folder), the
	# pane stays to show why.
	tm new-session -d -s "$session" -x 150 -y 50 \
		"make -C '$TREE' O='$dir' ARCH=x86_64 menuconfig; echo \"make menuconfig: exit \$?\"; sleep 600" \
		{KEEP_LOCK_FD}>&-
	wait_for "Kernel Configuration" "$1-main" 180
}

search() {	# search REGEX NAME
	keys /
	wait_for "Search Configuration Parameter" "$2-prompt" || return 1
	keys "$1" Enter
	wait_for "Search Results" "$2"
}

has() {		# has NAME TEXT
	grep -qF -- "$2" "$out/$1.txt"
}

# entry NAME MARK TEXT: a line of the screen shows the entry TEXT with the
# box MARK ("[*]", "[ ]"), indented as menuconfig indents dependents
entry() {
	grep -F -- "$3" "$out/$1.txt" | matches -F -- "$2 "
}

{
echo "TAP version 13"

# devkmem-on: Device Drivers -> Character devices shows the entry, and
# its help screen the deprecation.
# The search result's jump key (1) opens Character devices at /dev/mem;
# /dev/kmem is the entry below it.
if start devkmem-on && search '^DEVMEM$' on-search; then
	keys 1
	if wait_for "Character devices" on-chardev &&
	   entry on-chardev "[*]" "/dev/kmem virtual device support" &&
	   has on-chardev "/dev/kmem's mode when devkmem= is not given (off: no /dev/kmem unless booted with devkmem=)"; then
		point OK "devkmem-on: Character devices lists '/dev/kmem virtual device support', on, and its mode, off"
	else
		point FAIL "devkmem-on: Character devices does not list /dev/kmem on with its mode off (screen: on-chardev.txt)"
	fi
	keys Down '?'
	if wait_for "deprecated" on-help && has on-help "If unsure, say N." &&
	   has on-help "/proc/kcore"; then
		point OK "devkmem-on: its help shows the deprecation, the replacement and 'If unsure, say N.'"
	else
		point FAIL "devkmem-on: help screen lacks the deprecation text (screen: on-help.txt)"
	fi
else
	point FAIL "devkmem-on: menuconfig or its search did not come up (screens in $BUILD_REL/results/menuconfig)"
	point FAIL "devkmem-on: help screen not reached"
fi

# KUNIT_ALL_TESTS, as a kernel built to run every KUnit suite has it,
# on devkmem-on's config: the series' suite is built, and its cases that
# change the running kernel are not asked for (they skip).
kunit_all=$BUILD/menuconfig/kunit-all-tests
mkdir -p "$kunit_all"
grep -v -E 'CONFIG_(KUNIT_ALL_TESTS|DEVKMEM_KUNIT_TEST|DEVKMEM_KUNIT_INTRUSIVE_TEST)[= ]' \
	"$KEEP/devkmem-on/.config" > "$kunit_all/.config"
echo CONFIG_KUNIT_ALL_TESTS=y >> "$kunit_all/.config"
if kmake_in "$kunit_all" devkmem-on -s olddefconfig > "$out/kunit-all-tests.log" 2>&1 &&
   grep -qx CONFIG_DEVKMEM_KUNIT_TEST=y "$kunit_all/.config" &&
   grep -qx '# CONFIG_DEVKMEM_KUNIT_INTRUSIVE_TEST is not set' "$kunit_all/.config"; then
	point OK "KUNIT_ALL_TESTS=y: DEVKMEM_KUNIT_TEST on, DEVKMEM_KUNIT_INTRUSIVE_TEST off"
else
	point FAIL "KUNIT_ALL_TESTS=y does not give DEVKMEM_KUNIT_TEST=y without DEVKMEM_KUNIT_INTRUSIVE_TEST ($BUILD_REL/menuconfig/kunit-all-tests/.config)"
fi

# offered NAME [CONFIG-FILE]: with STRICT_DEVMEM=y and DEVKMEM off, the
# entry is offered beside /dev/mem, unchecked, and its mode is not.
offered() {
	local c=$1
	if start "$@" && search '^DEVMEM$' "$c-search-devmem"; then
		keys 1
		if wait_for "Character devices" "$c-chardev" &&
		   has "$c-chardev" "/dev/mem virtual device support" &&
		   entry "$c-chardev" "[ ]" "/dev/kmem virtual device support" &&
		   ! has "$c-chardev" "/dev/kmem's mode"; then
			point OK "$c: Character devices offers /dev/kmem beside /dev/mem, off"
		else
			point FAIL "$c: Character devices screen is wrong (screen: $c-chardev.txt)"
		fi
	else
		point FAIL "$c: menuconfig or its search did not come up"
	fi
}

# devkmem-off, and Debian's own config as shipped (scripts/debian-configs.sh
# leaves it, after olddefconfig with the series, in build/results/).
offered devkmem-off
debian=$(debian_configs | head -1)
if [ -n "$debian" ]; then
	if [ -f "$RESULTS/debian-configs/$debian.config" ]; then
		offered "$debian" "$RESULTS/debian-configs/$debian.config"
	else
		point FAIL "$debian: no $BUILD_REL/results/debian-configs/$debian.config (scripts/debian-configs.sh did not run)"
	fi
fi
stop
echo "1..$n"
} | tee "$out/tap.txt"
tap_summary "$out/tap.txt" > "$out/summary"
