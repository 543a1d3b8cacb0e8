/*
 * hsa_status_string and hl_status_name: the one table of every status code
 * our headers define (core, AMD extension 40..47, finalizer 0x2000.., image
 * 0x3000..) with its name and a sentence on what it means.
 *
 * The table is an X-macro list so that the name and the full text come
 * from one entry and cannot drift apart; a switch over it makes the
 * compiler reject a duplicated value.  Each full string starts with the
 * enumerator name, as clients (and ROCr's own strings) expect:
 * "HSA_STATUS_ERROR_INVALID_AGENT: ...".  Everything here is static data,
 * so both calls work before hsa_init and after hsa_shut_down.
 */
#include "runtime/status.h"

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#define HL_STATUS_LIST(X)                                                              \
	X(HSA_STATUS_SUCCESS, "The call completed successfully.")                       \
	X(HSA_STATUS_INFO_BREAK, "An iteration callback asked to stop the iteration "   \
	  "early; this is not an error.")                                                \
	X(HSA_STATUS_ERROR, "The call failed for a reason no more specific status "     \
	  "describes.")                                                                  \
	X(HSA_STATUS_ERROR_INVALID_ARGUMENT, "An argument is out of range, NULL where " \
	  "a pointer is required, or otherwise violates the call's preconditions.")      \
	X(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, "The queue cannot be created with "  \
	  "the requested type, size or features on this agent.")                         \
	X(HSA_STATUS_ERROR_INVALID_ALLOCATION, "The memory allocation or free "         \
	  "request is invalid: wrong size, alignment or address.")                       \
	X(HSA_STATUS_ERROR_INVALID_AGENT, "The agent handle does not name an agent "    \
	  "of this runtime.")                                                            \
	X(HSA_STATUS_ERROR_INVALID_REGION, "The region handle does not name a memory "  \
	  "region of this runtime.")                                                     \
	X(HSA_STATUS_ERROR_INVALID_SIGNAL, "The signal handle does not name a live "    \
	  "signal.")                                                                     \
	X(HSA_STATUS_ERROR_INVALID_QUEUE, "The queue pointer does not name a live "     \
	  "queue.")                                                                      \
	X(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "The runtime or the driver ran out of a "  \
	  "resource (memory, queues, doorbells, events) needed to complete the call.")   \
	X(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "The packet processor found a "       \
	  "malformed AQL packet in the queue.")                                          \
	X(HSA_STATUS_ERROR_RESOURCE_FREE, "The resource cannot be released while "      \
	  "other objects still use it.")                                                 \
	X(HSA_STATUS_ERROR_NOT_INITIALIZED, "The runtime is not initialized; call "     \
	  "hsa_init first.")                                                             \
	X(HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, "The runtime's initialization reference " \
	  "count reached its maximum.")                                                  \
	X(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "Each argument is valid on its own " \
	  "but the combination is not.")                                                 \
	X(HSA_STATUS_ERROR_INVALID_INDEX, "The index is out of range.")                 \
	X(HSA_STATUS_ERROR_INVALID_ISA, "The instruction set architecture handle is "   \
	  "invalid or not supported here.")                                              \
	X(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "The code object is malformed or "      \
	  "unsupported.")                                                                \
	X(HSA_STATUS_ERROR_INVALID_EXECUTABLE, "The executable handle does not name a " \
	  "live executable.")                                                            \
	X(HSA_STATUS_ERROR_FROZEN_EXECUTABLE, "The executable is frozen and can no "    \
	  "longer be modified.")                                                         \
	X(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "No symbol of that name exists in the " \
	  "executable or code object.")                                                  \
	X(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "The variable has already been "   \
	  "defined.")                                                                    \
	X(HSA_STATUS_ERROR_VARIABLE_UNDEFINED, "The executable references a variable "  \
	  "that has not been defined.")                                                  \
	X(HSA_STATUS_ERROR_EXCEPTION, "An HSAIL operation raised an exception (or a "   \
	  "kernel trapped) while the exception policy was set to break.")                \
	X(HSA_STATUS_ERROR_INVALID_ISA_NAME, "The ISA name is not a known instruction " \
	  "set architecture.")                                                           \
	X(HSA_STATUS_ERROR_INVALID_CODE_SYMBOL, "The code object symbol handle is "     \
	  "invalid.")                                                                    \
	X(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, "The executable symbol handle is "\
	  "invalid.")                                                                    \
	X(HSA_STATUS_ERROR_INVALID_FILE, "The file descriptor is invalid or the file "  \
	  "cannot be read.")                                                             \
	X(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "The code object reader handle " \
	  "does not name a live reader.")                                                \
	X(HSA_STATUS_ERROR_INVALID_CACHE, "The cache handle does not name a cache of "  \
	  "this runtime.")                                                               \
	X(HSA_STATUS_ERROR_INVALID_WAVEFRONT, "The wavefront handle is invalid.")       \
	X(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, "The signal group handle does not "    \
	  "name a live signal group.")                                                   \
	X(HSA_STATUS_ERROR_INVALID_RUNTIME_STATE, "The runtime is not in a state that " \
	  "allows this call.")                                                           \
	X(HSA_STATUS_ERROR_FATAL, "The runtime hit an unrecoverable error and cannot "  \
	  "continue.")                                                                   \
	X(HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "The memory pool handle does not name " \
	  "a memory pool of this runtime.")                                              \
	X(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, "A kernel accessed an address "   \
	  "outside every memory aperture of the agent.")                                 \
	X(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, "A kernel executed an illegal or "      \
	  "unsupported instruction.")                                                    \
	X(HSA_STATUS_ERROR_MEMORY_FAULT, "A kernel accessed memory that is not mapped " \
	  "for the agent (a GPU page fault); a memory fault event gives the address.")   \
	X(HSA_STATUS_CU_MASK_REDUCED, "The CU mask was applied without the compute "    \
	  "units this process is not allowed to use.")                                   \
	X(HSA_STATUS_ERROR_OUT_OF_REGISTERS, "The kernel needs more registers than "    \
	  "the agent provides for the requested workgroup size.")                        \
	X(HSA_STATUS_ERROR_RESOURCE_BUSY, "The resource is busy or temporarily "        \
	  "unavailable; the call may succeed later.")                                    \
	X(HSA_STATUS_ERROR_NOT_SUPPORTED, "The operation is not supported by this "     \
	  "runtime or agent.")                                                           \
	X(HSA_STATUS_ERROR_XNACK_DISABLED, "The operation needs XNACK (GPU page-fault "  \
	  "retry), which is disabled on this system.")                                   \
	X(HSA_EXT_STATUS_ERROR_INVALID_PROGRAM, "The finalizer program handle is "      \
	  "invalid.")                                                                    \
	X(HSA_EXT_STATUS_ERROR_INVALID_MODULE, "The BRIG module is invalid.")           \
	X(HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE, "The BRIG module's machine model "  \
	  "or profile does not match the program's.")                                    \
	X(HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED, "The BRIG module is already "   \
	  "part of the program.")                                                        \
	X(HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH, "A symbol declaration does not match "  \
	  "its definition across the program's modules.")                                \
	X(HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED, "The finalizer failed to "          \
	  "translate the program.")                                                      \
	X(HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH, "A control directive conflicts "     \
	  "with the one given to the finalizer.")                                        \
	X(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED, "The agent does not support "  \
	  "this image format.")                                                          \
	X(HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED, "The agent does not support "    \
	  "images of this size.")                                                        \
	X(HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED, "The agent does not support "   \
	  "this image row or slice pitch.")                                              \
	X(HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED, "The agent does not "    \
	  "support this sampler descriptor.")

/*
 * The extension codes are members of anonymous enums, not of hsa_status_t;
 * switching on an int keeps the compiler from warning about case labels
 * outside the enum while still rejecting duplicate values.
 */
static const char *status_full_text(int status)
{
	switch (status) {
#define HL_STATUS_TEXT(code, text) \
	case code:                 \
		return #code ": " text;
	HL_STATUS_LIST(HL_STATUS_TEXT)
#undef HL_STATUS_TEXT
	}
	return NULL;
}

const char *hl_status_name(hsa_status_t status)
{
	switch ((int)status) {
#define HL_STATUS_NAME(code, text) \
	case code:                 \
		return #code;
	HL_STATUS_LIST(HL_STATUS_NAME)
#undef HL_STATUS_NAME
	}
	return "HSA_STATUS_UNKNOWN";
}

hsa_status_t hsa_status_string(hsa_status_t status, const char **status_string)
{
	const char *text;

	if (!status_string)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	text = status_full_text((int)status);
	if (!text)
		return HSA_STATUS_ERROR_INVALID_ARGUMENT;
	*status_string = text;
	return HSA_STATUS_SUCCESS;
}
