/* BTF-typed pointers for tracing programs (see btfarg.c). */
#ifndef BG_ANALYSIS_BTFARG_H
#define BG_ANALYSIS_BTFARG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
struct bg_program;
/* Type of the ctx argument at byte offset off: *is_ptr and the pointed
 * struct name (NULL for a non-struct pointer). False when unknown. */
bool btf_ctx_arg(const struct bg_program *prog, int off, const char **name, bool *is_ptr);
/* The return of the attach target's prototype (LSM hooks: their bpf_lsm_
 * stub): 0 void, 1 an integer, -1 unknown (no target BTF, not found).
 * *nargs gets the number of arguments (the ctx slot of the return value). */
int btf_target_ret(const struct bg_program *prog, int *nargs);
/* btf_struct_walk's refusals of an access of size bytes at off of struct
 * sname: 1 a scalar member read past its end, 2 a pointer member read
 * partially (why gets the kernel's message); 0 none or not known. */
int btf_field_check(const struct bg_program *prog, const char *sname, int off, int size, char *why,
		    size_t n);
/* Type of the field of struct sname loaded at off with size bytes. */
bool btf_field_load(const struct bg_program *prog, const char *sname, int off, int size,
		    const char **name, bool *is_ptr);
/* The name of the pointer member of struct sname read whole (8 bytes) at
 * off (inside embedded structs and unions), NULL when not known. */
const char *btf_field_name(const struct bg_program *prog, const char *sname, int off);
/* Which of the kernel's allow-lists (read from the target BTF's
 * "<sname>__safe_*" structs) names the pointer member loaded at off of
 * struct sname: BTF_SAFE_NONE when none or not known. */
enum { BTF_SAFE_NONE = 0, BTF_SAFE_TRUSTED, BTF_SAFE_TRUSTED_OR_NULL, BTF_SAFE_RCU, BTF_SAFE_RCU_OR_NULL };
int btf_field_safety(const struct bg_program *prog, const char *sname, int off);
/* btf_struct_ids_match (kernel/bpf/btf.c) by name in the target BTF: is an
 * object of struct `have` a struct `want`, itself or (unless strict) through
 * the struct its first member is, recursively (struct bpf_cpumask starts with
 * a struct cpumask)? 1 yes, 0 no, -1 a name not in the target BTF. */
int btf_struct_match(const struct bg_program *prog, const char *have, const char *want, bool strict);
/* btf_type_ids_nocast_alias: is one name the other's with "___init"
 * (nf_conn, nf_conn___init)? The kernel then matches the two strictly. */
bool btf_nocast_alias(const char *a, const char *b);
/* The kinds of kptr field (the kernel's BPF_KPTR_REF, _UNREF, _PERCPU, and
 * BPF_UPTR: a task storage value's pointer to pinned user memory) */
enum { BTF_KPTR_NONE = 0, BTF_KPTR_REF, BTF_KPTR_UNTRUSTED, BTF_KPTR_PERCPU, BTF_KPTR_UPTR };
struct btf_kptr_field {
	int off, kind;
	const char *name; /* the struct it points to */
	uint32_t size;    /* that struct's size */
};
/* The kptr fields of a map value type (the kernel's btf_record entries of
 * the kptr kinds), in out (at most max): their count; 0 when there are none
 * or more than the kernel records (then none is a kptr). */
int btf_map_kptr_fields(const struct bg_program *prog, uint32_t value_type_id, struct btf_kptr_field *out, int max,
			uint32_t kver);
/* The kind (BTF_KPTR_*) of the kptr field at off, its struct in *name.
 * Fields are of a value type (object BTF; struct, array, DATASEC of globals,
 * nested) as kernel kver (0: the newest) reads their type tags
 * (platform/kptr_tags.def). */
int btf_map_kptr_kind(const struct bg_program *prog, uint32_t value_type_id, int off, const char **name,
		      uint32_t kver);
