/* Helper calls of the interpreter. Every pointer argument is checked against
 * the region table before the host touches it (vm_ptr), so a helper can never
 * read or write outside what the program may access. Deterministic by
 * default: ktime advances a fixed step per call, prandom is a seeded
 * xorshift, pid/comm/cpu come from the options. An unimplemented helper stops
 * the run with a message naming it. In a raw program (no object, prog type
 * 0), helper 5 is the conformance suite's "unwind": r0 = r1, and the program
 * ends returning 0 when r1 is 0. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/btf.h>

#include "platform/helpers.h"
#include "vm/vm_int.h"


#define XDP_FRAME_HDR 40 /* sizeof(struct xdp_frame) kept at the head of the frame */
#define XDP_SHINFO 320
#define XDP_META_MAX 32
#define VM_FAKE_TASK 0xffff888000100000ull /* bpf_get_current_task() */

static const char *helper_name(uint32_t id)
{
	const struct bg_helper_proto *p = bg_helper_by_id(id);

	return p && p->name ? p->name : "unknown helper";
}

static int bad_arg(struct bg_vm *vm, uint32_t id, const char *what)
{
	if (vm->faulted) /* vm_ptr already described the access */
		return -EFAULT;
	return vm_fault(vm, BG_VM_FAULT_HELPER, 0, 0, "%s (helper %u): %s", helper_name(id), id,
			what);
}

static struct vm_map *map_arg(struct bg_vm *vm, uint64_t p, uint32_t id)
{
	struct vm_map *m = vm_map_from_ptr(vm, p);

	if (!m)
		bad_arg(vm, id, "argument 1 is not a map");
	return m;
}

/* ---------- maps ---------- */

static int h_map_lookup(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	const void *key;
	uint8_t *v;

	if (!m)
		return -EFAULT;
	key = vm_ptr(vm, r[2], m->key_size, false);
	if (!key)
		return bad_arg(vm, id, "key is not readable memory");
	if (m->type == BPF_MAP_TYPE_RINGBUF || m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
	    m->type == BPF_MAP_TYPE_PROG_ARRAY) {
		r[0] = 0;
		return 0;
	}
	v = vm_map_lookup(vm, m, key);
	if (v && (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS || m->type == BPF_MAP_TYPE_HASH_OF_MAPS)) {
		uint32_t inner;

		memcpy(&inner, v, sizeof(inner));
		r[0] = inner < vm->nmaps ? vm_map_ptr(vm, inner) : 0;
		return 0;
	}
	r[0] = (uint64_t)v;
	return 0;
}

static int h_map_update(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	const void *key, *val;

	if (!m)
		return -EFAULT;
	key = vm_ptr(vm, r[2], m->key_size, false);
	val = key ? vm_ptr(vm, r[3], m->value_size, false) : NULL;
	if (!key || !val)
		return bad_arg(vm, id, "key or value is not readable memory");
	r[0] = (uint64_t)(int64_t)vm_map_update(vm, m, key, val, r[4]);
	return 0;
}

static int h_map_delete(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	const void *key;

	if (!m)
		return -EFAULT;
	key = vm_ptr(vm, r[2], m->key_size, false);
	if (!key)
		return bad_arg(vm, id, "key is not readable memory");
	r[0] = (uint64_t)(int64_t)vm_map_delete(vm, m, key);
	return 0;
}

/* queue (FIFO) and stack (LIFO) maps: push, pop, peek */
static int h_queue(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	bool stack;
	uint32_t slot;
	void *p;

	if (!m)
		return -EFAULT;
	if (m->type == BPF_MAP_TYPE_BLOOM_FILTER) {
		p = vm_ptr(vm, r[2], m->key_size, false);
		if (!p)
			return bad_arg(vm, id, "value is not accessible memory");
		if (id == BPF_FUNC_map_push_elem)
			r[0] = (uint64_t)(int64_t)vm_bloom_push(m, p, r[3]);
		else if (id == BPF_FUNC_map_peek_elem)
			r[0] = (uint64_t)(int64_t)vm_bloom_peek(m, p);
		else
			r[0] = (uint64_t)-EOPNOTSUPP;
		return 0;
	}
	if (m->type != BPF_MAP_TYPE_QUEUE && m->type != BPF_MAP_TYPE_STACK)
		return bad_arg(vm, id, "map is not a queue, stack or bloom filter");
	stack = m->type == BPF_MAP_TYPE_STACK;
	p = vm_ptr(vm, r[2], m->value_size, id != BPF_FUNC_map_push_elem);
	if (!p)
		return bad_arg(vm, id, "value is not accessible memory");
	if (id == BPF_FUNC_map_push_elem) {
		if (m->qcount == m->max_entries) {
			if (!(r[3] & BPF_EXIST)) {
				r[0] = (uint64_t)-E2BIG;
				return 0;
			}
			if (!stack) { /* drop the oldest */
				m->qhead = (m->qhead + 1) % m->max_entries;
			}
			m->qcount--;
		}
		slot = (m->qhead + m->qcount) % m->max_entries;
		memcpy(m->array + (size_t)slot * m->vsz, p, m->value_size);
		m->qcount++;
		r[0] = 0;
		return 0;
	}
	if (!m->qcount) {
		r[0] = (uint64_t)-ENOENT;
		return 0;
	}
	slot = stack ? (m->qhead + m->qcount - 1) % m->max_entries : m->qhead;
	memcpy(p, m->array + (size_t)slot * m->vsz, m->value_size);
	if (id == BPF_FUNC_map_pop_elem) {
		if (!stack)
			m->qhead = (m->qhead + 1) % m->max_entries;
		m->qcount--;
	}
	r[0] = 0;
	return 0;
}

/* ---------- memory reads ---------- */

/* Source bytes for probe_read: supplied memory first, then VM regions. */
static const uint8_t *probe_src(struct bg_vm *vm, uint64_t a, uint64_t n)
{
	size_t i;

	for (i = 0; i < vm->nmems; i++) {
		const struct vm_mem *m = &vm->mems[i];

		if (a >= m->addr && a - m->addr <= m->len && n <= m->len - (a - m->addr))
			return m->data + (a - m->addr);
	}
	if (n == 0)
		return NULL;
	{
		bool was = vm->faulted;
		const uint8_t *p = vm_ptr(vm, a, n, false);

		if (!was && vm->faulted) { /* a failed probe is not a fault */
			vm->faulted = false;
			memset(&vm->fault, 0, sizeof(vm->fault));
		}
		return p;
	}
}

static int h_probe_read(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t n = (uint32_t)r[2];
	uint8_t *dst = vm_ptr(vm, r[1], n, true);
	const uint8_t *src;

	if (!dst)
		return bad_arg(vm, id, "destination is not writable memory");
	src = probe_src(vm, r[3], n);
	if (!src) {
		memset(dst, 0, n);
		r[0] = (uint64_t)-EFAULT;
		return 0;
	}
	memmove(dst, src, n);
	r[0] = 0;
	return 0;
}

