/* Running external tools (clang, llvm-objdump) with captured output and a
 * time limit. No shell is involved: arguments are passed as given. */
#ifndef BG_CC_SPAWN_H
#define BG_CC_SPAWN_H

/* Run argv[0] with argv, stdout and stderr to the given files (NULL: /dev/null).
 * Returns the exit status (0..255), 128+signal when killed, or -errno when it
 * could not be started; -ETIMEDOUT after timeout_s seconds (0: no limit). */
int bg_spawn(char *const argv[], const char *out_path, const char *err_path, int timeout_s);
/* The same with the child's environment given (execve's envp; NULL: this
 * process's). The library never changes its own process' environment. */
int bg_spawn_env(char *const argv[], char *const envp[], const char *out_path, const char *err_path,
		 int timeout_s);
/* Read a whole file into a NUL-terminated malloc'd buffer (NULL on error). */
char *bg_read_file(const char *path, size_t *len);
#endif
