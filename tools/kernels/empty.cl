/*
 * The empty kernel hsa-dispatch-bench dispatches: one work-item that does
 * nothing, so a dispatch measures the runtime and the command processor, not
 * the shader.  Compiled at build time by tools/CMakeLists.txt: clang-14 for
 * gfx90a (code object v4), clang-19 for gfx942 (v5), into
 * <build>/tools/empty.<gfx>.co, where the tool looks for it.
 */
__kernel void empty(void)
{
}