static int h_probe_read_str(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t n = (uint32_t)r[2], i;
	uint8_t *dst = vm_ptr(vm, r[1], n, true);

	if (!dst)
		return bad_arg(vm, id, "destination is not writable memory");
	if (!n) {
		r[0] = 0;
		return 0;
	}
	for (i = 0; i + 1 < n; i++) {
		const uint8_t *s = probe_src(vm, r[3] + i, 1);

		if (!s) {
			memset(dst, 0, n);
			r[0] = (uint64_t)-EFAULT;
			return 0;
		}
		dst[i] = *s;
		if (!*s)
			break;
	}
	dst[i] = 0;
	r[0] = i + 1;
	return 0;
}

/* ---------- printk ---------- */

/* Render a trace_printk format with up to 12 u64 arguments. */
static void render_printk(struct bg_vm *vm, const char *fmt, size_t fmtlen, const uint64_t *args,
			  int nargs, char *out, size_t outsz)
{
	size_t o = 0, i = 0;
	int ai = 0;

	out[0] = 0;
	while (i < fmtlen && fmt[i] && o + 1 < outsz) {
		char spec[32], buf[256];
		size_t s = 0;
		int nl = 0;
		uint64_t a;

		if (fmt[i] != '%') {
			out[o++] = fmt[i++];
			continue;
		}
		if (i + 1 < fmtlen && fmt[i + 1] == '%') {
			out[o++] = '%';
			i += 2;
			continue;
		}
		spec[s++] = fmt[i++];
		while (i < fmtlen && strchr("-+ #0123456789.", fmt[i]) && s < 16)
			spec[s++] = fmt[i++];
		while (i < fmtlen && (fmt[i] == 'l' || fmt[i] == 'h') && nl < 2) {
			nl += fmt[i] == 'l';
			i++;
		}
		if (i >= fmtlen)
			break;
		a = ai < nargs ? args[ai] : 0;
		ai++;
		buf[0] = 0;
		switch (fmt[i]) {
		case 'd': case 'i':
			spec[s++] = 'l'; spec[s++] = 'l'; spec[s++] = 'd'; spec[s] = 0;
			snprintf(buf, sizeof(buf), spec, nl ? (long long)a : (long long)(int32_t)a);
			break;
		case 'u': case 'x': case 'X': case 'o':
			spec[s++] = 'l'; spec[s++] = 'l'; spec[s++] = fmt[i]; spec[s] = 0;
			snprintf(buf, sizeof(buf), spec,
				 nl ? (unsigned long long)a : (unsigned long long)(uint32_t)a);
			break;
		case 'c':
			buf[0] = (char)a;
			buf[1] = 0;
			break;
		case 's': {
			size_t k;

			for (k = 0; k + 1 < sizeof(buf); k++) {
				const uint8_t *c = probe_src(vm, a + k, 1);

				if (!c || !*c)
					break;
				buf[k] = (char)*c;
			}
			buf[k] = 0;
			break;
		}
		case 'p':
			if (i + 2 < fmtlen && (fmt[i + 1] == 'I' || fmt[i + 1] == 'i') &&
			    fmt[i + 2] == '4') {
				const uint8_t *ip = probe_src(vm, a, 4);

				if (ip)
					snprintf(buf, sizeof(buf), "%u.%u.%u.%u", ip[0], ip[1], ip[2],
						 ip[3]);
				i += 2;
			} else {
				if (i + 1 < fmtlen && (fmt[i + 1] == 'K' || fmt[i + 1] == 'x'))
					i++;
				snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)a);
			}
			break;
		default:
			snprintf(buf, sizeof(buf), "%%%c", fmt[i]);
			break;
		}
		i++;
		for (s = 0; buf[s] && o + 1 < outsz; s++)
			out[o++] = buf[s];
	}
	out[o] = 0;
}

static int printk_common(struct bg_vm *vm, uint64_t *r, uint32_t id, uint64_t fmt_p,
			 uint32_t fmt_size, const uint64_t *args, int nargs)
{
	const char *fmt = vm_ptr(vm, fmt_p, fmt_size, false);
	char out[1024];
	size_t n;

	if (!fmt || !fmt_size || !memchr(fmt, 0, fmt_size))
		return bad_arg(vm, id, "format is not a NUL-terminated readable string");
	render_printk(vm, fmt, fmt_size, args, nargs, out, sizeof(out));
	n = strlen(out);
	vm_out_append(vm, out, n);
	if (!n || out[n - 1] != '\n')
		vm_out_append(vm, "\n", 1);
	r[0] = n;
	return 0;
}

static int h_trace_printk(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint64_t args[3] = { r[3], r[4], r[5] };

	return printk_common(vm, r, id, r[1], (uint32_t)r[2], args, 3);
}

static int h_trace_vprintk(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint64_t args[12] = { 0 };
	uint32_t len = (uint32_t)r[4];
	const void *data;

	if (len % 8 || len > sizeof(args))
		return bad_arg(vm, id, "data_len must be a multiple of 8, at most 96");
	data = vm_ptr(vm, r[3], len, false);
	if (len && !data)
		return bad_arg(vm, id, "data is not readable memory");
	if (len)
		memcpy(args, data, len);
	return printk_common(vm, r, id, r[1], (uint32_t)r[2], args, (int)(len / 8));
}

/* ---------- output maps ---------- */

static int h_perf_output(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[2], id);
	const void *data;

	if (!m)
		return -EFAULT;
	data = vm_ptr(vm, r[4], r[5], false);
	if (!data && r[5])
		return bad_arg(vm, id, "data is not readable memory");
	r[0] = (uint64_t)(int64_t)vm_record(vm, vm_map_index(vm, m), data, r[5]);
	return 0;
}

static int h_ringbuf_output(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	const void *data;

	if (!m)
		return -EFAULT;
	if (m->type != BPF_MAP_TYPE_RINGBUF)
		return bad_arg(vm, id, "map is not a ringbuf");
	data = vm_ptr(vm, r[2], r[3], false);
	if (!data && r[3])
		return bad_arg(vm, id, "data is not readable memory");
	r[0] = (uint64_t)(int64_t)vm_record(vm, vm_map_index(vm, m), data, r[3]);
	return 0;
}

static int h_ringbuf_reserve(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	uint64_t size = r[2];
	uint8_t *p;

	if (!m)
		return -EFAULT;
	if (m->type != BPF_MAP_TYPE_RINGBUF)
		return bad_arg(vm, id, "map is not a ringbuf");
	r[0] = 0;
	if (r[3] || size > m->max_entries || size > (1u << 24))
		return 0;
	p = calloc(1, size ? (size + 7) & ~7ull : 8);
	if (!p)
		return 0;
	vm_graveyard(vm, p);
	if (vm_add_region(vm, (uint64_t)p, (uint64_t)p + size, VM_R_RINGBUF, true,
			  vm_map_index(vm, m)) < 0)
		return 0;
	r[0] = (uint64_t)p;
	return 0;
}

