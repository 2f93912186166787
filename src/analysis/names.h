/* Names for messages: the map names of the program being analysed (set by
 * the verifier for the duration of one bg_verify call, per thread). */
#ifndef BG_ANALYSIS_NAMES_H
#define BG_ANALYSIS_NAMES_H
struct bg_program;
void as_names_set(const struct bg_program *prog);
const char *as_map_name(int idx);
#endif
