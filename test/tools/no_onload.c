/*
 * A library in HSA_TOOLS_LIB without OnLoad: the runtime must close it and
 * pass its name to the next tool among the failed ones.
 */
__attribute__((visibility("default"))) int hl_not_a_tool;
int hl_not_a_tool = 1;