static int h_ringbuf_commit(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	size_t i;

	for (i = vm->nfixed; i < vm->nregions; i++) {
		struct vm_region *g = &vm->regions[i];

		if (g->kind != VM_R_RINGBUF || g->lo != r[1])
			continue;
		if (id == BPF_FUNC_ringbuf_submit)
			vm_record(vm, g->map, (const void *)g->lo, g->hi - g->lo);
		g->kind = VM_R_SCRATCH; /* released: no longer accessible */
		g->hi = g->lo;
		r[0] = 0;
		return 0;
	}
	return bad_arg(vm, id, "argument is not a reserved ringbuf record");
}

/* ---------- packet helpers ---------- */

static int h_xdp_adjust_head(struct bg_vm *vm, uint64_t *r)
{
	int64_t delta = (int32_t)r[2];
	size_t metalen = (size_t)(vm->data - vm->data_meta);
	uint8_t *data = vm->data + delta;

	if (data < vm->pktbuf + XDP_FRAME_HDR + metalen || data > vm->data_end - ETH_HLEN) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	if (metalen)
		memmove(vm->data_meta + delta, vm->data_meta, metalen);
	vm->data_meta += delta;
	vm->data = data;
	vm_pkt_update(vm);
	r[0] = 0;
	return 0;
}

static int h_xdp_adjust_meta(struct bg_vm *vm, uint64_t *r)
{
	uint8_t *meta = vm->data_meta + (int32_t)r[2];
	size_t metalen = (size_t)(vm->data - meta);

	if (meta < vm->pktbuf + XDP_FRAME_HDR || meta > vm->data) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	if (metalen > XDP_META_MAX || (metalen & 3)) {
		r[0] = (uint64_t)(metalen & 3 ? -EINVAL : -EACCES);
		return 0;
	}
	vm->data_meta = meta;
	vm_pkt_update(vm);
	r[0] = 0;
	return 0;
}

static int h_xdp_adjust_tail(struct bg_vm *vm, uint64_t *r)
{
	int64_t delta = (int32_t)r[2];
	uint8_t *end = vm->data_end + delta;

	if (end > vm->pktbuf + vm->pktbuf_size - XDP_SHINFO || end < vm->data + ETH_HLEN) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	if (delta > 0)
		memset(vm->data_end, 0, (size_t)delta);
	vm->data_end = end;
	vm_pkt_update(vm);
	r[0] = 0;
	return 0;
}

static int h_skb_load_bytes(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t off = (uint32_t)r[2], len = (uint32_t)r[4];
	uint8_t *to = vm_ptr(vm, r[3], len, true);
	size_t plen = (size_t)(vm->data_end - vm->data);

	if (!to)
		return bad_arg(vm, id, "destination is not writable memory");
	if ((uint64_t)off + len > plen) {
		memset(to, 0, len);
		r[0] = (uint64_t)-EFAULT;
		return 0;
	}
	memcpy(to, vm->data + off, len);
	r[0] = 0;
	return 0;
}

static int h_skb_store_bytes(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t off = (uint32_t)r[2], len = (uint32_t)r[4];
	const uint8_t *from = vm_ptr(vm, r[3], len, false);
	size_t plen = (size_t)(vm->data_end - vm->data);

	if (!from)
		return bad_arg(vm, id, "source is not readable memory");
	if (r[5] & ~(uint64_t)(BPF_F_RECOMPUTE_CSUM | BPF_F_INVALIDATE_HASH) ||
	    (uint64_t)off + len > plen) {
		r[0] = (uint64_t)(r[5] & ~3ull ? -EINVAL : -EFAULT);
		return 0;
	}
	memmove(vm->data + off, from, len);
	r[0] = 0;
	return 0;
}

/* 32-bit ones' complement sum of 4-byte words, as the kernel's csum_partial
 * returns it on x86-64 (words read little-endian, carries folded in). */
static uint32_t csum_words(const uint8_t *p, size_t n, uint64_t sum)
{
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		uint32_t w;

		memcpy(&w, p + i, 4);
		sum += w;
	}
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	return (uint32_t)sum;
}

static uint16_t csum_fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static int h_csum_diff(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t fsz = (uint32_t)r[2], tsz = (uint32_t)r[4];
	const uint8_t *from = vm_ptr(vm, r[1], fsz, false);
	const uint8_t *to = vm_ptr(vm, r[3], tsz, false);
	uint64_t sum = (uint32_t)r[5];
	size_t i;

	if ((fsz && !from) || (tsz && !to))
		return bad_arg(vm, id, "buffer is not readable memory");
	if ((fsz | tsz) & 3 || fsz > 512 || tsz > 512) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	for (i = 0; i < fsz; i += 4) {
		uint32_t w;

		memcpy(&w, from + i, 4);
		sum += (uint32_t)~w;
	}
	/* the running kernel (6.18) returns the sum folded to 16 bits, not
	 * complemented, on every architecture */
	{
		uint32_t c = csum_words(to, tsz, sum);

		c = (c & 0xffff) + (c >> 16);
		c = (c & 0xffff) + (c >> 16);
		r[0] = c;
	}
	return 0;
}

/* Replace `from` by `to` (2 or 4 bytes, or a precomputed diff when size is
 * 0) in the 16-bit checksum at packet offset off. */
static int csum_replace(struct bg_vm *vm, uint64_t *r, bool l4)
{
	uint32_t off = (uint32_t)r[2];
	uint64_t flags = r[5];
	uint32_t sz = flags & BPF_F_HDR_FIELD_MASK;
	size_t plen = (size_t)(vm->data_end - vm->data);
	uint16_t cs;
	uint32_t sum;
	bool mmzero = l4 && (flags & BPF_F_MARK_MANGLED_0);

	if ((uint64_t)off + 2 > plen || (sz != 0 && sz != 2 && sz != 4)) {
		r[0] = (uint64_t)(sz != 0 && sz != 2 && sz != 4 ? -EINVAL : -EFAULT);
		return 0;
	}
	memcpy(&cs, vm->data + off, 2);
	if (mmzero && !cs) {
		r[0] = 0;
		return 0;
	}
	sum = (uint16_t)~cs;
	if (sz == 0) {
		sum = csum_words((const uint8_t *)&(uint32_t){ (uint32_t)r[4] }, 4, sum);
	} else if (sz == 2) {
		sum += (uint16_t)~(uint16_t)r[3];
		sum += (uint16_t)r[4];
	} else {
		uint32_t f = ~(uint32_t)r[3], t = (uint32_t)r[4];

		sum += (f & 0xffff) + (f >> 16) + (t & 0xffff) + (t >> 16);
	}
	cs = csum_fold(sum);
	if (mmzero && !cs)
		cs = 0xffff;
	memcpy(vm->data + off, &cs, 2);
	r[0] = 0;
	return 0;
}