/* Is off any kptr field (percpu ones too)? 1 yes, 0 no, -1 no BTF to say. */
int btf_map_is_kptr(const struct bg_program *prog, uint32_t value_type_id, int off, uint32_t kver);
/* A global function's argument as the kernel's btf_prepare_func_args types
 * it from the BTF prototype and the `arg:` decl tags: GP_SCALAR (int, enum),
 * GP_CTX (arg:ctx, or a pointer to the program type's ctx struct), GP_DYNPTR
 * (struct bpf_dynptr *), GP_BTF (arg:trusted: a trusted kernel object,
 * `name` its struct without a ___flavour), GP_ARENA (arg:arena), GP_MEM
 * (any other pointer: `size` bytes of memory, NULL allowed unless
 * arg:nonnull), GP_UNTRUSTED (arg:untrusted: any value from the caller, an
 * untrusted pointer to the kernel struct `name` in the function, or
 * read-only untrusted memory when the pointee is void or primitive: `name`
 * NULL). */
enum { GP_SCALAR = 0, GP_MEM, GP_CTX, GP_DYNPTR, GP_BTF, GP_ARENA, GP_UNTRUSTED };
struct gparam {
	int kind;
	bool nullable;       /* GP_MEM, GP_BTF: may be NULL */
	bool unsized;        /* GP_MEM: `void *` typed without tags (before 6.8): refused */
	uint32_t size;       /* pointee size (GP_MEM) */
	const char *name;    /* pointee struct name or NULL */
};
/* Parameters of the global function starting at insn (object BTF); `arg:`
 * tags are read only with GP_TAGGED (kernels from 6.8: BG_KF_ARG_TAGS); a void
 * return is refused unless GP_VOID_RET (7.2: BG_KF_VOID_GLOBAL). Returns
 * their number (<= 5), -1 when the BTF is missing, or -2 when the kernel
 * refuses the prototype (*why: its message). Static functions are not typed
 * by their prototype: only call it for a global one. */
#define GP_TAGGED   1u /* read `arg:` tags (6.8: BG_KF_ARG_TAGS) */
#define GP_VOID_RET 2u /* a void return is allowed (7.2: BG_KF_VOID_GLOBAL) */
#define GP_UNTRUSTED_TAG 4u /* `arg:untrusted` known (6.18: BG_KF_ARG_UNTRUSTED) */
int btf_global_params(const struct bg_program *prog, size_t insn, unsigned flags, struct gparam *out,
		      const char **why);
/* btf_global_params' answer for one function, kept by the analysis. */
struct gprot {
	bool known;          /* read already */
	int np;              /* btf_global_params' return value */
	struct gparam gp[5];
	char why[200];       /* np == -2: the kernel's message */
};
/* Does the function starting at insn return a small integer or an enum by
 * its BTF prototype? 1 yes, 0 no, -1 no prototype. */
int btf_func_ret_scalar(const struct bg_program *prog, size_t insn);
/* Does the function starting at insn return void by its BTF prototype? */
bool btf_func_ret_void(const struct bg_program *prog, size_t insn);
/* struct_ops (src/platform/stops.def): the type an argument of BTF struct
 * `name` gets in this program (promotion, else name); may the program write
 * size bytes at off through a trusted pointer to struct ptr? */
const char *btf_stops_promote(const struct bg_program *prog, const char *name);
/* A write of size bytes at off through a trusted `ptr *` by the program's
 * type's access callback (src/platform/btfwrite.def): 1 allowed, 0 refused
 * (*why: the kernel's message), -1 the type has no rule for ptr. */
int btf_prog_writable(const struct bg_program *prog, const char *ptr, int64_t off, int size, char *why, size_t n);
/* Does the struct_ops member the program implements return void? (The kernel
 * then does not read r0 at exit.) */
bool btf_stops_void_ret(const struct bg_program *prog);
/* May the program's struct_ops type write size bytes at off through a
 * trusted `ptr *` on kernel kver (0: any; stops.def STOPS_WRITE with its
 * release)? */
bool btf_stops_writable(const struct bg_program *prog, const char *ptr, int64_t off, int size, uint32_t kver);
/* May the program implement the struct_ops member it is bound to (its
 * attach target "STRUCT:MEMBER"), loaded sleepable or not? False: the
 * kernel refuses "attach to unsupported member" (stops.def). True for
 * programs of other types. */
bool btf_stops_member_ok(const struct bg_program *prog, bool sleepable);
/* Is the argument at ctx offset off of a struct_ops program NULL-able (its
 * parameter in the ops' stub function "STRUCT__MEMBER" ends in __nullable)? */
bool btf_stops_arg_nullable(const struct bg_program *prog, int off);
#endif
