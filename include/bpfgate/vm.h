/* bpfgate/vm.h - a sanitizing userspace interpreter for prepared BPF programs.
 *
 * A VM is created for one prepared program (or for a bare decoded instruction
 * array), given inputs (packet, ctx bytes, supplied kernel/user memory for
 * probe_read, map contents), run, and inspected (r0, output packet, maps,
 * captured printk/ringbuf/perf output, instruction count, fault report).
 *
 * Pointers in BPF registers are real host addresses, so clang-built code runs
 * unchanged; every load and store is checked against a table of regions
 * (stack frames, ctx, packet, map values, ringbuf records, supplied memory).
 * With sanitizing on, reads of uninitialized stack and partial or misaligned
 * ctx accesses are also reported. Either way the host is never written
 * outside a region. The VM owns everything; getters lend pointers valid until
 * the next run or bg_vm__free().
 *
 * Thread safety: a struct bg_vm is used by one thread at a time; different
 * interpreters (also of one shared object) may run in parallel threads.
 */
#ifndef BPFGATE_VM_H
#define BPFGATE_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <bpfgate/insn.h>
#include <bpfgate/object.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bg_vm;

/* Called before each instruction executes (pc = slot index in the program
 * being run, regs = r0..r10). Used by coverage and the soundness harness. */
typedef void (*bg_vm_hook_fn)(void *cookie, size_t pc, const uint64_t regs[11]);

struct bg_vm_opts {
	size_t sz;                 /* sizeof(struct bg_vm_opts) */
	int no_sanitize;           /* keep only the bounds checks that protect the host */
	int allow_uninit_stack;    /* do not report loads of uninitialized stack bytes */
	uint64_t insn_budget;      /* 0: 1 << 30 instructions per run */
	uint64_t seed;             /* bpf_get_prandom_u32 seed (0: fixed default) */
	uint64_t ktime_start;      /* bpf_ktime_get_ns first value (0: 1e9) */
	uint64_t ktime_step;       /* added per call (0: 1000) */
	uint64_t pid_tgid;         /* bpf_get_current_pid_tgid (0: 1000 << 32 | 1000) */
	const char *comm;          /* bpf_get_current_comm (NULL: "bpfgate") */
	uint32_t cpu;              /* bpf_get_smp_processor_id */
	uint32_t prog_type;        /* for bg_vm__new_insns: enum bpf_prog_type (0: raw) */
	bg_vm_hook_fn hook;        /* per-instruction hook, or NULL */
	void *hook_cookie;
	uint64_t attach_cookie;    /* bpf_get_attach_cookie (0: none, as the kernel gives) */
};
#define bg_vm_opts__last_field attach_cookie

/* Why a run stopped early. */
enum bg_vm_fault_kind {
	BG_VM_OK = 0,
	BG_VM_FAULT_MEM,           /* load/store outside any region or beyond its bounds */
	BG_VM_FAULT_UNINIT,        /* read of uninitialized stack */
	BG_VM_FAULT_CTX,           /* invalid, partial or misaligned ctx access */
	BG_VM_FAULT_RDONLY,        /* write to a read-only region */
	BG_VM_FAULT_HELPER,        /* unimplemented helper or bad helper argument */
	BG_VM_FAULT_BUDGET,        /* instruction budget exhausted */
	BG_VM_FAULT_STACK_DEPTH,   /* more than 8 frames */
	BG_VM_FAULT_INSN,          /* invalid instruction or jump target */
	BG_VM_FAULT_KFUNC,         /* call of a kfunc */
};

struct bg_vm_fault {
	enum bg_vm_fault_kind kind;
	size_t pc;                 /* slot index of the faulting instruction */
	const char *prog;          /* program name (tail calls may change it), or NULL */
	const struct bg_line *line;/* source line, or NULL */
	uint64_t addr;             /* faulting address (memory faults) */
	uint32_t size;             /* access size */
	const char *region;        /* region the address fell in / nearest, or NULL */
	uint64_t region_lo, region_hi; /* its bounds [lo, hi) */
	char msg[256];             /* one-line description */
};

/* A record captured from bpf_ringbuf_output/submit or bpf_perf_event_output. */
struct bg_vm_record {
	int map;                   /* map index */
	const void *data;
	size_t len;
};

/* Create a VM for a prepared program (its object's maps are created empty,
 * global data initialised). NULL with errno set on failure. */
BG_API struct bg_vm *bg_vm__new(const struct bg_program *prog, const struct bg_vm_opts *opts);
/* Create a VM for bare decoded instructions (no object, no maps). The
 * instructions are copied. prog_type from opts (0: r1 = memory, r2 = length). */
BG_API struct bg_vm *bg_vm__new_insns(const struct bg_insn *insns, size_t n,
				      const struct bg_vm_opts *opts);
BG_API void bg_vm__free(struct bg_vm *vm);

