/* exit_late.c's one entry point (see there). */
#ifndef HSALITE_LC_EXIT_LATE_H
#define HSALITE_LC_EXIT_LATE_H

/* dlopens the runtime at path, calls hsa_init, makes the signals and arms
 * the destructor; 0 or the failed step (a child's exit status). */
int lc_exit_late_arm(const char *path);

#endif
