/*
 * trap.h — hsalite's second-level trap handler (src/queue/trap.c), inside
 * the queue module: the device code (trap/trap_gfx9.s, embedded per gfx at
 * build time) and the per-GPU state that lets it find a wave's queue.
 */
#ifndef HL_QUEUE_TRAP_H
#define HL_QUEUE_TRAP_H

#include <stddef.h>
#include <stdint.h>

/* The assembled handler of one processor (generated trap_code.c). */
struct hl_trap_code {
	const char *gfx;        /* "gfx90a"; NULL ends the table */
	const uint8_t *code;
	size_t size;
};
extern const struct hl_trap_code hl_trap_codes[];

/* TMA: one amd_queue_t pointer per doorbell slot of the process's slice
 * (the handler indexes it with s_sendmsg MSG_GET_DOORBELL's answer). */
#define HL_TRAP_DOORBELLS 1024u

#endif /* HL_QUEUE_TRAP_H */