/* ---------- more skb helpers ---------- */

/* Insert (n > 0, zeroed) or remove (n < 0) bytes at packet offset off. */
static int pkt_resize_at(struct bg_vm *vm, size_t off, long n)
{
	size_t len = (size_t)(vm->data_end - vm->data);

	if (off > len || (n < 0 && (size_t)-n > len - off))
		return -EINVAL;
	if (n > 0 && vm->data_end + n > vm->pktbuf + vm->pktbuf_size)
		return -ENOMEM;
	memmove(vm->data + off + n, vm->data + off, len - off);
	if (n > 0)
		memset(vm->data + off, 0, (size_t)n);
	vm->data_end += n;
	vm_pkt_update(vm);
	return 0;
}

static int h_skb_change_tail(struct bg_vm *vm, uint64_t *r)
{
	size_t len = (size_t)(vm->data_end - vm->data);
	uint64_t nl = (uint32_t)r[2];

	if (r[3] || nl < ETH_HLEN || nl > VM_PKT_MAX) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	r[0] = (uint64_t)(int64_t)pkt_resize_at(vm, len > nl ? nl : len, (long)nl - (long)len);
	return 0;
}

static int h_skb_adjust_room(struct bg_vm *vm, uint64_t *r)
{
	int32_t diff = (int32_t)r[2];
	uint32_t mode = (uint32_t)r[3];
	size_t off = ETH_HLEN;
	const uint8_t *d = vm->data;
	size_t len = (size_t)(vm->data_end - vm->data);

	if (mode == BPF_ADJ_ROOM_NET) { /* between the L3 and L4 headers */
		if (len < ETH_HLEN + 20) {
			r[0] = (uint64_t)-EINVAL;
			return 0;
		}
		if (d[12] == 0x08 && d[13] == 0x00)
			off += (size_t)(d[ETH_HLEN] & 15) * 4;
		else if (d[12] == 0x86 && d[13] == 0xdd)
			off += 40;
		else {
			r[0] = (uint64_t)-524; /* ENOTSUPP */
			return 0;
		}
	} else if (mode != BPF_ADJ_ROOM_MAC) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	r[0] = (uint64_t)(int64_t)pkt_resize_at(vm, off, diff);
	return 0;
}

static int h_vlan(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct __sk_buff *skb = (struct __sk_buff *)vm->ctx;
	uint8_t *d = vm->data;
	size_t len = (size_t)(vm->data_end - vm->data);

	if (id == BPF_FUNC_skb_vlan_push) {
		uint16_t proto = __builtin_bswap16((uint16_t)r[2]);

		if (proto != ETH_P_8021Q && proto != ETH_P_8021AD) {
			r[0] = (uint64_t)-EINVAL;
			return 0;
		}
		if (skb->vlan_present) { /* the offloaded tag moves into the packet */
			uint8_t tag[4] = { (uint8_t)(skb->vlan_proto), (uint8_t)(skb->vlan_proto >> 8),
					   (uint8_t)(skb->vlan_tci >> 8), (uint8_t)skb->vlan_tci };

			if (pkt_resize_at(vm, 12, 4)) {
				r[0] = (uint64_t)-ENOMEM;
				return 0;
			}
			memcpy(vm->data + 12, tag, 4);
		}
		/* the new tag is carried as metadata (hardware-accelerated) */
		skb->vlan_present = 1;
		skb->vlan_proto = (uint32_t)(uint16_t)r[2];
		skb->vlan_tci = (uint16_t)r[3];
		r[0] = 0;
		return 0;
	}
	if (skb->vlan_present) {
		skb->vlan_present = 0;
		skb->vlan_tci = 0;
		skb->vlan_proto = 0;
	} else if (len >= 18 && ((d[12] == 0x81 && d[13] == 0x00) || (d[12] == 0x88 && d[13] == 0xa8))) {
		pkt_resize_at(vm, 12, -4);
	}
	r[0] = 0;
	return 0;
}

static int h_ecn_set_ce(struct bg_vm *vm, uint64_t *r)
{
	uint8_t *d = vm->data;
	size_t len = (size_t)(vm->data_end - vm->data);
	struct __sk_buff *skb = (struct __sk_buff *)vm->ctx;
	size_t l3 = vm->l2_hidden ? 0 : ETH_HLEN;

	r[0] = 0;
	if (skb->protocol == 0x0008 && len >= l3 + 20 && (d[l3] >> 4) == 4) {
		uint8_t *ip = d + l3, ecn = ip[1] & 3;
		uint32_t sum;
		uint16_t old, nw;

		if (ecn == 0 || ecn == 3) {
			r[0] = ecn == 3;
			return 0;
		}
		old = (uint16_t)(ip[0] << 8 | ip[1]);
		ip[1] |= 3;
		nw = (uint16_t)(ip[0] << 8 | ip[1]);
		sum = (uint16_t)~(ip[10] << 8 | ip[11]);
		sum += (uint16_t)~old;
		sum += nw;
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (uint16_t)~sum;
		ip[10] = (uint8_t)(sum >> 8);
		ip[11] = (uint8_t)sum;
		r[0] = 1;
	} else if (skb->protocol == 0xdd86 && len >= l3 + 40 && (d[l3] >> 4) == 6) {
		uint8_t *ip = d + l3;
		uint8_t ecn = (uint8_t)((ip[1] >> 4) & 3);

		if (ecn == 0 || ecn == 3) {
			r[0] = ecn == 3;
			return 0;
		}
		ip[1] |= 0x30;
		r[0] = 1;
	}
	return 0;
}

/* ---------- map iteration ---------- */

static int h_for_each(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	const struct vm_image *img = &vm->images[vm->cur];
	uint64_t base = (uint64_t)img->code, n = 0, ret;
	uint8_t *key, *next;
	int32_t target;
	int err, more;

	if (!m)
		return -EFAULT;
	if (r[2] < base || r[2] >= base + img->n * sizeof(struct vinsn) ||
	    (r[2] - base) % sizeof(struct vinsn))
		return bad_arg(vm, id, "callback is not a function of the program");
	if (r[4] || !(m->array || m->buckets)) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	target = (int32_t)((r[2] - base) / sizeof(struct vinsn));
	key = calloc(1, m->key_size + 8);
	next = calloc(1, m->key_size + 8);
	if (!key || !next) {
		free(key);
		free(next);
		return bad_arg(vm, id, "out of memory");
	}
	vm_graveyard(vm, key);
	vm_graveyard(vm, next);
	if (vm_add_region(vm, (uint64_t)key, (uint64_t)key + m->key_size, VM_R_SCRATCH, false,
			  vm_map_index(vm, m)) < 0)
		return bad_arg(vm, id, "out of memory");
	more = vm_map_next_key(vm, m, NULL, next) == 0;
	while (more) {
		uint64_t args[5];
		uint8_t *v;

		memcpy(key, next, m->key_size);
		more = vm_map_next_key(vm, m, key, next) == 0;
		v = vm_map_lookup(vm, m, key);
		if (!v)
			continue;
		args[0] = (uint64_t)m;
		args[1] = (uint64_t)key;
		args[2] = (uint64_t)v;
		args[3] = r[3];
		args[4] = 0;
		err = vm_call_callback(vm, target, args, &ret);
		if (err)
			return err;
		n++;
		if (vm->stop || ret)
			break;
	}
	r[0] = n;
	return 0;
}

