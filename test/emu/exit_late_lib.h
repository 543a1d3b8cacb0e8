/* The late-destructor library of test_emu_exit_late (exit_late_lib.c). */
#ifndef EXIT_LATE_LIB_H
#define EXIT_LATE_LIB_H

/* exit_late_arm: the runtime could not be loaded or found no GPU agent */
#define EXIT_LATE_NO_RUNTIME 77

/* Loads the runtime at path, initializes it and registers the async
 * handler the destructor will need; 0 or a non-zero exit status. */
int exit_late_arm(const char *runtime);

#endif
