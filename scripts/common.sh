# Sourced by the scripts in this folder: paths and small helpers.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FRAGMENTS=$TOP/kconfig-fragments

# The queue: one per Debian kernel base. BASE=6.1 (the default) is
# series/, built in build/; BASE=X is series-X/, built in build/X/.
# Each queue folder has its own series file, base-version (the Debian
# package it applies to), patches and cover letter.
DEFAULT_BASE=6.1
BASE=${BASE:-$DEFAULT_BASE}

# base_series_dir BASE, base_build_dir BASE: where a queue and its builds live.
base_series_dir() {
	if [ "$1" = "$DEFAULT_BASE" ]; then echo "$TOP/series"; else echo "$TOP/series-$1"; fi
}
base_build_dir() {
	if [ "$1" = "$DEFAULT_BASE" ]; then echo "$TOP/build"; else echo "$TOP/build/$1"; fi
}

SERIES_DIR=$(base_series_dir "$BASE")
BUILD=$(base_build_dir "$BASE")
# What is kept between clones: each queue's tree and the O= folder of
# each of its configs live in KEEP (/var/cache/devkmem/work/<base>, or
# $DEVKMEM_KEEP/<base>), not in build/, so that the clone after a session
# (CI's) starts from the kernels the session built and kbuild compiles
# again only what the series changed since. Their paths stay the same from
# clone to clone, which kbuild's .cmd files need. build/linux and
# build/<config> are links to them (tree.sh, build-kernel.sh). keep_lock
# makes one clone at a time use them.
KEEP_ROOT=$(realpath -m "${DEVKMEM_KEEP:-/var/cache/devkmem/work}")
KEEP=$KEEP_ROOT/$BASE
TREE=$KEEP/linux
RESULTS=$BUILD/results
# For messages: where this queue lives, relative to the repository.
SERIES_REL=${SERIES_DIR#"$TOP"/}
BUILD_REL=${BUILD#"$TOP"/}

# bases: every queue's base, the default first.
bases() {
	local d
	echo "$DEFAULT_BASE"
	for d in "$TOP"/series-*/; do
		[ -f "$d/series" ] && basename "$d" | sed 's/^series-//'
	done
	return 0
}

# kconfig_defined TREE SYMBOL: does kernel tree TREE define Kconfig
# symbol SYMBOL (the CONFIG_ prefix is optional)?
kconfig_defined() {
	grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config ${2#CONFIG_}\$" "$1"
}

# base_package [BASE]: the Debian source package a queue (this one by
# default) applies to, from the first field of its base-version
# ("linux-source-6.1 6.1.192-3").
base_package() {
	sed -e '/^#/d' "$(base_series_dir "${1:-$BASE}")/base-version" |
		awk 'NR == 1 { print $1 }'
}

# config_package [BASE]: the package of Debian's own kernel configs for
# that base (linux-config-6.1), for a queue with a "debian-configs" file.
config_package() {
	base_package "$@" | sed 's/^linux-source-/linux-config-/'
}

# seeds_dir: the seeds (../shared/seeds: the 2005 mails, tmap.c among
# them), beside this repository or beside the one it was cloned from;
# SEEDS= overrides, /work/shared/seeds is where this machine keeps them.
seeds_dir() {
	local d origin
	origin=$(git -C "$TOP" config remote.origin.url 2>/dev/null || true)
	for d in "${SEEDS:-}" "$TOP/../shared/seeds" \
		 ${origin:+"${origin#file://}/../shared/seeds"} /work/shared/seeds; do
		if [ -n "$d" ] && [ -d "$d" ]; then
			realpath "$d"
			return 0
		fi
	done
	return 1
}

die() {
	echo "error: $*" >&2
	exit 1
}

warn() {
	echo "warning: $*" >&2
}

# entries FILE: a list file's entries, without comments and blank lines.
entries() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# Patch file names from series/series, in order (comments and blank
# lines skipped).
series_patches() {
	entries "$SERIES_DIR/series"
}

# debian_configs: the Debian configs this queue's "debian-configs" file
# names (amd64_none_amd64, ...), none when it has no such file.
debian_configs() {
	[ ! -f "$SERIES_DIR/debian-configs" ] ||
		entries "$SERIES_DIR/debian-configs"
}

# The configs a reviewer's checks cover (make lint bisects and compares
# them); devkmem-debug is devkmem-on with the kernel's checkers on top.
LINT_CONFIGS=(devkmem-on devkmem-off)
# Built by make lint at the pristine base and at the whole series only,
# for zero-cost.sh: the cost when off on i386 too (bisecting it as well
# would cost minutes per patch).
LINT_ENDS_CONFIGS=(devkmem-i386-off)

# A config that is another's plus one fragment that sets no compiler
# flag (devkmem-off: devkmem-on without the device) starts from a copy of
# that config's folder when it has none of its own (build-kernel.sh):
# kbuild then recompiles only the objects that name a symbol the two set
# differently, where ccache would have preprocessed every object again.
declare -A SEED_CONFIG=([devkmem-off]=devkmem-on [devkmem-i386-off]=devkmem-i386)

# lint_ends_configs: those of LINT_ENDS_CONFIGS this queue builds.
lint_ends_configs() {
	local c names
	names=" $("$TOP/scripts/configs.sh" names | xargs) "
	for c in "${LINT_ENDS_CONFIGS[@]}"; do
		[[ $names != *" $c "* ]] || echo "$c"
	done
	return 0
}

# What the guest's kselftest runner (run_kselftest.sh of either base)
# and boot-tests/run-in-guest.sh call, besides bash: put in every initramfs.
RUNNER_PROGRAMS=(realpath dirname basename cat grep sed cut uniq sort wc tr timeout)

# arch_cc ARCH: the C compiler for the guest programs of ARCH
# (scripts/configs.sh arch): the tests and the harness built -m32 for i386.
arch_cc() {
	if [ "$1" = i386 ]; then echo "gcc -m32"; else echo gcc; fi
}

# Fixed build stamps for every kernel make of the tooling, so the same
# sources and .config give the same objects: zero-cost.sh compares a
# patched build with a pristine one, debian-configs.sh the objects of two
# trees.
KBUILD_STAMPS=(LOCALVERSION= KBUILD_BUILD_TIMESTAMP="Sat Jan  1 00:00:00 UTC 2000"
	KBUILD_BUILD_USER=devkmem KBUILD_BUILD_HOST=build KBUILD_BUILD_VERSION=1)

# Every kernel make of the tooling compiles through ccache (Debian's
# package), its cache outside build/ so that a clone and "make clean"
# keep it: the run after a session, or CI's run after it, compiles only
# what changed. Every tree and O= folder of the tooling lies under
# KEEP_ROOT: as base_dir, it turns the absolute paths of the command
# line into paths relative to the O= folder, and hash_dir off leaves
# that folder out of the hash: objects are shared between queues' and
# Debian's folders alike. KBUILD_STAMPS make the objects the same.
# Relative paths reach gcc as they are written, ../linux/mm/x.c for
# KEEP/linux/mm/x.c: kbuild's -fmacro-prefix-map=$(srctree)/= no longer
# strips them from __FILE__, so KCFLAGS/KAFLAGS strip ../linux/ (every O=
# folder of the tooling is the tree's sibling), and WARN()s and KUnit
# say mm/x.c with or without ccache. CCACHE_DISABLE=1 compiles without
# the cache (the command line stays the same, so no object is rebuilt
# for switching); CCACHE_DIR and CCACHE_MAXSIZE move and bound it.
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/devkmem/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_BASEDIR=$KEEP_ROOT CCACHE_NOHASHDIR=1
KBUILD_CC=(CC="ccache gcc" HOSTCC="ccache gcc"
	KCFLAGS=-fmacro-prefix-map=../linux/= KAFLAGS=-fmacro-prefix-map=../linux/=)

# ccache_rate LOG...: "H hits of N compilations (P%)" from ccache stats
# logs (CCACHE_STATSLOG); "no compilation" when they count none. Each
# entry starts with "# SOURCE"; kbuild's compiler tests (cc-option and
# friends) compile /dev/null, which are not counted. A compilation that
# CCACHE_RECACHE forced counts as a miss.
ccache_rate() {
	[ $# -gt 0 ] || set -- /dev/null
	cat "$@" 2>/dev/null | awk '
		/^# / { f = $2 } f == "/dev/null" { next }
		/^(direct|preprocessed)_cache_hit$/ { h++ } /^(cache_miss|recache)$/ { m++ }
		END { if (h + m == 0) print "no compilation"
		      else printf "%d hits of %d compilations (%.0f%%)\n", h, h + m, 100 * h / (h + m) }'
}

# keep_lock: wait until no other clone uses this queue's KEEP, then hold
# it until this script and its children are done: a child finds the
# lock's file open on the descriptor KEEP_LOCK_FD names and does not take
# it again. Every script that builds in, or reads from, KEEP calls it
# first; a long-lived process started under it (tmux) gets the
# descriptor closed ({KEEP_LOCK_FD}>&-).
keep_lock() {
	if [ -n "${KEEP_LOCK_FD:-}" ] &&
	   [ "$(readlink "/proc/$$/fd/$KEEP_LOCK_FD" 2>/dev/null)" = "$KEEP.lock" ]; then
		return 0
	fi
	mkdir -p "$KEEP"
	exec {KEEP_LOCK_FD}>> "$KEEP.lock"
	if ! flock -n "$KEEP_LOCK_FD"; then
		echo "  WAIT    another clone is using $KEEP" >&2
		flock "$KEEP_LOCK_FD"
	fi
	export KEEP_LOCK_FD
}

# keep_mine: die unless this clone applied the kept tree (tree.sh's
# stamp): what is built there is then this clone's queue.
keep_mine() {
	local owner=
	[ ! -f "$KEEP/linux.applied" ] || read -r _ _ owner < "$KEEP/linux.applied"
	[ "$owner" = "$TOP" ] ||
		die "$TREE holds ${owner:-no} clone's queue; run 'make' here first"
}

# keep_link NAME: build/NAME, a link to KEEP/NAME, for people to look in.
# A folder of the layout before KEEP goes; a tree, only if it has nothing
# that was not exported.
keep_link() {
	local d=$BUILD/$1 old=
	mkdir -p "$BUILD"
	if [ -d "$d" ] && [ ! -L "$d" ]; then
		if [ -d "$d/.git" ]; then
			[ ! -f "$BUILD/linux.applied" ] || read -r _ old < "$BUILD/linux.applied"
			[ "$old" = "$(git -C "$d" rev-parse HEAD)" ] &&
			   [ -z "$(git -C "$d" status --porcelain --untracked-files=no)" ] ||
				die "$d has commits or edits not in $SERIES_REL/;" \
				    "export them or remove it (it is now $KEEP/$1)"
			rm -f "$BUILD/linux.applied"
		fi
		rm -rf "$d"
	fi
	ln -sfn "$KEEP/$1" "$d"
}

# kmake_in DIR NAME ARGS...: make in KEEP/linux for config NAME with
# O=DIR, KBUILD_STAMPS and ccache. ARCH comes from the config's
# fragments (scripts/configs.sh arch).
kmake_in() {
	local o=$1 name=$2 arch
	shift 2
	arch=$("$TOP/scripts/configs.sh" arch "$name") || return
	make -C "$TREE" O="$o" ARCH="$arch" "${KBUILD_CC[@]}" "${KBUILD_STAMPS[@]}" "$@"
}

# kmake NAME ARGS...: kmake_in in the config's own folder, KEEP/NAME.
kmake() {
	kmake_in "$KEEP/$1" "$@"
}

# kconfig_merge DIR NAME FRAGMENT...: config NAME's .config made anew
# in DIR: tinyconfig, the fragments merged over it (merge_config.sh -m),
# olddefconfig. Logs tinyconfig.log and merge_config.log there. Chained,
# so that its status is right where set -e is off (a caller's "||").
kconfig_merge() {
	local o=$1 name=$2
	shift 2
	kmake_in "$o" "$name" -s tinyconfig > "$o/tinyconfig.log" 2>&1 &&
		"$TREE/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$@" \
			> "$o/merge_config.log" &&
		kmake_in "$o" "$name" -s olddefconfig
}

# matches GREP-ARGS...: grep's verdict, for the end of a pipe. Not grep
# -q: it leaves at its first match, the writer then dies of SIGPIPE, and
# under pipefail that is the pipe's status, a match read as a failure
# (three checks failed so in fresh clones' runs). This grep reads to
# the end.
matches() {
	grep "$@" > /dev/null
}

# linked CONFIG OBJECT: build/CONFIG's last build put OBJECT (a path
# under the O= folder, e.g. fs/proc/kcore.o) in its directory's thin
# built-in.a, i.e. the kernel links it; an object a config no longer
# builds can still lie in a reused folder.
linked() {
	# ar t names a thin archive's members relative to where it runs
	(cd "$KEEP/$1" 2>/dev/null && ar t "$(dirname "$2")/built-in.a" 2>/dev/null) |
		matches -xF "$2"
}

# syms OBJECT: nm -S (offset, size, type, name), by name; an initcall's
# symbol carries the line of its *_initcall() in the file
# (__initcall__kmod_mem__387_787_...), and the series moves
# chr_dev_init down mem.c, so that number is masked. zero-cost.sh and
# debian-configs.sh compare objects with it.
syms() {
	nm -S "$1" | sed -E 's/( __initcall__kmod_[A-Za-z0-9_]+__[0-9]+_)[0-9]+_/\1LINE_/' |
		sort -k4
}

# sizes OBJECT: "text data bss" from size(1) (0 0 0 if there is no file)
sizes() {
	if [ -f "$1" ]; then
		size "$1" | awk 'NR == 2 { print $1, $2, $3 }'
	else
		echo 0 0 0
	fi
}

# Fixed identity and dates for commits made by the tooling, so that the
# base commit (and therefore every patch's base-commit:) is reproducible.
tooling_git() {
	GIT_AUTHOR_NAME="devkmem tooling" GIT_AUTHOR_EMAIL="tooling@invalid" \
	GIT_COMMITTER_NAME="devkmem tooling" \
	GIT_COMMITTER_EMAIL="tooling@invalid" \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" \
	GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$TREE" "$@"
}

# TAP for the host-side checks: point OK|FAIL DESCRIPTION prints one test
# point, numbered by the caller's counter n.
point() {
	n=$((n + 1))
	if [ "$1" = OK ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# tap_summary TAPFILE: the "passed N failed N skipped 0" line that
# scripts/summary.sh adds up, from the points of TAPFILE.
tap_summary() {
	awk '/^ok /{p++} /^not ok /{f++} END {printf "passed %d failed %d skipped 0\n", p, f}' "$1"
}

# run_check NAME CMD...: run a host-side check that writes
# build/results/NAME/summary. Its old summary goes first, so that a check
# that dies before writing one counts as "no results" (scripts/summary.sh);
# one that exits non-zero with no failure in its summary counts one.
run_check() {
	local name=$1 rc=0 p f sk
	shift
	rm -f "$RESULTS/$name/summary"
	"$@" || rc=$?
	if [ $rc -ne 0 ] && [ -f "$RESULTS/$name/summary" ]; then
		read -r _ p _ f _ sk < "$RESULTS/$name/summary"
		if [ "$f" -eq 0 ]; then
			echo "passed $p failed 1 skipped $sk" > "$RESULTS/$name/summary"
			echo "not ok - $name: exit status $rc"
		fi
	fi
	return $rc
}

[ -f "$SERIES_DIR/series" ] ||
	die "BASE=$BASE: no queue $SERIES_REL/series (bases: $(bases | xargs))"
