/*
 * The module table: hsalite's modules in dependency order, each with the
 * steps runtime.c runs at hsa_init (and, in reverse, at the end of a
 * runtime).  This is the one file that names every module: runtime.c runs
 * the table without including a header of a module above it, and each
 * module's steps are declared in its public header.
 *
 *   runtime < memory < signal < queue < loader < copy < image
 */
#include "image/image.h"
#include "loader/loader.h"
#include "runtime/runtime.h"

const struct hl_module hl_modules[] = {
	{ .name = "runtime" },
	{ .name = "memory" },
	{ .name = "signal" },
	{ .name = "queue" },
	{ .name = "loader", .attach = hl_loader_attach },
	{ .name = "copy" },
	{ .name = "image", .attach = hl_image_attach },
};

const uint32_t hl_n_modules = sizeof(hl_modules) / sizeof(hl_modules[0]);
