/* The interpreter: translation of decoded instructions into the dispatch
 * form, the region-based memory model, the run driver and the public API.
 * See vm_int.h for the invariants and loop.inc for the dispatch loop. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/log.h"
#include "core/opts.h"
#include "vm/vm_int.h"


/* ---------- faults ---------- */

const char *vm_region_name(int kind)
{
	static const char *const names[] = {
		[VM_R_STACK] = "stack", [VM_R_CTX] = "ctx", [VM_R_PKT] = "packet",
		[VM_R_MAP] = "map value", [VM_R_RINGBUF] = "ringbuf record",
		[VM_R_MEM] = "memory", [VM_R_SCRATCH] = "scratch",
	};
	return kind >= 0 && kind <= VM_R_SCRATCH ? names[kind] : "?";
}

int vm_fault(struct bg_vm *vm, enum bg_vm_fault_kind k, uint64_t addr, uint32_t size,
	     const char *fmt, ...)
{
	struct bg_vm_fault *f = &vm->fault;
	const struct vm_image *img = &vm->images[vm->cur];
	va_list ap;

	if (vm->faulted)
		return -EFAULT;
	vm->faulted = true;
	f->kind = k;
	f->pc = vm->pc;
	f->prog = img->name;
	f->line = img->prog ? bg_program__line(img->prog, vm->pc) : NULL;
	f->addr = addr;
	f->size = size;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return -EFAULT;
}

/* ---------- regions ---------- */

