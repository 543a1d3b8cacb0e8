/*
 * isa_names.c — placeholder until gen_names.py output lands.
 */
#include "isa_priv.h"

const char *kemu_isa_mnemonic(int gfx942, enum isa_enc enc, unsigned op)
{
	(void)gfx942;
	(void)enc;
	(void)op;
	return NULL;
}