static int h_snprintf(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint64_t args[12] = { 0 };
	uint32_t size = (uint32_t)r[2], dlen = (uint32_t)r[5];
	char *out = vm_ptr(vm, r[1], size, true), buf[1024];
	const char *fmt;
	const void *data;
	size_t n;

	if (!out && size)
		return bad_arg(vm, id, "output is not writable memory");
	if (dlen % 8 || dlen > sizeof(args))
		return bad_arg(vm, id, "data_len must be a multiple of 8, at most 96");
	data = vm_ptr(vm, r[4], dlen, false);
	fmt = vm_ptr(vm, r[3], 1, false);
	if ((dlen && !data) || !fmt)
		return bad_arg(vm, id, "format or data is not readable memory");
	if (dlen)
		memcpy(args, data, dlen);
	{ /* the format lives in a read-only map value: bound it by its region */
		size_t flen = 0;

		while (flen < 1023 && probe_src(vm, r[3] + flen, 1) && fmt[flen])
			flen++;
		render_printk(vm, fmt, flen, args, (int)(dlen / 8), buf, sizeof(buf));
	}
	n = strlen(buf);
	if (size) {
		size_t c = n < size - 1 ? n : size - 1;

		memcpy(out, buf, c);
		out[c] = 0;
	}
	r[0] = n + 1;
	return 0;
}

/* ---------- control ---------- */

static int h_redirect(struct bg_vm *vm, uint64_t *r)
{
	vm->redirected = true;
	vm->redirect_target = (uint32_t)r[1];
	vm->redirect_flags = r[2];
	if (vm->prog_type == BPF_PROG_TYPE_XDP)
		r[0] = r[2] ? 0 /* XDP_ABORTED */ : 4 /* XDP_REDIRECT */;
	else
		r[0] = r[2] & ~(uint64_t)(BPF_F_INGRESS) ? 2 /* TC_ACT_SHOT */ : 7 /* TC_ACT_REDIRECT */;
	return 0;
}

static int h_redirect_map(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[1], id);
	uint32_t key = (uint32_t)r[2], v = 0;

	if (!m)
		return -EFAULT;
	if (vm_map_is_array(m) && m->array && key < m->max_entries)
		memcpy(&v, m->array + (size_t)key * m->vsz, sizeof(v));
	if (!v) {
		r[0] = r[3] & 3; /* the lower flag bits are the fallback action */
		return 0;
	}
	vm->redirected = true;
	vm->redirect_target = key;
	vm->redirect_flags = r[3];
	r[0] = 4; /* XDP_REDIRECT */
	return 0;
}

/* bpf_sk_redirect_map/_hash (sk_skb), bpf_msg_redirect_map/_hash (sk_msg).
 * The interpreter has no sockets, so a sockmap/sockhash lookup never finds
 * one: the kernel then returns SK_DROP (0), as it does for flags other than
 * BPF_F_INGRESS; nothing is redirected. The hash variants still read the key. */
static int h_sk_redirect(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[2], id);
	bool hash = id == BPF_FUNC_sk_redirect_hash || id == BPF_FUNC_msg_redirect_hash;

	if (!m)
		return -EFAULT;
	if (m->type != (hash ? BPF_MAP_TYPE_SOCKHASH : BPF_MAP_TYPE_SOCKMAP))
		return bad_arg(vm, id, hash ? "map is not a sockhash" : "map is not a sockmap");
	if (hash && !vm_ptr(vm, r[3], m->key_size, false))
		return bad_arg(vm, id, "key is not readable memory");
	r[0] = 0; /* SK_DROP: no socket at that key (or flags beyond BPF_F_INGRESS) */
	return 0;
}

/* bpf_get_stackid / bpf_get_stack: there is no kernel or user stack to walk,
 * which the kernel reports as -EFAULT (get_perf_callchain gave no trace).
 * Flag checks come first as in the kernel: unknown flags -> -EINVAL;
 * get_stack also -EINVAL for BPF_F_USER_BUILD_ID without BPF_F_USER_STACK
 * and for a size not a multiple of the element (8 bytes, or
 * sizeof(struct bpf_stack_build_id) = 32 with a user build id). get_stack
 * zeroes the whole buffer whenever it returns an error. */
static int h_get_stackid(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	struct vm_map *m = map_arg(vm, r[2], id);

	if (!m)
		return -EFAULT;
	if (m->type != BPF_MAP_TYPE_STACK_TRACE)
		return bad_arg(vm, id, "map is not a stack trace map");
	if (r[3] & ~(uint64_t)(BPF_F_SKIP_FIELD_MASK | BPF_F_USER_STACK | BPF_F_FAST_STACK_CMP |
			       BPF_F_REUSE_STACKID))
		r[0] = (uint64_t)-EINVAL;
	else
		r[0] = (uint64_t)-EFAULT;
	return 0;
}

static int h_get_stack(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t size = (uint32_t)r[3];
	uint64_t flags = r[4];
	bool user = flags & BPF_F_USER_STACK, build_id = flags & BPF_F_USER_BUILD_ID;
	uint32_t elem = user && build_id ? 32 : 8;
	uint8_t *buf = size ? vm_ptr(vm, r[2], size, true) : NULL;

	if (size && !buf)
		return bad_arg(vm, id, "buffer is not writable memory");
	if (buf)
		memset(buf, 0, size);
	if ((flags & ~(uint64_t)(BPF_F_SKIP_FIELD_MASK | BPF_F_USER_STACK | BPF_F_USER_BUILD_ID)) ||
	    (!user && build_id) || size % elem)
		r[0] = (uint64_t)-EINVAL;
	else
		r[0] = (uint64_t)-EFAULT;
	return 0;
}

