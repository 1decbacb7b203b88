# Thin driver for the /dev/kmem series; the work is done by scripts/.
# "make help" lists the targets. Everything generated goes to build/,
# but what is kept between clones: the compiler cache and the trees and
# O= folders (/var/cache/devkmem/: scripts/common.sh, KEEP).
# Two queues: series/ on Debian's linux-source-6.1 (build/) and
# series-6.12/ on linux-source-6.12 (build/6.12/). Every target runs for
# each queue; BASE=6.1 or BASE=6.12 picks one.

BASES := $(if $(BASE),$(BASE),$(shell scripts/bases.sh))
# each: run a command once per queue, with BASE set; stop at a failure.
each = for b in $(BASES); do BASE=$$b $(1) || exit 1; done

.PHONY: all deps tree export kernels boot lint debian bench mutants check clean help

## all: (default) install packages, unpack + patch the trees, build every config
all: kernels

## deps: install the Debian packages the build and the tests need (root)
deps:
	@scripts/install-deps.sh

## tree: build/linux = linux-source-6.1 + series/, build/6.12/linux = ... + series-6.12/
tree: deps
	@$(call each,scripts/tree.sh)

## export: write each tree's commits back to its queue (git format-patch)
export:
	@$(call each,scripts/export.sh)

## kernels: build every config of each queue (kconfig-fragments/configs)
kernels: tree
	@$(call each,scripts/kernels.sh)

## boot: boot every built kernel in QEMU and run its boot tests
boot:
	@st=0; for b in $(BASES); do BASE=$$b scripts/boot-all.sh || st=1; done; exit $$st

## lint: checkpatch, mail form, every prefix built (from the base up), zero cost when off, queues in step
lint: tree
	@st=0; for b in $(BASES); do BASE=$$b scripts/lint.sh || st=1; done; exit $$st

## debian: each queue as quilt patches with DEP-3 headers -> build/debian/patches/ (Debian's layout)
debian:
	@$(call each,scripts/debian-patches.sh)

## bench: /dev/kmem vs /dev/mem and /proc/kcore, in a guest -> build/results/bench.txt
bench: kernels
	@$(call each,scripts/bench.sh)

## mutants: boot-tests/mutants, each in a scratch overlay of the tree: killed or survived (MUTANTS="id ..." picks; not in check)
mutants: kernels
	@st=0; for b in $(BASES); do BASE=$$b scripts/mutants.sh $(MUTANTS) || st=1; done; exit $$st

## check: everything "make" does, then all tests, the queues side by side; ends "N passed, N failed"
check:
	@scripts/check-all.sh $(BASES)

## clean: remove build/ and the configs' O= folders kept for every clone (KEEP), not the trees
clean:
	@$(call each,scripts/clean.sh)

## help: this list (BASE=6.1 or BASE=6.12 runs a target for one queue)
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