/* Inputs. The packet is copied (with 256 bytes of headroom as the kernel
 * gives); ctx bytes overlay the context struct the program sees (fields the
 * kernel computes, such as data/len, are still computed); for raw programs
 * it is the memory r1 points to. */
BG_API int bg_vm__set_packet(struct bg_vm *vm, const void *data, size_t len);
BG_API int bg_vm__set_ctx(struct bg_vm *vm, const void *data, size_t len);
/* Memory readable through bpf_probe_read_*: len bytes that appear at `addr`. */
BG_API int bg_vm__add_mem(struct bg_vm *vm, uint64_t addr, const void *data, size_t len);

/* Maps, by index in the object. */
BG_API size_t bg_vm__map_cnt(const struct bg_vm *vm);
BG_API int bg_vm__map_find(const struct bg_vm *vm, const char *name); /* index or -ENOENT */
BG_API const char *bg_vm__map_name(const struct bg_vm *vm, size_t map);
BG_API int bg_vm__map_update(struct bg_vm *vm, size_t map, const void *key, const void *value,
			     uint64_t flags);
/* Copies the value (value_size bytes; percpu maps: CPU 0's) into value. */
BG_API int bg_vm__map_lookup(struct bg_vm *vm, size_t map, const void *key, void *value);
BG_API int bg_vm__map_delete(struct bg_vm *vm, size_t map, const void *key);
/* key NULL: first key. Returns 0, -ENOENT at the end. */
BG_API int bg_vm__map_next_key(struct bg_vm *vm, size_t map, const void *key, void *next);
/* Put program `prog_name` of the VM's object at `key` of prog array `map`
 * (the target of bpf_tail_call). */
BG_API int bg_vm__prog_array_set(struct bg_vm *vm, size_t map, uint32_t key,
				 const char *prog_name);
/* Fill a map from "key value" bytes: data holds n records of key_size +
 * value_size bytes each (len must be a multiple). */
BG_API int bg_vm__map_load(struct bg_vm *vm, size_t map, const void *data, size_t len);

/* Run once. Returns 0 when the program exited (r0 in *r0), or a negative
 * error when it faulted (bg_vm__fault() describes it). Each run starts with
 * a fresh stack, the packet as last set, and maps as left by earlier runs. */
BG_API int bg_vm__run(struct bg_vm *vm, uint64_t *r0);

BG_API const struct bg_vm_fault *bg_vm__fault(const struct bg_vm *vm); /* NULL after success */
BG_API uint64_t bg_vm__insn_count(const struct bg_vm *vm);  /* executed in the last run */
/* The packet as it leaves, as BPF_PROG_TEST_RUN returns it: XDP from
 * data_meta to data_end; socket filter / cgroup_skb with a zeroed Ethernet
 * header in front; NULL after a fault. */
BG_API const void *bg_vm__packet(const struct bg_vm *vm, size_t *len);
BG_API const char *bg_vm__output(const struct bg_vm *vm, size_t *len); /* printk text */
BG_API size_t bg_vm__record_cnt(const struct bg_vm *vm);
BG_API const struct bg_vm_record *bg_vm__record(const struct bg_vm *vm, size_t i);
/* Action for redirect helpers: ifindex/map key and flags of the last redirect. */
BG_API int bg_vm__redirect(const struct bg_vm *vm, uint64_t *target, uint64_t *flags);
/* Clear captured output and records. */
BG_API void bg_vm__clear_output(struct bg_vm *vm);

/* "XDP_PASS", "TC_ACT_SHOT", ... for a return value of the VM's program type, or NULL. */
BG_API const char *bg_vm__action_name(const struct bg_vm *vm, uint64_t r0);


/* Inspection during a run (from the per-instruction hook) or after it, for
 * the soundness harness: the packet pointers the program currently sees
 * (0 when its type has no packet), and the memory regions of the run. */
BG_API int bg_vm__pkt_pointers(const struct bg_vm *vm, uint64_t *data_meta, uint64_t *data,
			       uint64_t *data_end);

enum bg_vm_region_kind {
	BG_VM_REGION_STACK,        /* all frames: [lo, hi) covers the frames in use */
	BG_VM_REGION_CTX,
	BG_VM_REGION_PKT,
	BG_VM_REGION_MAP,          /* a map value (map = its index) */
	BG_VM_REGION_RINGBUF,      /* a reserved ringbuf record */
	BG_VM_REGION_MEM,          /* plain memory (raw ctx, supplied memory) */
	BG_VM_REGION_SCRATCH,      /* helper scratch (released records, keys) */
};

struct bg_vm_region_info {
	uint64_t lo, hi;           /* [lo, hi) */
	int kind;                  /* enum bg_vm_region_kind */
	int map;                   /* map index, or -1 */
	bool writable;
};

BG_API size_t bg_vm__region_cnt(const struct bg_vm *vm);
BG_API int bg_vm__region(const struct bg_vm *vm, size_t i, struct bg_vm_region_info *out);

#ifdef __cplusplus
}
#endif
#endif
