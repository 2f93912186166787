# bpfgate build. One library (static + shared) and one CLI; every src/*/*.c is
# part of the library, every tools/*.c part of the CLI, every shared/*.c part
# of both (compiled once for each), every tests/unit/*.c a test binary. Parts
# add files, not rules: this Makefile rarely needs editing.
#
#   make            library, CLI, examples (and the corpus when present)
#   make test       install deps, build normal + ASan/UBSan, run the test suite (ASan build)
#   make demo       install deps, build, run the main job on the bundled examples
#   make asan       the ASan+UBSan build in build-asan/
#   make tsan       the ThreadSanitizer build of the library + tests/unit/test_threads
#   make bench      benchmarks (figures for the closing notes)
#   make fuzz       libFuzzer target over the object loader, bounded run
#   make install    PREFIX=/usr/local
BUILD   ?= build
CC      ?= gcc
ifeq ($(origin CC),default)
CC      := gcc
endif
PREFIX  ?= /usr/local
CLANG_BPF ?= $(shell command -v clang-14 || command -v clang)
SAN     ?=
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)

PKG_CFLAGS := $(shell pkg-config --cflags libbpf libelf zlib libpcap 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs libbpf libelf zlib libpcap 2>/dev/null || echo -lbpf -lelf -lz -lpcap)
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-missing-field-initializers -Wno-format-truncation
CFLAGS  ?= -O2 -g
SAN_ON   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
TSAN_ON  := -fsanitize=thread -fno-omit-frame-pointer
SANFLAGS := $(if $(SAN),$(SAN_ON))$(if $(TSAN),$(TSAN_ON))
ALL_CFLAGS := -std=gnu11 $(CFLAGS) $(WARN) $(SANFLAGS) -fPIC -fvisibility=hidden \
           -Iinclude -Isrc -Ishared $(PKG_CFLAGS) -DBG_API='__attribute__((visibility("default")))'
# The CLI (tools/) is a client of the public API only: include/bpfgate and
# system headers, linked against libbpfgate.a (tests/cli_public.test.sh).
# shared/ is code compiled into both (the JSON writer): over the public API
# only, a hidden copy in the library and the CLI's own object.
TOOL_CFLAGS := -std=gnu11 $(CFLAGS) $(WARN) $(SANFLAGS) -Iinclude -Ishared $(PKG_CFLAGS)
LDLIBS  := $(PKG_LIBS) -lm -lpthread

