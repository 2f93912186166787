/* Program-local objects (bpf_obj_new, the kernel's MEM_ALLOC) and the graph
 * data structures that hold them (bpf_list_head / bpf_rb_root), read from the
 * object's own BTF (see graph.c). */
#ifndef BG_ANALYSIS_GRAPH_H
#define BG_ANALYSIS_GRAPH_H
#include <stdbool.h>
#include <stdint.h>
struct bg_program;

/* The struct a bpf_obj_new type id (object BTF) names, and its size; NULL
 * when the id is not a struct of the object BTF. */
const char *graph_local_struct(const struct bg_program *prog, uint64_t type_id, uint32_t *size);
/* bpf_percpu_obj_new's rules for its type: a struct of scalars (integers,
 * enums, arrays and structs of them) without special fields, at most
 * GRAPH_PERCPU_MAX_SIZE bytes (the kernel's BPF_GLOBAL_PERCPU_MA_MAX_SIZE).
 * NULL when they hold, else which fails: "size", "scalars", "special". */
#define GRAPH_PERCPU_MAX_SIZE 512
const char *graph_percpu_refused(const struct bg_program *prog, uint64_t type_id);
/* Is struct `name` the program's own (in the object BTF, not the kernel's)?
 * A kptr field of such a type holds a local object. */
bool graph_is_local(const struct bg_program *prog, const char *name);
/* Size of the local struct `name` (0: unknown). */
uint32_t graph_local_size(const struct bg_program *prog, const char *name);
/* The special field (bpf_spin_lock, bpf_list_node, kptr, ...: the kernel's
 * btf_record) of local struct `name` overlapping [off, off+size), as the
 * kernel names it, or NULL when the bytes are plain data. */
const char *graph_special_in(const struct bg_program *prog, const char *name, int64_t off, int size);

/* A field found in an allocation: a map value (value_type_id, object BTF:
 * struct or DATASEC of globals) or a local struct (by name). */
struct graph_field {
	const char *type;     /* its struct name ("bpf_list_head", "bpf_spin_lock", ...) */
	int32_t off;          /* byte offset in the allocation */
	const char *contains; /* graph roots: the `contains:` struct, else NULL */
	int32_t node_off;     /* ...and the offset of its node field in that struct (-1 unknown) */
};
/* The field starting exactly at off (nested structs searched); false when none. */
bool graph_field_at(const struct bg_program *prog, uint32_t value_type_id, const char *sname, int64_t off,
		    struct graph_field *out);
/* Offset of the one field of struct type `tname` in the allocation: -1 when
 * there is none or more than one (the kernel then has no valid one), -2 when
 * there is no BTF to tell. */
int graph_find_field(const struct bg_program *prog, uint32_t value_type_id, const char *sname,
		     const char *tname);
#endif