int vm_add_region(struct bg_vm *vm, uint64_t lo, uint64_t hi, int kind, bool writable, int map)
{
	struct vm_region *g;

	if (__builtin_expect(vm->nregions == vm->cap_regions, 0)) {
		size_t cap = vm->cap_regions ? vm->cap_regions * 2 : 16;
		struct vm_region *n = realloc(vm->regions, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		vm->regions = n;
		vm->cap_regions = cap;
	}
	g = &vm->regions[vm->nregions];
	g->lo = lo;
	g->hi = hi;
	g->kind = (uint8_t)kind;
	g->writable = writable;
	g->map = map;
	g->gen = vm->gen;
	return (int)vm->nregions++;
}

static uint64_t stack_lo(const struct bg_vm *vm)
{
	return (uint64_t)vm->stack + (uint64_t)(VM_MAX_FRAMES - 1 - vm->depth) * VM_STACK_SIZE;
}

/* Region index holding [a, a+size), or -1. Region 0 is the stack, whose
 * valid part shrinks to the frames in use. */
static int find_region(struct bg_vm *vm, uint64_t a, uint64_t size)
{
	size_t i = vm->last_region;

	if (i < vm->nregions && i != 0) {
		const struct vm_region *r = &vm->regions[i];

		if (a >= r->lo && a <= r->hi && size <= r->hi - a)
			return (int)i;
	}
	for (i = 0; i < vm->nregions; i++) {
		const struct vm_region *r = &vm->regions[i];
		uint64_t lo = i == 0 ? stack_lo(vm) : r->lo;

		if (a >= lo && a <= r->hi && size <= r->hi - a) {
			vm->last_region = i;
			return (int)i;
		}
	}
	return -1;
}

/* Fill the fault's region fields with the region nearest to a. */
static int nearest_region(struct bg_vm *vm, uint64_t a)
{
	uint64_t best = UINT64_MAX;
	size_t i;
	int at = -1;

	for (i = 0; i < vm->nregions; i++) {
		const struct vm_region *r = &vm->regions[i];
		uint64_t lo = i == 0 ? stack_lo(vm) : r->lo;
		uint64_t d = a < lo ? lo - a : a >= r->hi ? a - r->hi + 1 : 0;

		if (r->hi == 0) /* unused fixed slot (no ctx memory, no packet) */
			continue;
		if (d < best) {
			best = d;
			at = (int)i;
			vm->fault.region = vm_region_name(r->kind);
			vm->fault.region_lo = lo;
			vm->fault.region_hi = r->hi;
		}
	}
	return at;
}

static int mem_fault(struct bg_vm *vm, uint64_t a, uint64_t size, bool write)
{
	int err = vm_fault(vm, BG_VM_FAULT_MEM, a, (uint32_t)size, "%s of %llu bytes at 0x%llx",
			   write ? "store" : "load", (unsigned long long)size,
			   (unsigned long long)a);
	struct bg_vm_fault *f = &vm->fault;
	size_t n;
	int i;
	long long rel;
	unsigned long long len;

	i = nearest_region(vm, a);
	n = strlen(f->msg);
	if (i > 0 && vm->regions[i].kind == VM_R_SCRATCH && vm->regions[i].lo == vm->regions[i].hi &&
	    a - vm->regions[i].lo < 65536) {
		/* bpf_ringbuf_submit/discard emptied it (h_ringbuf_commit) */
		f->region = "released ringbuf record";
		snprintf(f->msg + n, sizeof(f->msg) - n,
			 " is in the ringbuf record at 0x%llx, already submitted or discarded",
			 (unsigned long long)vm->regions[i].lo);
		return err;
	}
	if (f->region && (a + 65536 < f->region_lo || a > f->region_hi + 65536)) {
		/* far from everything: naming the nearest region would mislead */
		f->region = NULL;
		f->region_lo = f->region_hi = 0;
		snprintf(f->msg + n, sizeof(f->msg) - n, " is outside any region%s",
			 a < 4096 ? " (NULL pointer dereference)" : "");
		return err;
	}
	if (!f->region)
		return err;
	rel = (long long)(a - f->region_lo);
	len = (unsigned long long)(f->region_hi - f->region_lo);
	if (a >= f->region_hi)
		snprintf(f->msg + n, sizeof(f->msg) - n,
			 " (%s%+lld) is %llu bytes past the end of %s [0x%llx, 0x%llx), %llu bytes",
			 f->region, rel, (unsigned long long)(a - f->region_hi), f->region,
			 (unsigned long long)f->region_lo, (unsigned long long)f->region_hi, len);
	else if (a < f->region_lo)
		snprintf(f->msg + n, sizeof(f->msg) - n,
			 " (%s%+lld) is %llu bytes before %s [0x%llx, 0x%llx), %llu bytes", f->region,
			 rel, (unsigned long long)(f->region_lo - a), f->region,
			 (unsigned long long)f->region_lo, (unsigned long long)f->region_hi, len);
	else
		snprintf(f->msg + n, sizeof(f->msg) - n,
			 " (%s%+lld) crosses the end of %s [0x%llx, 0x%llx), %llu bytes", f->region,
			 rel, f->region, (unsigned long long)f->region_lo,
			 (unsigned long long)f->region_hi, len);
	return err;
}

bool vm_shadow_ok(struct bg_vm *vm, uint64_t a, uint32_t size)
{
	const uint8_t *s = vm->shadow + (a - (uint64_t)vm->stack);
	uint32_t i;

	if (vm->opts.allow_uninit_stack)
		return true;
	for (i = 0; i < size; i++)
		if (s[i] != vm->shadow_gen)
			return false;
	return true;
}

void vm_shadow_new_gen(struct bg_vm *vm)
{
	if (++vm->shadow_gen == 0) { /* wrapped: old marks could match again */
		memset(vm->shadow, 0, VM_MAX_FRAMES * VM_STACK_SIZE);
		vm->shadow_gen = 1;
	}
}

static int uninit_fault(struct bg_vm *vm, uint64_t a, uint64_t size)
{
	const uint8_t *s = vm->shadow + (a - (uint64_t)vm->stack);
	uint64_t fp = (uint64_t)vm->stack + (uint64_t)(VM_MAX_FRAMES - vm->depth) * VM_STACK_SIZE;
	uint64_t i = 0;

	while (i < size && s[i] == vm->shadow_gen)
		i++;
	vm_fault(vm, BG_VM_FAULT_UNINIT, a, (uint32_t)size,
		 "load of %llu bytes at fp%+lld reads uninitialized stack byte fp%+lld",
		 (unsigned long long)size, (long long)(a - fp), (long long)(a + i - fp));
	vm->fault.region = "stack";
	vm->fault.region_lo = stack_lo(vm);
	vm->fault.region_hi = (uint64_t)vm->stack + VM_MAX_FRAMES * VM_STACK_SIZE;
	return -EFAULT;
}

static void *region_ptr_at(struct bg_vm *vm, int i, uint64_t a, uint64_t size, bool write,
			   bool need_init)
{
	const struct vm_region *r;

	if (i < 0) {
		mem_fault(vm, a, size, write);
		return NULL;
	}
	r = &vm->regions[i];
	if (write && !r->writable) {
		vm_fault(vm, BG_VM_FAULT_RDONLY, a, (uint32_t)size,
			 "store of %llu bytes at 0x%llx into read-only %s [0x%llx, 0x%llx)",
			 (unsigned long long)size, (unsigned long long)a, vm_region_name(r->kind),
			 (unsigned long long)r->lo, (unsigned long long)r->hi);
		return NULL;
	}
	if (r->kind == VM_R_STACK) {
		uint8_t *s = vm->shadow + (a - (uint64_t)vm->stack);

		if (need_init && vm->sanitize && !vm_shadow_ok(vm, a, (uint32_t)size)) {
			uninit_fault(vm, a, size);
			return NULL;
		}
		if (write)
			memset(s, vm->shadow_gen, size);
	}
	return (void *)a;
}

static void *region_ptr(struct bg_vm *vm, uint64_t a, uint64_t size, bool write, bool need_init)
{
	return region_ptr_at(vm, find_region(vm, a, size), a, size, write, need_init);
}

/* Is [a, a+size) inside the frames in use (helper arguments on the stack)? */
static bool in_stack(const struct bg_vm *vm, uint64_t a, uint64_t size)
{
	uint64_t lo = stack_lo(vm), hi = (uint64_t)vm->stack + VM_MAX_FRAMES * VM_STACK_SIZE;

	return a >= lo && a <= hi && size <= hi - a;
}

void *vm_ptr(struct bg_vm *vm, uint64_t addr, uint64_t size, bool write)
{
	if (size == 0)
		return (void *)addr;
	if (in_stack(vm, addr, size)) { /* the common case: no region scan */
		if (write)
			memset(vm->shadow + (addr - (uint64_t)vm->stack), vm->shadow_gen, size);
		return (void *)addr;
	}
	if (addr + size < addr) {
		mem_fault(vm, addr, size, write);
		return NULL;
	}
	return region_ptr(vm, addr, size, write, false);
}

void *vm_ptr_read_init(struct bg_vm *vm, uint64_t addr, uint64_t size)
{
	if (size == 0)
		return (void *)addr;
	return region_ptr(vm, addr, size, false, true);
}

/* Copies of 1, 2, 4 or 8 bytes with a constant size (no library call);
 * little-endian host: the low bytes of the value. */
static inline void copy_sized(void *to, const void *from, uint32_t size)
{
	switch (size) {
	case 1: memcpy(to, from, 1); break;
	case 2: memcpy(to, from, 2); break;
	case 4: memcpy(to, from, 4); break;
	case 8: memcpy(to, from, 8); break;
	default: memcpy(to, from, size); break;
	}
}

int vm_load(struct bg_vm *vm, uint64_t a, uint32_t size, uint64_t *val)
{
	int i;
	void *p;

	if (vm->ctx_special && a - (uint64_t)vm->ctx < vm->ctx_size) { /* ctx fields: no scan */
		uint64_t off = a - (uint64_t)vm->ctx;

		if (size == 4 && !(off & 3) && off / 4 < sizeof(vm->ctx_ptr) && vm->ctx_ptr[off / 4]) {
			uint8_t f = vm->ctx_ptr[off / 4];

			*val = (uint64_t)(f == 1 ? vm->data : f == 2 ? vm->data_end : vm->data_meta);
			return 1; /* rewritten by the kernel into a 64-bit pointer load */
		}
		return vm_ctx_load(vm, off, size, val);
	}
	i = find_region(vm, a, size);

	*val = 0;
	if (i >= 0 && vm->regions[i].kind == VM_R_CTX)
		return vm_ctx_load(vm, a - vm->regions[i].lo, size, val);
	p = region_ptr_at(vm, i, a, size, false, true);
	if (!p)
		return -EFAULT;
	copy_sized(val, p, size);
	return 0;
}

int vm_store(struct bg_vm *vm, uint64_t a, uint32_t size, uint64_t val)
{
	int i = find_region(vm, a, size);
	void *p;

	if (i >= 0 && vm->regions[i].kind == VM_R_CTX)
		return vm_ctx_store(vm, a - vm->regions[i].lo, size, val);
	p = region_ptr_at(vm, i, a, size, true, false);
	if (!p)
		return -EFAULT;
	copy_sized(p, &val, size);
	return 0;
}

/* ---------- atomics, legacy packet loads, callx ---------- */

int vm_atomic(struct bg_vm *vm, const struct vinsn *ip, uint64_t *r)
{
	uint32_t op = ip->aux, sz = ip->size;
	uint64_t old = 0, nv, a;
	void *p;

	if (op == BG_ATOMIC_LOAD_ACQ) {
		a = r[ip->src] + (uint64_t)(int64_t)ip->off;
		if (vm_load(vm, a, sz, &old) < 0)
			return -EFAULT;
		r[ip->dst] = old;
		return 0;
	}
	a = r[ip->dst] + (uint64_t)(int64_t)ip->off;
	if (op == BG_ATOMIC_STORE_REL)
		return vm_store(vm, a, sz, r[ip->src]);
	if (sz != 4 && sz != 8)
		return vm_fault(vm, BG_VM_FAULT_INSN, 0, 0, "atomic operation of size %u", sz);
	if (a % sz)
		return vm_fault(vm, BG_VM_FAULT_MEM, a, sz, "misaligned atomic access at 0x%llx",
				(unsigned long long)a);
	p = region_ptr(vm, a, sz, true, true); /* read-modify-write */
	if (!p)
		return -EFAULT;
	memcpy(&old, p, sz);
	switch (op & ~(uint32_t)BG_ATOMIC_FETCH) {
	case BG_ATOMIC_ADD: nv = old + r[ip->src]; break;
	case BG_ATOMIC_OR: nv = old | r[ip->src]; break;
	case BG_ATOMIC_AND: nv = old & r[ip->src]; break;
	case BG_ATOMIC_XOR: nv = old ^ r[ip->src]; break;
	default:
		if (op == BG_ATOMIC_XCHG) {
			nv = r[ip->src];
		} else if (op == BG_ATOMIC_CMPXCHG) {
			uint64_t cmp = sz == 4 ? (uint32_t)r[0] : r[0];

			nv = old == cmp ? r[ip->src] : old;
			memcpy(p, &nv, sz);
			r[0] = old;
			return 0;
		} else {
			return vm_fault(vm, BG_VM_FAULT_INSN, 0, 0, "unknown atomic op 0x%x", op);
		}
	}
	memcpy(p, &nv, sz);
	if (op & BG_ATOMIC_FETCH)
		r[ip->src] = old;
	return 0;
}

int vm_ld_legacy(struct bg_vm *vm, const struct vinsn *ip, uint64_t *r)
{
	uint64_t off = (uint64_t)(int64_t)(int32_t)ip->imm;
	uint64_t len = (uint64_t)(vm->data_end - vm->data);
	uint32_t sz = ip->size;
	const uint8_t *p;

	if (ip->op == VM_OP_LDIND)
		off = (uint64_t)(int64_t)(int32_t)((uint32_t)r[ip->src] + (uint32_t)ip->imm);
	if (!vm->data || (int64_t)off < 0 || off > len || sz > len - off) {
		/* the kernel ends the program with r0 = 0 */
		vm->stop = true;
		vm->stop_r0 = 0;
		return 0;
	}
	p = vm->data + off;
	if (sz == 1)
		r[0] = p[0];
	else if (sz == 2)
		r[0] = (uint64_t)p[0] << 8 | p[1];
	else
		r[0] = (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
	/* like a helper call, r1-r5 are clobbered (left as they are here) */
	return 0;
}

int vm_callx_target(struct bg_vm *vm, uint64_t v, size_t *target, uint64_t *r)
{
	const struct vm_image *img = &vm->images[vm->cur];
	uint64_t base = (uint64_t)img->code;

	if (v >= base && v < base + img->n * sizeof(struct vinsn) &&
	    (v - base) % sizeof(struct vinsn) == 0) {
		*target = (v - base) / sizeof(struct vinsn);
		return 0;
	}
	if (v < img->n && img->code[v].op != VM_OP_HI) {
		*target = (size_t)v; /* an instruction index */
		return 0;
	}
	if (v <= UINT32_MAX) { /* a helper id */
		int err = vm_helper(vm, (uint32_t)v, r);

		return err ? err : 1;
	}
	return vm_fault(vm, BG_VM_FAULT_INSN, v, 0, "callx to 0x%llx: not a function",
			(unsigned long long)v);
}

/* ---------- the dispatch loop, four variants ---------- */

#define LOOP_NAME loop_fast
#define LOOP_SAN 0
#define LOOP_HOOK 0
#include "vm/loop.inc"
#undef LOOP_NAME
#undef LOOP_SAN
#undef LOOP_HOOK
#define LOOP_NAME loop_san
#define LOOP_SAN 1
#define LOOP_HOOK 0
#include "vm/loop.inc"
#undef LOOP_NAME
#undef LOOP_SAN
#undef LOOP_HOOK
#define LOOP_NAME loop_fast_hook
#define LOOP_SAN 0
#define LOOP_HOOK 1
#include "vm/loop.inc"
#undef LOOP_NAME
#undef LOOP_SAN
#undef LOOP_HOOK
#define LOOP_NAME loop_san_hook
#define LOOP_SAN 1
#define LOOP_HOOK 1
#include "vm/loop.inc"
#undef LOOP_NAME
#undef LOOP_SAN
#undef LOOP_HOOK

static int run_loop(struct bg_vm *vm, uint64_t *r, size_t entry)
{
	if (vm->opts.hook)
		return vm->sanitize ? loop_san_hook(vm, r, entry) : loop_fast_hook(vm, r, entry);
	return vm->sanitize ? loop_san(vm, r, entry) : loop_fast(vm, r, entry);
}

int vm_call_callback(struct bg_vm *vm, int32_t target, const uint64_t args[5], uint64_t *r0)
{
	uint64_t r[11] = { 0 };
	size_t save_pc = vm->pc;
	int err;

	if (vm->depth + 1 >= VM_MAX_FRAMES)
		return vm_fault(vm, BG_VM_FAULT_STACK_DEPTH, 0, 0,
				"callback nesting exceeds %d frames", VM_MAX_FRAMES);
	if (target < 0 || (size_t)target >= vm->images[vm->cur].n)
		return vm_fault(vm, BG_VM_FAULT_INSN, 0, 0, "callback target %d out of range",
				target);
	memcpy(&r[1], args, 5 * sizeof(uint64_t));
	vm->depth++;
	r[10] = (uint64_t)vm->stack + (uint64_t)(VM_MAX_FRAMES - vm->depth) * VM_STACK_SIZE;
	if (vm->sanitize)
		memset(vm->shadow + (r[10] - VM_STACK_SIZE - (uint64_t)vm->stack), 0,
		       VM_STACK_SIZE);
	err = run_loop(vm, r, (size_t)target);
	vm->depth--;
	if (!err)
		vm->pc = save_pc;
	*r0 = r[0];
	return err;
}

/* ---------- translation ---------- */

static const uint8_t alu_index[16] = {
	[BG_ALU_ADD >> 4] = 0, [BG_ALU_SUB >> 4] = 1, [BG_ALU_MUL >> 4] = 2,
	[BG_ALU_DIV >> 4] = 3, [BG_ALU_MOD >> 4] = 5, [BG_ALU_OR >> 4] = 7,
	[BG_ALU_AND >> 4] = 8, [BG_ALU_LSH >> 4] = 9, [BG_ALU_RSH >> 4] = 10,
	[BG_ALU_ARSH >> 4] = 11, [BG_ALU_XOR >> 4] = 12, [BG_ALU_MOV >> 4] = 13,
};
static const int8_t jmp_index[16] = {
	[0] = -1, [BG_JMP_JEQ >> 4] = 0, [BG_JMP_JGT >> 4] = 1, [BG_JMP_JGE >> 4] = 2,
	[BG_JMP_JSET >> 4] = 3, [BG_JMP_JNE >> 4] = 4, [BG_JMP_JSGT >> 4] = 5,
	[BG_JMP_JSGE >> 4] = 6, [BG_JMP_JLT >> 4] = 7, [BG_JMP_JLE >> 4] = 8,
	[BG_JMP_JSLT >> 4] = 9, [BG_JMP_JSLE >> 4] = 10, [8] = -1, [9] = -1, [14] = -1,
	[15] = -1,
};

static uint16_t tr_alu(const struct bg_insn *in)
{
	uint16_t base;
	unsigned idx;

	if (in->op == BG_ALU_NEG)
		return in->alu64 ? VM_OP_NEG64 : VM_OP_NEG32;
	if (in->op == BG_ALU_MOV && in->ext_bits) {
		if (!in->src_is_reg)
			return VM_OP_INVALID;
		if (in->alu64)
			return in->ext_bits == 8 ? VM_OP_MOVSX64_8 : in->ext_bits == 16
			       ? VM_OP_MOVSX64_16 : in->ext_bits == 32 ? VM_OP_MOVSX64_32 : VM_OP_INVALID;
		return in->ext_bits == 8 ? VM_OP_MOVSX32_8 : in->ext_bits == 16 ? VM_OP_MOVSX32_16
		       : VM_OP_INVALID;
	}
	if (in->op > BG_ALU_ARSH || in->op == BG_ALU_END)
		return VM_OP_INVALID;
	idx = alu_index[in->op >> 4];
	if (in->is_signed && (in->op == BG_ALU_DIV || in->op == BG_ALU_MOD))
		idx++;
	base = in->alu64 ? (in->src_is_reg ? VM_OP_A64X_ADD : VM_OP_A64K_ADD)
			 : (in->src_is_reg ? VM_OP_A32X_ADD : VM_OP_A32K_ADD);
	return (uint16_t)(base + idx);
}

static uint16_t tr_end(const struct bg_insn *in)
{
	/* to_be is the ALU class with the source bit set; ALU64 is bswap */
	bool swap = in->alu64 || in->src_is_reg || (in->code & 0x08);

	switch (in->ext_bits) {
	case 16: return swap ? VM_OP_BSWAP16 : VM_OP_TRUNC16;
	case 32: return swap ? VM_OP_BSWAP32 : VM_OP_TRUNC32;
	case 64: return swap ? VM_OP_BSWAP64 : VM_OP_NOP;
	default: return VM_OP_INVALID;
	}
}

static uint16_t tr_jcond(const struct bg_insn *in)
{
	int idx = jmp_index[in->op >> 4];
	uint16_t base;

	if (idx < 0)
		return VM_OP_INVALID;
	base = in->alu64 ? (in->src_is_reg ? VM_OP_J64X_JEQ : VM_OP_J64K_JEQ)
			 : (in->src_is_reg ? VM_OP_J32X_JEQ : VM_OP_J32K_JEQ);
	return (uint16_t)(base + idx);
}

_Static_assert(VM_OP_STXDW - VM_OP_LDXB == VM_OP_STXDW_FP - VM_OP_LDXB_FP,
	       "frame-pointer memory ops mirror the others");

static uint16_t tr_mem(const struct bg_insn *in)
{
	static const uint16_t ldx[9] = { [1] = VM_OP_LDXB, [2] = VM_OP_LDXH, [4] = VM_OP_LDXW,
					 [8] = VM_OP_LDXDW };
	static const uint16_t ldxs[9] = { [1] = VM_OP_LDXSB, [2] = VM_OP_LDXSH, [4] = VM_OP_LDXSW };
	static const uint16_t st[9] = { [1] = VM_OP_STB, [2] = VM_OP_STH, [4] = VM_OP_STW,
					[8] = VM_OP_STDW };
	static const uint16_t stx[9] = { [1] = VM_OP_STXB, [2] = VM_OP_STXH, [4] = VM_OP_STXW,
					 [8] = VM_OP_STXDW };
	uint16_t op;

	if (in->size > 8)
		return VM_OP_INVALID;
	if (in->kind == BG_K_LDX)
		op = in->is_signed ? ldxs[in->size] : ldx[in->size];
	else if (in->kind == BG_K_ST)
		op = st[in->size];
	else
		op = stx[in->size];
	if (!op)
		return VM_OP_INVALID;
	/* through the frame pointer: handlers that try the stack first; the
	 * others try the packet first (parsers) */
	if (in->kind == BG_K_LDX ? in->src == 10 : in->dst == 10)
		op = (uint16_t)(op - VM_OP_LDXB + VM_OP_LDXB_FP);
	return op;
}

/* Value of an ld_imm64 once maps and functions are resolved. */
static int tr_ldimm64(struct bg_vm *vm, const struct bg_insn *in, size_t pc, struct vinsn *code,
		      size_t n, struct vinsn *out)
{
	uint32_t idx = (uint32_t)in->imm;
	uint32_t off = (uint32_t)(in->imm64 >> 32);
	struct vm_map *m;

	switch (in->pseudo) {
	case BG_PSEUDO_NONE:
		out->imm = in->imm64;
		return 0;
	case BG_PSEUDO_MAP_FD:
	case BG_PSEUDO_MAP_IDX:
		if (idx >= vm->nmaps)
			return -ENOENT;
		out->imm = vm_map_ptr(vm, idx);
		return 0;
	case BG_PSEUDO_MAP_VALUE:
	case BG_PSEUDO_MAP_IDX_VALUE:
		if (idx >= vm->nmaps)
			return -ENOENT;
		m = &vm->maps[idx];
		if (!m->array || off >= m->value_size)
			return -EINVAL;
		out->imm = (uint64_t)(m->array + off);
		return 0;
	case BG_PSEUDO_FUNC: {
		int64_t t = in->target >= 0 ? in->target : (int64_t)pc + in->imm + 1;

		if (t < 0 || (size_t)t >= n)
			return -EINVAL;
		out->imm = (uint64_t)&code[t];
		out->target = (int32_t)t;
		return 0;
	}
	default: /* BTF_ID (ksym): no kernel objects here */
		out->imm = 0;
		return 0;
	}
}

static int translate(struct bg_vm *vm, const struct bg_insn *ins, size_t n, struct vinsn *code)
{
	size_t pc;

	for (pc = 0; pc < n; pc++) {
		const struct bg_insn *in = &ins[pc];
		struct vinsn *v = &code[pc];

		*v = (struct vinsn){ .op = VM_OP_INVALID, .dst = in->dst, .src = in->src,
				     .off = in->off, .size = in->size, .target = in->target,
				     .imm = (uint64_t)(int64_t)in->imm };
		if (in->dst > 10 || in->src > 10)
			continue;
		if (in->target >= 0 && (size_t)in->target >= n)
			continue;
		switch (in->kind) {
		case BG_K_ALU: v->op = tr_alu(in); break;
		case BG_K_END: v->op = tr_end(in); break;
		case BG_K_ADDR_CAST: v->op = VM_OP_A64X_MOV; break;
		case BG_K_LD_IMM64:
			if (pc + 1 >= n)
				break;
			if (tr_ldimm64(vm, in, pc, code, n, v) == 0)
				v->op = VM_OP_LDDW;
			break;
		case BG_K_LD_IMM64_HI: v->op = VM_OP_HI; break;
		case BG_K_LD_ABS: v->op = VM_OP_LDABS; break;
		case BG_K_LD_IND: v->op = VM_OP_LDIND; break;
		case BG_K_LDX:
		case BG_K_ST:
		case BG_K_STX: v->op = tr_mem(in); break;
		case BG_K_ATOMIC:
			v->op = VM_OP_ATOMIC;
			v->aux = in->atomic_op;
			break;
		case BG_K_JA: v->op = in->target >= 0 ? VM_OP_JA : VM_OP_INVALID; break;
		case BG_K_JCOND: v->op = in->target >= 0 ? tr_jcond(in) : VM_OP_INVALID; break;
		case BG_K_MAY_GOTO: v->op = in->target >= 0 ? VM_OP_MAY_GOTO : VM_OP_INVALID; break;
		case BG_K_CALL:
			v->aux = (uint32_t)in->imm;
			if (in->pseudo == BG_CALL_LOCAL)
				v->op = in->target >= 0 ? VM_OP_CALL_LOCAL : VM_OP_INVALID;
			else if (in->pseudo == BG_CALL_KFUNC) {
				v->op = VM_OP_CALL_KFUNC;
				v->kf = vm_kfunc_code(vm, (uint32_t)in->imm);
			}
			else
				v->op = VM_OP_CALL;
			break;
		case BG_K_CALLX: v->op = VM_OP_CALLX; break;
		case BG_K_EXIT: v->op = VM_OP_EXIT; break;
		default: break;
		}
	}
	/* sentinels: falling off the end stops with "invalid instruction" */
	code[n] = (struct vinsn){ .op = VM_OP_INVALID };
	code[n + 1] = (struct vinsn){ .op = VM_OP_INVALID };
	return 0;
}

static int add_image(struct bg_vm *vm, const struct bg_insn *ins, size_t n,
		     const struct bg_program *prog, const char *name)
{
	struct vm_image *imgs = realloc(vm->images, (vm->nimages + 1) * sizeof(*imgs));
	struct vinsn *code;

	if (!imgs)
		return -ENOMEM;
	vm->images = imgs;
	code = calloc(n + 2, sizeof(*code));
	if (!code)
		return -ENOMEM;
	translate(vm, ins, n, code);
	imgs[vm->nimages] = (struct vm_image){ code, n, prog, name };
	return (int)vm->nimages++;
}

/* Image index for program `idx` of the object (tail calls), loaded lazily. */
int vm_image_for_prog(struct bg_vm *vm, size_t idx)
{
	const struct bg_program *p;
	const struct bg_insn *ins;
	size_t i, n;

	if (!vm->obj || idx >= bg_object__prog_cnt(vm->obj))
		return -ENOENT;
	p = bg_object__prog(vm->obj, idx);
	for (i = 0; i < vm->nimages; i++)
		if (vm->images[i].prog == p)
			return (int)i;
	ins = bg_program__insns(p, &n);
	if (!ins)
		return -ENOENT;
	return add_image(vm, ins, n, p, bg_program__name(p));
}

/* ---------- creation ---------- */

static struct bg_vm *vm_alloc(const struct bg_vm_opts *opts)
{
	struct bg_vm *vm = calloc(1, sizeof(*vm));

	if (!vm) {
		errno = ENOMEM;
		return NULL;
	}
	if (OPTS_COPY(&vm->opts, opts, bg_vm_opts)) {
		free(vm);
		errno = EINVAL;
		return NULL;
	}
	if (!vm->opts.insn_budget)
		vm->opts.insn_budget = 1ull << 30;
	if (!vm->opts.ktime_start)
		vm->opts.ktime_start = 1000000000ull;
	if (!vm->opts.ktime_step)
		vm->opts.ktime_step = 1000;
	if (!vm->opts.pid_tgid)
		vm->opts.pid_tgid = 1000ull << 32 | 1000;
	if (!vm->opts.comm)
		vm->opts.comm = "bpfgate";
	vm->sanitize = !vm->opts.no_sanitize;
	vm->prog_type = vm->opts.prog_type;
	vm->stack = aligned_alloc(64, VM_MAX_FRAMES * VM_STACK_SIZE);
	vm->shadow = calloc(1, VM_MAX_FRAMES * VM_STACK_SIZE);
	if (!vm->stack || !vm->shadow) {
		bg_vm__free(vm);
		return NULL;
	}
	memset(vm->stack, 0, VM_MAX_FRAMES * VM_STACK_SIZE);
	vm->prandom = vm->opts.seed ? vm->opts.seed : 0x9e3779b97f4a7c15ull;
	vm->ktime = vm->opts.ktime_start;
	/* region 0: the stack */
	if (vm_add_region(vm, (uint64_t)vm->stack,
			  (uint64_t)vm->stack + VM_MAX_FRAMES * VM_STACK_SIZE, VM_R_STACK, true,
			  -1) < 0) {
		bg_vm__free(vm);
		return NULL;
	}
	return vm;
}

static int vm_finish_setup(struct bg_vm *vm)
{
	int err = vm_ctx_prepare(vm);

	if (err)
		return err;
	vm->nfixed = vm->nregions;
	return 0;
}

struct bg_vm *bg_vm__new(const struct bg_program *prog, const struct bg_vm_opts *opts)
{
	struct bg_vm *vm;
	const struct bg_insn *ins;
	size_t n;
	int err;

	if (!prog) {
		errno = EINVAL;
		return NULL;
	}
	vm = vm_alloc(opts); /* sets errno */
	if (!vm)
		return NULL;
	vm->obj = bg_program__object(prog);
	vm->prog_type = bg_program__type(prog);
	ins = bg_program__insns(prog, &n);
	err = vm_maps_create(vm);
	if (!err)
		err = ins ? add_image(vm, ins, n, prog, bg_program__name(prog)) : -EINVAL;
	if (err >= 0)
		err = vm_finish_setup(vm);
	if (err < 0) {
		bg_vm__free(vm);
		errno = -err;
		return NULL;
	}
	return vm;
}

struct bg_vm *bg_vm__new_insns(const struct bg_insn *insns, size_t n,
			       const struct bg_vm_opts *opts)
{
	struct bg_vm *vm = vm_alloc(opts); /* sets errno */
	int err;

	if (!vm)
		return NULL;
	err = add_image(vm, insns, n, NULL, NULL);
	if (err >= 0)
		err = vm_finish_setup(vm);
	if (err < 0) {
		bg_vm__free(vm);
		errno = -err;
		return NULL;
	}
	return vm;
}

static void free_graveyard(struct bg_vm *vm)
{
	size_t i;

	for (i = 0; i < vm->ngrave; i++)
		free(vm->graveyard[i]);
	vm->ngrave = 0;
}

void bg_vm__free(struct bg_vm *vm)
{
	size_t i;

	if (!vm)
		return;
	vm_maps_free(vm);
	for (i = 0; i < vm->nimages; i++)
		free(vm->images[i].code);
	free(vm->images);
	for (i = 0; i < vm->nmems; i++)
		free(vm->mems[i].data);
	free(vm->mems);
	free_graveyard(vm);
	free(vm->graveyard);
	bg_vm__clear_output(vm);
	free(vm->recs);
	free(vm->out);
	free(vm->ringbuf_pending);
	free(vm->regions);
	free(vm->stack);
	free(vm->shadow);
	free(vm->ctx);
	free(vm->ctx_in);
	free(vm->pkt_in);
	free(vm->pktbuf);
	free(vm);
}

void vm_graveyard(struct bg_vm *vm, void *p)
{
	if (vm->ngrave == vm->cap_grave) {
		size_t cap = vm->cap_grave ? vm->cap_grave * 2 : 16;
		void **g = realloc(vm->graveyard, cap * sizeof(*g));

		if (!g) { /* leak rather than free memory a program may still use */
			return;
		}
		vm->graveyard = g;
		vm->cap_grave = cap;
	}
	vm->graveyard[vm->ngrave++] = p;
}

/* ---------- inputs ---------- */

int bg_vm__set_packet(struct bg_vm *vm, const void *data, size_t len)
{
	uint8_t *p;

	if (!vm || (len && !data) || len > VM_PKT_MAX)
		return -EINVAL;
	p = malloc(len ? len : 1);
	if (!p)
		return -ENOMEM;
	if (len)
		memcpy(p, data, len);
	free(vm->pkt_in);
	vm->pkt_in = p;
	vm->pkt_in_len = len;
	return 0;
}

int bg_vm__set_ctx(struct bg_vm *vm, const void *data, size_t len)
{
	uint8_t *p;

	if (!vm || (len && !data) || len > (1u << 20))
		return -EINVAL;
	p = calloc(1, len ? len : 1);
	if (!p)
		return -ENOMEM;
	if (len)
		memcpy(p, data, len);
	free(vm->ctx_in);
	vm->ctx_in = p;
	vm->ctx_in_len = len;
	return 0;
}

int bg_vm__add_mem(struct bg_vm *vm, uint64_t addr, const void *data, size_t len)
{
	struct vm_mem *m;

	if (!vm || !len || !data || addr + len < addr)
		return -EINVAL;
	m = realloc(vm->mems, (vm->nmems + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	vm->mems = m;
	m[vm->nmems].data = malloc(len);
	if (!m[vm->nmems].data)
		return -ENOMEM;
	memcpy(m[vm->nmems].data, data, len);
	m[vm->nmems].addr = addr;
	m[vm->nmems].len = len;
	vm->nmems++;
	return 0;
}

/* ---------- running ---------- */

void vm_pkt_update(struct bg_vm *vm)
{
	if (vm->pkt_region >= 0) {
		vm->regions[vm->pkt_region].lo = (uint64_t)vm->data_meta;
		vm->regions[vm->pkt_region].hi = (uint64_t)vm->data_end;
	}
	if (vm->data_meta < vm->pkt_low)
		vm->pkt_low = vm->data_meta;
	vm_ctx_sync(vm);
}

static void reset_run(struct bg_vm *vm)
{
	vm->nregions = vm->nfixed;
	vm->last_region = 0;
	if (++vm->gen == 0) /* 0 marks lookups outside a run (bg_vm__map_lookup) */
		vm->gen = 1;
	vm->icount = 0;
	vm->may_goto_left = VM_MAX_LOOPS;
	vm->tail_calls = 0;
	vm->redirected = false;
	vm->depth = 0;
	vm->stop = false;
	vm->cur = 0;
	vm->cur_changed = false;
	if (vm->faulted)
		memset(&vm->fault, 0, sizeof(vm->fault));
	vm->faulted = false;
	/* frame 0 starts uninitialized (a new mark); deeper frames are cleared
	 * when entered */
	vm_shadow_new_gen(vm);
	/* maps' own regions (global data) are fixed: registered before nfixed */
}

int bg_vm__run(struct bg_vm *vm, uint64_t *r0)
{
	uint64_t r[11] = { 0 };
	int err;

	if (!vm)
		return -EINVAL;
	reset_run(vm);
	err = vm_ctx_reset(vm, r);
	if (err)
		return err;
	r[10] = (uint64_t)vm->stack + VM_MAX_FRAMES * VM_STACK_SIZE;
	err = run_loop(vm, r, 0);
	free_graveyard(vm);
	vm->nrb_pending = 0;
	if (err)
		return err;
	vm_ctx_finish(vm);
	if (r0)
		*r0 = r[0];
	return 0;
}

/* ---------- inspection ---------- */

const struct bg_vm_fault *bg_vm__fault(const struct bg_vm *vm)
{
	return vm && vm->faulted ? &vm->fault : NULL;
}

uint64_t bg_vm__insn_count(const struct bg_vm *vm)
{
	return vm ? vm->icount : 0;
}

const void *bg_vm__packet(const struct bg_vm *vm, size_t *len)
{
	if (!vm || !vm->out_pkt || !vm->has_pkt || vm->faulted) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = vm->out_pkt_len;
	return vm->out_pkt;
}

void vm_out_append(struct bg_vm *vm, const char *s, size_t n)
{
	if (vm->out_len + n + 1 > vm->out_cap) {
		size_t cap = (vm->out_len + n + 1) * 2;
		char *o;

		if (cap > (64u << 20))
			return; /* cap captured output at 64 MiB */
		o = realloc(vm->out, cap);
		if (!o)
			return;
		vm->out = o;
		vm->out_cap = cap;
	}
	memcpy(vm->out + vm->out_len, s, n);
	vm->out_len += n;
	vm->out[vm->out_len] = 0;
}

const char *bg_vm__output(const struct bg_vm *vm, size_t *len)
{
	if (len)
		*len = vm ? vm->out_len : 0;
	return vm && vm->out ? vm->out : "";
}

int vm_record(struct bg_vm *vm, int map, const void *data, size_t len)
{
	void *copy;

	if (vm->nrecs == vm->cap_recs) {
		size_t cap = vm->cap_recs ? vm->cap_recs * 2 : 16;
		struct bg_vm_record *n;

		if (vm->nrecs >= (1u << 20))
			return -E2BIG;
		n = realloc(vm->recs, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		vm->recs = n;
		vm->cap_recs = cap;
	}
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	vm->recs[vm->nrecs++] = (struct bg_vm_record){ map, copy, len };
	return 0;
}

size_t bg_vm__record_cnt(const struct bg_vm *vm)
{
	return vm ? vm->nrecs : 0;
}

const struct bg_vm_record *bg_vm__record(const struct bg_vm *vm, size_t i)
{
	return vm && i < vm->nrecs ? &vm->recs[i] : NULL;
}

int bg_vm__redirect(const struct bg_vm *vm, uint64_t *target, uint64_t *flags)
{
	if (!vm || !vm->redirected)
		return -ENOENT;
	if (target)
		*target = vm->redirect_target;
	if (flags)
		*flags = vm->redirect_flags;
	return 0;
}

void bg_vm__clear_output(struct bg_vm *vm)
{
	size_t i;

	if (!vm)
		return;
	for (i = 0; i < vm->nrecs; i++)
		free((void *)vm->recs[i].data);
	vm->nrecs = 0;
	vm->out_len = 0;
	if (vm->out)
		vm->out[0] = 0;
}

const char *bg_vm__action_name(const struct bg_vm *vm, uint64_t r0)
{
	static const char *const xdp[] = { "XDP_ABORTED", "XDP_DROP", "XDP_PASS", "XDP_TX",
					   "XDP_REDIRECT" };
	static const char *const tc[] = { "TC_ACT_OK", "TC_ACT_RECLASSIFY", "TC_ACT_SHOT",
					  "TC_ACT_PIPE", "TC_ACT_STOLEN", "TC_ACT_QUEUED",
					  "TC_ACT_REPEAT", "TC_ACT_REDIRECT", "TC_ACT_TRAP" };
	uint32_t v = (uint32_t)r0;

	if (!vm)
		return NULL;
	switch (vm->prog_type) {
	case BPF_PROG_TYPE_XDP:
		return v < 5 ? xdp[v] : NULL;
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
		if ((int32_t)v == -1)
			return "TC_ACT_UNSPEC";
		return v < 9 ? tc[v] : NULL;
	case BPF_PROG_TYPE_CGROUP_SKB:
		return v == 0 ? "drop" : v == 1 ? "allow" : NULL;
	default:
		return NULL;
	}
}

/* ---------- inspection for the soundness harness ---------- */

_Static_assert((int)VM_R_STACK == (int)BG_VM_REGION_STACK &&
		       (int)VM_R_SCRATCH == (int)BG_VM_REGION_SCRATCH &&
		       (int)VM_R_MAP == (int)BG_VM_REGION_MAP && (int)VM_R_MEM == (int)BG_VM_REGION_MEM,
	       "public region kinds mirror vm_region_kind");

int bg_vm__pkt_pointers(const struct bg_vm *vm, uint64_t *data_meta, uint64_t *data,
			uint64_t *data_end)
{
	if (!vm)
		return -EINVAL;
	if (data_meta)
		*data_meta = (uint64_t)vm->data_meta;
	if (data)
		*data = (uint64_t)vm->data;
	if (data_end)
		*data_end = (uint64_t)vm->data_end;
	return 0;
}

size_t bg_vm__region_cnt(const struct bg_vm *vm)
{
	return vm ? vm->nregions : 0;
}

int bg_vm__region(const struct bg_vm *vm, size_t i, struct bg_vm_region_info *out)
{
	if (!vm || !out || i >= vm->nregions)
		return -EINVAL;
	out->lo = i == 0 ? stack_lo(vm) : vm->regions[i].lo;
	out->hi = vm->regions[i].hi;
	out->kind = vm->regions[i].kind;
	out->map = vm->regions[i].map;
	out->writable = vm->regions[i].writable;
	return 0;
}
