/*
 * The image extension's public face: what the module table (src/modules.c)
 * runs.  Images and samplers live behind the hsa_ext_image_* API; the rest
 * of the module is private (image_priv.h).
 */
#ifndef HSALITE_IMAGE_H
#define HSALITE_IMAGE_H

#include "runtime/runtime.h"

/* hsa_init: registers HSA_EXTENSION_IMAGES (its table, the GPU agents that
 * have it, its agent attributes) with rt.  -errno. */
int hl_image_attach(struct hl_runtime *rt);

#endif /* HSALITE_IMAGE_H */