int vm_tail_call(struct bg_vm *vm, uint64_t map_ptr, uint64_t index)
{
	struct vm_map *m = vm_map_from_ptr(vm, map_ptr);
	uint32_t idx = (uint32_t)index, prog;
	int img;

	if (!m || m->type != BPF_MAP_TYPE_PROG_ARRAY)
		return bad_arg(vm, BPF_FUNC_tail_call, "argument 2 is not a prog array");
	if (idx >= m->max_entries || !m->array_set[idx] || vm->tail_calls >= VM_MAX_TAIL_CALLS)
		return 1; /* falls through */
	memcpy(&prog, m->array + (size_t)idx * m->vsz, sizeof(prog));
	img = vm_image_for_prog(vm, prog);
	if (img < 0)
		return 1;
	if (vm->depth != 0)
		return vm_fault(vm, BG_VM_FAULT_HELPER, 0, 0,
				"bpf_tail_call from a subprogram or callback is not supported");
	vm->tail_calls++;
	vm->cur = img;
	vm->cur_changed = true;
	vm_shadow_new_gen(vm); /* the new program starts with an uninitialized stack */
	return 0;
}

static int h_loop(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	const struct vm_image *img = &vm->images[vm->cur];
	uint64_t base = (uint64_t)img->code, nr = (uint32_t)r[1], i, ret;
	uint64_t args[5] = { 0, r[3], 0, 0, 0 };
	int32_t target;
	int err;

	if (r[4]) {
		r[0] = (uint64_t)-EINVAL;
		return 0;
	}
	if (nr > (1u << 23)) {
		r[0] = (uint64_t)-E2BIG;
		return 0;
	}
	if (r[2] < base || r[2] >= base + img->n * sizeof(struct vinsn) ||
	    (r[2] - base) % sizeof(struct vinsn))
		return bad_arg(vm, id, "callback is not a function of the program");
	target = (int32_t)((r[2] - base) / sizeof(struct vinsn));
	for (i = 0; i < nr; i++) {
		args[0] = i;
		err = vm_call_callback(vm, target, args, &ret);
		if (err)
			return err;
		if (vm->stop)
			return 0;
		if (ret) {
			i++;
			break;
		}
	}
	r[0] = i;
	return 0;
}

static int h_comm(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t n = (uint32_t)r[2];
	char *buf = vm_ptr(vm, r[1], n, true);

	if (!buf && n)
		return bad_arg(vm, id, "buffer is not writable memory");
	if (n) {
		memset(buf, 0, n);
		strncpy(buf, vm->opts.comm, n - 1);
	}
	r[0] = 0;
	return 0;
}

static uint64_t prandom(struct bg_vm *vm)
{
	uint64_t x = vm->prandom;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	vm->prandom = x;
	return (x * 0x2545f4914f6cdd1dull) >> 32;
}

/* bpf_get_hash_recalc: the kernel's flow dissector hashes the flow keys
 * with a per-boot random seed, so no value can match it; the interpreter
 * hashes the same fields (protocol, addresses, ports, in a direction-
 * independent order as the kernel does) with a fixed seed, stores the hash
 * in __sk_buff.hash as skb_get_hash() does, and never returns 0. */
static uint32_t flow_hash(const struct bg_vm *vm)
{
	const uint8_t *d = vm->data, *e = vm->data_end, *l4 = NULL;
	uint8_t a[16] = { 0 }, b[16] = { 0 }, proto = 0;
	size_t alen = 0, i;
	uint16_t eth;
	uint32_t h = 2166136261u;

	if (!d || e - d < 14)
		return 0;
	eth = (uint16_t)(d[12] << 8 | d[13]);
	if (eth == 0x0800 && e - d >= 34 && (d[14] >> 4) == 4) {
		proto = d[23];
		alen = 4;
		memcpy(a, d + 26, 4);
		memcpy(b, d + 30, 4);
		l4 = d + 14 + (size_t)(d[14] & 15) * 4;
	} else if (eth == 0x86dd && e - d >= 54) {
		proto = d[20];
		alen = 16;
		memcpy(a, d + 22, 16);
		memcpy(b, d + 38, 16);
		l4 = d + 54;
	} else {
		return 0;
	}
	if (memcmp(a, b, alen) > 0) { /* both directions of a flow hash alike */
		uint8_t t[16];

		memcpy(t, a, alen);
		memcpy(a, b, alen);
		memcpy(b, t, alen);
	}
	h = (h ^ proto) * 16777619u;
	for (i = 0; i < alen; i++)
		h = (h ^ a[i]) * 16777619u;
	for (i = 0; i < alen; i++)
		h = (h ^ b[i]) * 16777619u;
	if ((proto == 6 || proto == 17) && l4 && l4 + 4 <= e) {
		uint16_t p1 = (uint16_t)(l4[0] << 8 | l4[1]), p2 = (uint16_t)(l4[2] << 8 | l4[3]);
		uint16_t lo = p1 < p2 ? p1 : p2, hi = p1 < p2 ? p2 : p1;

		h = (h ^ lo) * 16777619u;
		h = (h ^ hi) * 16777619u;
	}
	return h ? h : 1;
}

static int h_hash_recalc(struct bg_vm *vm, uint64_t *r)
{
	uint32_t h;

	if (vm->prog_type == BPF_PROG_TYPE_XDP || !vm->ctx)
		return vm_fault(vm, BG_VM_FAULT_HELPER, 0, 0,
				"helper bpf_get_hash_recalc needs an skb context");
	h = flow_hash(vm);
	((struct __sk_buff *)vm->ctx)->hash = h;
	r[0] = h;
	return 0;
}

/* bpf_fib_lookup: the host's routing tables are not modelled. The result is
 * what the kernel answers before it consults a route: -EINVAL for a short
 * parameter block or an unknown family, BPF_FIB_LKUP_RET_FWD_DISABLED when
 * forwarding is off on the named device (this host's sysctl), else
 * BPF_FIB_LKUP_RET_NOT_FWDED (no route). */
static int h_fib_lookup(struct bg_vm *vm, uint64_t *r, uint32_t id)
{
	uint32_t plen = (uint32_t)r[3];
	struct bpf_fib_lookup *fp = vm_ptr(vm, r[2], plen, true);
	char ifn[IF_NAMESIZE], path[128];
	FILE *f;
	int fwd = 0;

	if (plen < sizeof(*fp))
		return bad_arg(vm, id, "params size is smaller than struct bpf_fib_lookup");
	if (!fp)
		return bad_arg(vm, id, "params is not writable memory");
	if (fp->family != 2 && fp->family != 10) {
		r[0] = (uint64_t)-EAFNOSUPPORT;
		return 0;
	}
	if (!if_indextoname(fp->ifindex, ifn)) {
		r[0] = (uint64_t)-ENODEV;
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/sys/net/ipv%c/conf/%s/forwarding",
		 fp->family == 2 ? '4' : '6', ifn);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &fwd) != 1)
			fwd = 0;
		fclose(f);
	}
	r[0] = fwd ? BPF_FIB_LKUP_RET_NOT_FWDED : BPF_FIB_LKUP_RET_FWD_DISABLED;
	return 0;
}