SHARED_SRC := $(sort $(wildcard shared/*.c))
LIB_SRC   := $(sort $(wildcard src/*/*.c)) $(SHARED_SRC)
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
TOOL_SRC  := $(sort $(wildcard tools/*.c))
TOOL_OBJ  := $(TOOL_SRC:%.c=$(BUILD)/%.o) $(SHARED_SRC:shared/%.c=$(BUILD)/tools/shared-%.o)
TEST_SRC  := $(sort $(wildcard tests/unit/*.c))
TEST_BIN  := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
EX_SRC    := $(sort $(wildcard examples/*.bpf.c))
EX_OBJ    := $(EX_SRC:examples/%.bpf.c=$(BUILD)/examples/%.bpf.o)
BPF_CFLAGS := -O2 -g -target bpf -Wall -Werror -Wno-unused-function -I$(BUILD) -Iexamples/include -Iinclude \
           -I/usr/include/x86_64-linux-gnu
DEPFLAGS  = -MMD -MP

.PHONY: all lib cli tests examples corpus realcorpus realcorpus-kernels realcorpus-kernels-boot realcorpus-next plugins deps test asan tsan demo bench fuzz install clean check-format
all: lib cli tests examples corpus plugins

deps:
	$(Q)bash scripts/deps.sh

lib: $(BUILD)/libbpfgate.a $(BUILD)/libbpfgate.so $(BUILD)/bpfgate.pc $(BUILD)/libbpfgate_internal.a
cli: $(BUILD)/bpfgate
tests: $(TEST_BIN)
examples: $(EX_OBJ)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TOOL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/tools/shared-%.o: shared/%.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TOOL_CFLAGS) $(DEPFLAGS) -c $< -o $@

# The installed archive exports only the public API: the objects are linked
# into one (ld -r) whose hidden (internal) symbols become local, so verr,
# check_mem... cannot clash with a user's symbols. The CLI links it too (the
# public API only); the unit tests, which reach internals, link the plain
# objects (libbpfgate_internal.a).
$(BUILD)/libbpfgate.a: $(LIB_OBJ)
	$(Q)rm -f $@ $(BUILD)/libbpfgate.o && ld -r -o $(BUILD)/libbpfgate.o $^ && \
	  objcopy --localize-hidden $(BUILD)/libbpfgate.o && ar rcs $@ $(BUILD)/libbpfgate.o && rm -f $(BUILD)/libbpfgate.o

$(BUILD)/libbpfgate_internal.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libbpfgate.so: $(LIB_OBJ) src/libbpfgate.map
	$(Q)$(CC) -shared $(SANFLAGS) -Wl,-soname,libbpfgate.so.0 -Wl,--version-script=src/libbpfgate.map \
	  -o $@ $(LIB_OBJ) $(LDLIBS)

$(BUILD)/bpfgate.pc: bpfgate.pc.in
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(shell sed -n 's/^#define BPFGATE_VERSION "\(.*\)"/\1/p' include/bpfgate/bpfgate.h)|' $< > $@

# SARIF's informationUri: the installed documentation (no web home).
$(BUILD)/tools/cmd_check.o: TOOL_CFLAGS += -DBG_DOC_DIR='"$(PREFIX)/share/doc/bpfgate"'

$(BUILD)/bpfgate: $(TOOL_OBJ) $(BUILD)/libbpfgate.a
	$(Q)$(CC) $(SANFLAGS) -o $@ $(TOOL_OBJ) $(BUILD)/libbpfgate.a $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libbpfgate_internal.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libbpfgate_internal.a $(LDLIBS)

$(BUILD)/vmlinux.h:
	@mkdir -p $(dir $@)
	$(Q)if [ -r /sys/kernel/btf/vmlinux ] && command -v bpftool >/dev/null; then \
	  bpftool btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp && mv $@.tmp $@; \
	else echo "vmlinux.h: no /sys/kernel/btf/vmlinux or bpftool" >&2; exit 1; fi

$(BUILD)/examples/%.bpf.o: examples/%.bpf.c $(BUILD)/vmlinux.h $(wildcard examples/include/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(CLANG_BPF) $(BPF_CFLAGS) -c $< -o $@

# bpfgate cc's pass plugin (C++, optional): one per installed LLVM with headers.
PLUGIN_VERS := $(foreach v,14 15 16 17 18 19 20,$(if $(wildcard /usr/lib/llvm-$(v)/include/llvm/Passes/PassPlugin.h),$(v)))
plugins: $(PLUGIN_VERS:%=$(BUILD)/plugins/bpfgate-skip-%.so)
$(BUILD)/plugins/bpfgate-skip-%.so: src/cc/plugin/skip.cpp
	@mkdir -p $(dir $@)
	$(Q)/usr/lib/llvm-$*/bin/clang++ -shared -fPIC -O2 $$(/usr/lib/llvm-$*/bin/llvm-config --cxxflags) -Wall -Werror $< -o $@

corpus: $(BUILD)/vmlinux.h
	$(Q)if [ -f corpus/Makefile ]; then $(MAKE) --no-print-directory -C corpus BUILD=$(abspath $(BUILD))/corpus VMLINUX_DIR=$(abspath $(BUILD)); fi

# The real corpus: the kernel's BPF selftests from linux-source-6.12 (corpus/real/Makefile).
realcorpus:
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc) -C corpus/real OUT=$(abspath $(BUILD))/realcorpus CLANG=$(shell command -v clang-19)

# The real corpus judged by Debian's 5.10, 6.1, 6.12 and 7.2 and compared with check --kernel V
# (tests/realcorpus_kernels.py). realcorpus-kernels uses the kernels' verdicts cached in
# tests/data/realcorpus/guests/ (minutes: only bpfgate check runs; make test runs the same comparison
# as tests/realcorpus_kernels.test.sh); realcorpus-kernels-boot
# boots the four kernels under QEMU (under TCG on 2 shared cores the better part of an hour,
# two guests at a time) and rewrites that cache: run it when the loader's rules change.
# The held-out real corpus: the selftests of a newer kernel tree than the yardstick's
# (linux-source-$(NEXT_SRCVER) from Debian unstable, fetched by scripts/fetch_linux_source.sh),
# judged by the running kernel, compared with bpfgate check. A measurement, not part of
# make test: unstable replaces that package's version (and so its programs) over time, and
# the build and judging take ~10 minutes. Its known disagreements:
# tests/data/realcorpus/disagreements-$(NEXT_SRCVER).tsv; new ones are printed, not failed.
NEXT_SRCVER ?= 7.2
realcorpus-next: all
	$(Q)tb=$$(bash scripts/fetch_linux_source.sh $(NEXT_SRCVER)) && \
	  $(MAKE) --no-print-directory -j$(shell nproc) -C corpus/real OUT=$(abspath $(BUILD))/realcorpus-$(NEXT_SRCVER) \
	    SRCVER=$(NEXT_SRCVER) TARBALL=$$tb CLANG=$(shell command -v clang-19) selftests
	$(Q)BG_REAL_LIST=tests/data/realcorpus/disagreements-$(NEXT_SRCVER).tsv BG_REAL_NO_KLOAD=1 \
	   BG_NORMAL_BUILD=$(abspath $(BUILD)) BG_REALCORPUS=$(abspath $(BUILD))/realcorpus-$(NEXT_SRCVER) \
	   python3 tests/realcorpus.py | tee $(BUILD)/realcorpus-next.log | grep -v '^\(PASS\|XFAIL\) '; true

realcorpus-kernels: all
	$(Q)$(MAKE) --no-print-directory realcorpus
	$(Q)BG_NORMAL_BUILD=$(abspath $(BUILD)) BG_REALCORPUS=$(abspath $(BUILD))/realcorpus \
	   python3 tests/realcorpus_kernels.py | tee $(BUILD)/realcorpus-kernels.log | grep -v '^\(PASS\|XFAIL\) '; \
	   ! grep -q '^FAIL ' $(BUILD)/realcorpus-kernels.log

realcorpus-kernels-boot: all
	$(Q)$(MAKE) --no-print-directory realcorpus
	$(Q)BG_REAL_BOOT=1 BG_NORMAL_BUILD=$(abspath $(BUILD)) BG_REALCORPUS=$(abspath $(BUILD))/realcorpus \
	   python3 tests/realcorpus_kernels.py --save-guests | tee $(BUILD)/realcorpus-kernels.log | \
	   grep -v '^\(PASS\|XFAIL\) '; ! grep -q '^FAIL ' $(BUILD)/realcorpus-kernels.log

asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-asan SAN=1 lib cli tests

# ThreadSanitizer: the library and the concurrency test only (tests/threads.test.sh)
tsan:
	$(Q)$(MAKE) --no-print-directory BUILD=build-tsan TSAN=1 build-tsan/tests/test_threads

test: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(MAKE) --no-print-directory asan
	$(Q)$(MAKE) --no-print-directory realcorpus
	$(Q)$(MAKE) --no-print-directory tsan
	$(Q)BG_BUILD=$(abspath build-asan) BG_EXAMPLES=$(abspath $(BUILD))/examples \
	   BG_CORPUS=$(abspath $(BUILD))/corpus BG_NORMAL_BUILD=$(abspath $(BUILD)) bash tests/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BG_BUILD=$(abspath $(BUILD)) bash scripts/demo.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)BG_BUILD=$(abspath $(BUILD)) bash bench/run.sh

fuzz: deps
	$(Q)bash tests/fuzz/run.sh

install: lib cli
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/bpfgate \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BUILD)/bpfgate $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/libbpfgate.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libbpfgate.so $(DESTDIR)$(PREFIX)/lib/libbpfgate.so.0
	ln -sf libbpfgate.so.0 $(DESTDIR)$(PREFIX)/lib/libbpfgate.so
	install -m 644 include/bpfgate/*.h $(DESTDIR)$(PREFIX)/include/bpfgate/
	install -m 644 $(BUILD)/bpfgate.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -d $(DESTDIR)$(PREFIX)/share/doc/bpfgate
	install -m 644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/bpfgate/
	if ls $(BUILD)/plugins/*.so >/dev/null 2>&1; then install -d $(DESTDIR)$(PREFIX)/lib/bpfgate && \
	  install -m 755 $(BUILD)/plugins/*.so $(DESTDIR)$(PREFIX)/lib/bpfgate/; fi

check-format:
	$(Q)clang-format --dry-run --Werror $(LIB_SRC) $(TOOL_SRC)

clean:
	rm -rf build build-asan build-tsan

-include $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d)
