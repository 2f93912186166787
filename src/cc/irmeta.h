/* Reading the debug metadata of a textual LLVM IR module (clang -S
 * -emit-llvm): DILocations, DISubprograms and their files, and the source
 * positions of __builtin_expect calls. Only the fields bpfgate needs are
 * read; lines that do not parse are ignored (the IR is clang's own output). */
#ifndef BG_CC_IRMETA_H
#define BG_CC_IRMETA_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ir_pos {
	char file[256]; /* DIFile filename as written (may be relative) */
	uint32_t line, col;
};

struct ir_subprogram {
	char name[128];
	char file[256];
	uint32_t line; /* the DISubprogram's line (sample profile line offsets start here) */
};

struct ir_meta {
	char *text; /* the module (owned) */
	char **md;  /* md[N]: the text after "!N = ", or NULL */
	size_t nmd;
	struct ir_subprogram *sps; /* definitions */
	size_t nsps;
	struct ir_pos *expects; /* positions of llvm.expect calls */
	size_t nexpects;
};

/* Parse the module at path. Returns 0 or a negative errno. */
int ir_meta_load(struct ir_meta *m, const char *path);
void ir_meta_free(struct ir_meta *m);
/* Does path name the same file as an IR filename (equal, or one is a
 * trailing path component sequence of the other)? */
bool ir_same_file(const char *a, const char *b);
#endif
