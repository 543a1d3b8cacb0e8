/*
 * The module table: hsalite's modules in dependency order, each with its
 * steps in a runtime's life (struct hl_module, runtime.h): attach at
 * hsa_init in this order; teardown at the last hsa_shut_down, fork_child at
 * a fork and forget at a fork child's first call, in the reverse order.
 * This is the one file that names every module, and it defines hsa_init,
 * which hands the table to the runtime: runtime.c runs it without
 * including, or linking to, anything of a module above it; each module's
 * steps are declared in its public header.
 *
 *   kfd < runtime < memory < signal < queue < loader < copy < image < tools
 *
 * The thunk (src/kfd) is listed for its fork_child step only: the runtime
 * opens and closes its KFD process itself, and the thunk learns of a fork
 * from this table, not from a pid of its own.
 *
 * The order is the teardown's contract: copy releases its engines (unlisted
 * queues, signals, blit executables) before the loader frees executables,
 * the queue module its queues and the signal module its slabs; memory goes
 * last, with every allocation still recorded.
 */
#include "copy/copy.h"
#include "image/image.h"
#include "kfd/kfd.h"
#include "loader/loader.h"
#include "memory/memory.h"
#include "queue/queue.h"
#include "runtime/runtime.h"
#include "signal/signal.h"
#include "tools/tools.h"

static const struct hl_module hl_modules[] = {
	{ .name = "kfd", .fork_child = kfd_fork_child }, /* the thunk: process.c */
	{ .name = "runtime" }, /* agents, system events, the KFD process: runtime.c */
	{
		.name = "memory",
		.attach = hl_memory_attach,
		.teardown = hl_memory_release_all,
		.forget = hl_memory_forget_all,
	},
	{
		.name = "signal",
		.attach = hl_signal_attach,
		.teardown = hl_signal_teardown,
		.fork_child = hl_signal_fork_child,
		.forget = hl_signal_forget,
	},
	{
		.name = "queue",
		.attach = hl_queue_attach,
		.teardown = hl_queue_teardown,
		.closing = hl_queue_closing,
		.fork_child = hl_queue_fork_child,
		.forget = hl_queue_forget,
	},
	{
		.name = "loader",
		.attach = hl_loader_attach,
		.teardown = hl_loader_teardown,
		.fork_child = hl_loader_fork_child,
		.forget = hl_loader_forget,
	},
	{
		.name = "copy",
		.attach = hl_copy_attach,
		.teardown = hl_copy_teardown,
		.forget = hl_copy_forget,
	},
	{ .name = "image", .attach = hl_image_attach },
	{
		/* the HSA API table and HSA_TOOLS_LIB: loaded once everything
		 * below works, unloaded before anything is torn down */
		.name = "tools",
		.attach = hl_tools_attach,
		.teardown = hl_tools_teardown,
		.opened = hl_tools_opened,
		.closing = hl_tools_closing,
		.fork_child = hl_tools_fork_child,
		.forget = hl_tools_forget,
	},
};

hsa_status_t hsa_init(void)
{
	return hl_runtime_init(hl_modules, sizeof(hl_modules) / sizeof(hl_modules[0]));
}