/* 1: XDP-only helper, 2: skb helper, 0: neither. */
static int packet_helper(uint32_t id)
{
	switch (id) {
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
		return 1;
	case BPF_FUNC_skb_load_bytes:
	case BPF_FUNC_skb_store_bytes:
	case BPF_FUNC_l3_csum_replace:
	case BPF_FUNC_l4_csum_replace:
	case BPF_FUNC_skb_change_tail:
	case BPF_FUNC_skb_adjust_room:
	case BPF_FUNC_skb_vlan_push:
	case BPF_FUNC_skb_vlan_pop:
	case BPF_FUNC_skb_ecn_set_ce:
	case BPF_FUNC_skb_pull_data:
		return 2;
	default:
		return 0;
	}
}

static bool packet_helper_ok(const struct bg_vm *vm, uint32_t id)
{
	bool xdp = vm->prog_type == BPF_PROG_TYPE_XDP;

	if (!vm->has_pkt || !vm->data || !vm->ctx)
		return false;
	return packet_helper(id) == 1 ? xdp : !xdp;
}

int vm_helper(struct bg_vm *vm, uint32_t id, uint64_t *r)
{
	int err = 0;

	if (id == BPF_FUNC_map_lookup_elem) /* the most frequent: no further checks */
		return h_map_lookup(vm, r, id);
	if (!vm->obj && vm->prog_type == 0 && id == 5) { /* conformance "unwind" */
		r[0] = r[1];
		if (!r[1]) {
			vm->stop = true;
			vm->stop_r0 = 0;
		}
		return 0;
	}
	if (packet_helper(id) && !packet_helper_ok(vm, id))
		return vm_fault(vm, BG_VM_FAULT_HELPER, 0, 0,
				"helper %s (id %u) is not available to this program type",
				helper_name(id), id);
	switch (id) {
	case BPF_FUNC_map_lookup_elem: err = h_map_lookup(vm, r, id); break;
	case BPF_FUNC_map_update_elem: err = h_map_update(vm, r, id); break;
	case BPF_FUNC_map_delete_elem: err = h_map_delete(vm, r, id); break;
	case BPF_FUNC_map_push_elem:
	case BPF_FUNC_map_pop_elem:
	case BPF_FUNC_map_peek_elem: err = h_queue(vm, r, id); break;
	case BPF_FUNC_probe_read:
	case BPF_FUNC_probe_read_user:
	case BPF_FUNC_probe_read_kernel: err = h_probe_read(vm, r, id); break;
	case BPF_FUNC_probe_read_str:
	case BPF_FUNC_probe_read_user_str:
	case BPF_FUNC_probe_read_kernel_str: err = h_probe_read_str(vm, r, id); break;
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_ktime_get_tai_ns:
		r[0] = vm->ktime;
		vm->ktime += vm->opts.ktime_step;
		break;
	case BPF_FUNC_jiffies64: r[0] = vm->ktime / 4000000; break;
	case BPF_FUNC_trace_printk: err = h_trace_printk(vm, r, id); break;
	case BPF_FUNC_trace_vprintk: err = h_trace_vprintk(vm, r, id); break;
	case BPF_FUNC_get_prandom_u32: r[0] = prandom(vm); break;
	case BPF_FUNC_get_smp_processor_id: r[0] = vm->opts.cpu; break;
	case BPF_FUNC_get_numa_node_id: r[0] = 0; break;
	case BPF_FUNC_get_current_pid_tgid: r[0] = vm->opts.pid_tgid; break;
	case BPF_FUNC_get_current_uid_gid: r[0] = 0; break;
	case BPF_FUNC_get_current_task:
	case BPF_FUNC_get_current_task_btf: /* the same task; loads through it still need memory */
		/* an address for bpf_probe_read_kernel: reads fail (zeros, -EFAULT)
		 * unless memory was supplied there (bg_vm__add_mem / --mem) */
		r[0] = VM_FAKE_TASK;
		break;
	case BPF_FUNC_get_current_comm: err = h_comm(vm, r, id); break;
	case BPF_FUNC_perf_event_output: err = h_perf_output(vm, r, id); break;
	case BPF_FUNC_ringbuf_output: err = h_ringbuf_output(vm, r, id); break;
	case BPF_FUNC_ringbuf_reserve: err = h_ringbuf_reserve(vm, r, id); break;
	case BPF_FUNC_ringbuf_submit:
	case BPF_FUNC_ringbuf_discard: err = h_ringbuf_commit(vm, r, id); break;
	case BPF_FUNC_xdp_adjust_head: err = h_xdp_adjust_head(vm, r); break;
	case BPF_FUNC_xdp_adjust_meta: err = h_xdp_adjust_meta(vm, r); break;
	case BPF_FUNC_xdp_adjust_tail: err = h_xdp_adjust_tail(vm, r); break;
	case BPF_FUNC_skb_load_bytes: err = h_skb_load_bytes(vm, r, id); break;
	case BPF_FUNC_skb_store_bytes: err = h_skb_store_bytes(vm, r, id); break;
	case BPF_FUNC_l3_csum_replace: err = csum_replace(vm, r, false); break;
	case BPF_FUNC_l4_csum_replace: err = csum_replace(vm, r, true); break;
	case BPF_FUNC_csum_diff: err = h_csum_diff(vm, r, id); break;
	case BPF_FUNC_redirect: err = h_redirect(vm, r); break;
	case BPF_FUNC_redirect_map: err = h_redirect_map(vm, r, id); break;
	case BPF_FUNC_sk_redirect_map:
	case BPF_FUNC_sk_redirect_hash:
	case BPF_FUNC_msg_redirect_map:
	case BPF_FUNC_msg_redirect_hash: err = h_sk_redirect(vm, r, id); break;
	case BPF_FUNC_msg_apply_bytes:
	case BPF_FUNC_msg_cork_bytes: r[0] = 0; break; /* the kernel only records the count */
	case BPF_FUNC_msg_pull_data:
		/* the interpreter's sk_msg carries no message bytes: the kernel's
		 * answer for a start at or past the end (and for flags != 0 or
		 * end <= start) is -EINVAL */
		r[0] = (uint64_t)-EINVAL;
		break;
	case BPF_FUNC_get_stackid: err = h_get_stackid(vm, r, id); break;
	case BPF_FUNC_get_stack: err = h_get_stack(vm, r, id); break;
	case BPF_FUNC_get_attach_cookie: r[0] = vm->opts.attach_cookie; break;
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
		if (!vm_ptr(vm, r[1], 4, true))
			return bad_arg(vm, id, "lock is not writable memory");
		r[0] = 0;
		break;
	case BPF_FUNC_loop: err = h_loop(vm, r, id); break;
	case BPF_FUNC_for_each_map_elem: err = h_for_each(vm, r, id); break;
	case BPF_FUNC_snprintf: err = h_snprintf(vm, r, id); break;
	case BPF_FUNC_skb_change_tail: err = h_skb_change_tail(vm, r); break;
	case BPF_FUNC_skb_adjust_room: err = h_skb_adjust_room(vm, r); break;
	case BPF_FUNC_skb_vlan_push:
	case BPF_FUNC_skb_vlan_pop: err = h_vlan(vm, r, id); break;
	case BPF_FUNC_skb_ecn_set_ce: err = h_ecn_set_ce(vm, r); break;
	case BPF_FUNC_get_hash_recalc: err = h_hash_recalc(vm, r); break;
	case BPF_FUNC_get_cgroup_classid:
		/* net_cls is a cgroup-v1 controller: classid 0 outside one */
		r[0] = 0;
		break;
	case BPF_FUNC_fib_lookup: err = h_fib_lookup(vm, r, id); break;
	case BPF_FUNC_skb_pull_data:
		r[0] = (uint32_t)r[2] <= (size_t)(vm->data_end - vm->data) ? 0 : (uint64_t)-ENOMEM;
		break;
	case BPF_FUNC_clone_redirect: {
		char ifn[IF_NAMESIZE];

		/* the kernel clones onto a real device of this host when it exists */
		r[0] = (r[3] & ~(uint64_t)BPF_F_INGRESS) ? (uint64_t)-EINVAL
		       : if_indextoname((unsigned)(uint32_t)r[2], ifn) ? 0 : (uint64_t)-EINVAL;
		break;
	}
	case BPF_FUNC_redirect_neigh:
	case BPF_FUNC_redirect_peer:
		vm->redirected = true;
		vm->redirect_target = (uint32_t)r[1];
		r[0] = 7; /* TC_ACT_REDIRECT */
		break;
	case BPF_FUNC_sk_lookup_tcp:
	case BPF_FUNC_sk_lookup_udp:
	case BPF_FUNC_skc_lookup_tcp:
		r[0] = 0; /* no sockets in the interpreter */
		break;
	case BPF_FUNC_sk_release:
	case BPF_FUNC_skb_cgroup_id:
	case BPF_FUNC_get_current_cgroup_id:
	case BPF_FUNC_timer_init:
	case BPF_FUNC_timer_set_callback:
	case BPF_FUNC_timer_start:
	case BPF_FUNC_timer_cancel:
		r[0] = 0; /* timers never fire here */
		break;
	case BPF_FUNC_copy_from_user: {
		uint64_t a[6] = { 0, r[1], r[2], r[3], 0, 0 };

		err = h_probe_read(vm, a, id);
		r[0] = a[0];
		break;
	}
	case BPF_FUNC_tail_call:
		err = vm_tail_call(vm, r[2], r[3]);
		if (err > 0) {
			r[0] = (uint64_t)-ENOENT;
			err = 0;
		}
		break;
	default:
		return vm_fault(vm, BG_VM_FAULT_HELPER, 0, 0, "helper %s (id %u) is not implemented",
				helper_name(id), id);
	}
	/* helpers clobber r1-r5; leave them as they are (the verifier forbids reads) */
	return err;
}

