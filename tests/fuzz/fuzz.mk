# SPDX-License-Identifier: MIT
# The libFuzzer targets (tests/fuzz/fuzz-*.c, one file per target: a new file is a new target),
# built with clang, ASan and UBSan: the host library (the host tool's sources minus its main and
# commands, as host.mk lists them) and the recorder's host-test-y and host-fuzz-y files (its parsers
# of device files, built for the host as the unit tests build them), linked into one binary each.
#   make fuzz-build                          $(O)/fuzz/bin/fuzz-<target>
#   make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="a b"]   run each N seconds (tests/fuzz/run.sh):
#                                            $(O)/fuzz/<target>/ (crash files, scratch corpus)
# Included by the top Makefile after host.mk (it uses host-src, host-test-y, TP_HOST_LIBS).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
fuzz-obj := $(objtree)/fuzz-obj
fuzz-bin := $(objtree)/fuzz/bin
fuzz-san := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
fuzz-cflags := -std=c11 -Wall -Wextra -Werror -I$(srctree) -DCONFIG_SHIM_HOSTED=1 -DTP_VERSION='"fuzz"' \
	-g -O1 $(fuzz-san)

fuzz-names := $(sort $(patsubst $(srctree)/tests/fuzz/fuzz-%.c,%,$(wildcard $(srctree)/tests/fuzz/fuzz-*.c)))
fuzz-lib-src := $(filter-out $(srctree)/host-tools/main.c $(srctree)/host-tools/cmd-%.c \
	$(srctree)/host-tools/cli/%.c,$(host-src)) \
	$(addprefix $(srctree)/recorder/,$(sort $(host-test-y) $(host-fuzz-y)))
fuzz-lib-objs := $(patsubst $(srctree)/%.c,$(fuzz-obj)/%.o,$(fuzz-lib-src))
# the recorder's files as a device with embedded symbols and MiniDebugInfo builds them (no
# .config here: the options its readers test with IS_ENABLED)
fuzz-rec-flags := -DCONFIG_REC_EMBED_SYMBOLS=1 -DCONFIG_REC_EMBED_MINIDEBUGINFO=1

# the library: instrumented for coverage (fuzzer-no-link), no libFuzzer main
$(fuzz-obj)/%.o: $(srctree)/%.c
	$(quiet) FUZZCC $(patsubst $(srctree)/%,%,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(fuzz-cflags) $(if $(filter recorder/%,$*),$(fuzz-rec-flags)) \
		-fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(fuzz-bin)/fuzz-%: $(srctree)/tests/fuzz/fuzz-%.c $(fuzz-lib-objs)
	$(quiet) FUZZLD $(patsubst $(objtree)/%,%,$@)
	$(Q)mkdir -p $(@D) $(fuzz-obj)/tests
	$(Q)$(FUZZ_CC) $(fuzz-cflags) $(fuzz-rec-flags) -fsanitize=fuzzer -MMD -MP -MF $(fuzz-obj)/tests/$(notdir $@).d \
		-o $@ $< $(fuzz-lib-objs) $(TP_HOST_LIBS)

# (kept: they are the prerequisites of a pattern rule only)
.SECONDARY: $(fuzz-lib-objs)

fuzz-build: $(addprefix $(fuzz-bin)/fuzz-,$(fuzz-names))

fuzz: fuzz-build
	$(Q)FUZZ_O=$(objtree) $(srctree)/tests/fuzz/run.sh --no-build $(FUZZ_SECONDS) $(FUZZ_TARGETS)

-include $(shell find $(fuzz-obj) -name '*.d' 2>/dev/null)
.PHONY: fuzz fuzz-build
