# Thin driver for the /dev/kmem series; the work is done by scripts/.
# "make help" lists the targets. Everything generated goes to build/.

CONFIGS := $(shell scripts/configs.sh names)

.PHONY: all deps tree export kernels boot lint bench check clean help

## all: (default) install packages, unpack + patch the tree, build every config
all: kernels
	@for c in $(CONFIGS); do \
		echo "$$c: build/$$c/arch/x86/boot/bzImage (.config, vmlinux, System.map beside it)"; \
	done

## deps: install the Debian packages the build and the tests need (root)
deps:
	@scripts/install-deps.sh

## tree: build/linux = Debian's linux-source-6.1 + series/ (one commit each)
tree: deps
	@scripts/tree.sh

## export: write build/linux's commits back to series/ (git format-patch)
export:
	@scripts/export.sh

## kernels: build build/<config>/ for every line of kconfig-fragments/configs
kernels: tree
	@for c in $(CONFIGS); do scripts/build-kernel.sh $$c || exit 1; done

## boot: boot every built kernel in QEMU and run its boot tests
boot:
	@st=0; for c in $(CONFIGS); do scripts/initramfs.sh $$c || st=1; done; \
	scripts/configs.sh boots | { while read -r c set r; do \
		scripts/boot-test.sh $$c $$set || st=1; \
	done; exit $$st; } && \
	scripts/summary.sh $$(scripts/configs.sh boots | cut -d" " -f3)

## lint: checkpatch, mail form, every prefix built, zero cost when off
lint: kernels
	@scripts/lint.sh

## bench: /dev/kmem vs /dev/mem and /proc/kcore, in a guest -> build/results/bench.txt
bench: kernels
	@scripts/bench.sh

## check: everything "make" does, then all tests; ends "N passed, N failed"
check:
	@scripts/check.sh

## clean: remove build/ except the unpacked tree (build/linux)
clean:
	rm -rf $(addprefix build/,$(CONFIGS) results initramfs boot-tests kselftest menuconfig i386-root)

## help: this list
help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)