/* ---------- kfuncs ---------- */

static const struct {
	const char *name;
	uint8_t code;
} kfuncs[] = {
	{ "bpf_iter_num_new", VM_KF_ITER_NUM_NEW },
	{ "bpf_iter_num_next", VM_KF_ITER_NUM_NEXT },
	{ "bpf_iter_num_destroy", VM_KF_ITER_NUM_DESTROY },
};

const char *vm_kfunc_name(const struct bg_vm *vm, uint32_t btf_id)
{
	const struct btf *b = vm->obj ? bg_object__target_btf(vm->obj) : NULL;
	const struct btf_type *t = b && btf_id ? btf__type_by_id(b, btf_id) : NULL;

	return t && btf_is_func(t) ? btf__name_by_offset(b, t->name_off) : NULL;
}

uint8_t vm_kfunc_code(const struct bg_vm *vm, uint32_t btf_id)
{
	const char *name = vm_kfunc_name(vm, btf_id);
	size_t i;

	for (i = 0; name && i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++)
		if (!strcmp(name, kfuncs[i].name))
			return kfuncs[i].code;
	return VM_KF_NONE;
}

/* The numeric open-coded iterator (bpf_for): an 8-byte stack object holding
 * the current value and the end, as the kernel's struct bpf_iter_num_kern.
 * new() checks the range (start <= end, at most VM_MAX_LOOPS values) and
 * leaves cur = start - 1; next() returns a pointer to cur after incrementing
 * it, or NULL (and zeroes the object) once cur + 1 reaches end; destroy()
 * zeroes it. A failed new() also zeroes it, so next() returns NULL. */
struct vm_iter_num {
	int32_t cur, end;
};

static int kf_iter_num(struct bg_vm *vm, uint8_t kf, uint64_t *r)
{
	struct vm_iter_num it;
	void *p;

	if (kf == VM_KF_ITER_NUM_NEW)
		p = vm_ptr(vm, r[1], sizeof(it), true);
	else
		p = vm_ptr_read_init(vm, r[1], sizeof(it));
	if (!p)
		return vm->faulted ? -EFAULT
				   : vm_fault(vm, BG_VM_FAULT_KFUNC, r[1], sizeof(it),
					      "bpf_iter_num: iterator at 0x%llx is not writable memory",
					      (unsigned long long)r[1]);
	memcpy(&it, p, sizeof(it));
	switch (kf) {
	case VM_KF_ITER_NUM_NEW: {
		int32_t start = (int32_t)r[2], end = (int32_t)r[3];

		if (start > end || (int64_t)end - start > VM_MAX_LOOPS) {
			it.cur = it.end = 0;
			r[0] = (uint64_t)(int64_t)(start > end ? -EINVAL : -E2BIG);
		} else {
			it.cur = (int32_t)((uint32_t)start - 1);
			it.end = end;
			r[0] = 0;
		}
		break;
	}
	case VM_KF_ITER_NUM_NEXT:
		if ((int64_t)(int32_t)((uint32_t)it.cur + 1) >= it.end) {
			it.cur = it.end = 0;
			r[0] = 0;
		} else {
			it.cur++;
			r[0] = (uint64_t)p; /* &cur: the first 4 bytes */
		}
		break;
	default:
		it.cur = it.end = 0;
		break;
	}
	memcpy(p, &it, sizeof(it));
	return 0;
}

int vm_kfunc(struct bg_vm *vm, const struct vinsn *ip, uint64_t *r)
{
	const char *name;

	switch (ip->kf) {
	case VM_KF_ITER_NUM_NEW:
	case VM_KF_ITER_NUM_NEXT:
	case VM_KF_ITER_NUM_DESTROY:
		return kf_iter_num(vm, ip->kf, r);
	default:
		name = vm_kfunc_name(vm, ip->aux);
		return vm_fault(vm, BG_VM_FAULT_KFUNC, 0, 0,
				"call of kfunc %s (btf id %u) is not supported", name ? name : "?",
				ip->aux);
	}
}
