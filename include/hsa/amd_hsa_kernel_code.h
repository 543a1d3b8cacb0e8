/*
 * amd_hsa_kernel_code.h - the two AMD kernel descriptor formats.
 *
 *  - amd_kernel_code_t: the 256-byte header of code object v2 kernels, as
 *    ROCr 5.2 declares it (obsolete for ROCm 5 targets, kept for clients
 *    that still name it);
 *  - amdhsa_kernel_descriptor_t: the 64-byte descriptor of code object v3+
 *    ("<kernel>.kd" in .rodata), which hsa_kernel_dispatch_packet_t.
 *    kernel_object points at.  ROCr's header has no C definition of it;
 *    ours follows LLVM AMDGPUUsage "Kernel Descriptor".  The loader reads
 *    its segment sizes, the command processor (kfdemu's CP) reads the
 *    entry offset, the compute_pgm_rsrc* register images and the
 *    user-SGPR enables in kernel_code_properties.
 *
 * Bit fields use the AMD_HSA_BITS_CREATE_ENUM_ENTRIES convention of
 * amd_hsa_common.h: NAME is the mask, NAME_SHIFT and NAME_WIDTH its place.
 */
#ifndef AMD_HSA_KERNEL_CODE_H
#define AMD_HSA_KERNEL_CODE_H

#include "amd_hsa_common.h"
#include "hsa.h"

/* ==== code object v2: amd_kernel_code_t ================================== */

typedef uint32_t amd_kernel_code_version32_t;
enum amd_kernel_code_version_t {
	AMD_KERNEL_CODE_VERSION_MAJOR = 1,
	AMD_KERNEL_CODE_VERSION_MINOR = 1
};

typedef uint16_t amd_machine_kind16_t;
enum amd_machine_kind_t {
	AMD_MACHINE_KIND_UNDEFINED = 0,
	AMD_MACHINE_KIND_AMDGPU = 1
};

typedef uint16_t amd_machine_version16_t;

/* Hardware encodings of the MODE register's rounding and denormal fields. */
enum amd_float_round_mode_t {
	AMD_FLOAT_ROUND_MODE_NEAREST_EVEN = 0,
	AMD_FLOAT_ROUND_MODE_PLUS_INFINITY = 1,
	AMD_FLOAT_ROUND_MODE_MINUS_INFINITY = 2,
	AMD_FLOAT_ROUND_MODE_ZERO = 3
};

enum amd_float_denorm_mode_t {
	AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE_OUTPUT = 0,
	AMD_FLOAT_DENORM_MODE_FLUSH_OUTPUT = 1,
	AMD_FLOAT_DENORM_MODE_FLUSH_SOURCE = 2,
	AMD_FLOAT_DENORM_MODE_NO_FLUSH = 3
};

/* COMPUTE_PGM_RSRC1 as amd_kernel_code_t names its fields. */
typedef uint32_t amd_compute_pgm_rsrc_one32_t;
enum amd_compute_pgm_rsrc_one_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WORKITEM_VGPR_COUNT, 0, 6),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_GRANULATED_WAVEFRONT_SGPR_COUNT, 6, 4),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_PRIORITY, 10, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_32, 12, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_ROUND_MODE_16_64, 14, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_32, 16, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_FLOAT_DENORM_MODE_16_64, 18, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_PRIV, 20, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_DX10_CLAMP, 21, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_DEBUG_MODE, 22, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_ENABLE_IEEE_MODE, 23, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_BULKY, 24, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_CDBG_USER, 25, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_ONE_RESERVED1, 26, 6)
};

/* Which work-item id VGPRs (v0, v1, v2) the hardware initialises. */
enum amd_system_vgpr_workitem_id_t {
	AMD_SYSTEM_VGPR_WORKITEM_ID_X = 0,
	AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y = 1,
	AMD_SYSTEM_VGPR_WORKITEM_ID_X_Y_Z = 2,
	AMD_SYSTEM_VGPR_WORKITEM_ID_UNDEFINED = 3
};

/* COMPUTE_PGM_RSRC2 as amd_kernel_code_t names its fields. */
typedef uint32_t amd_compute_pgm_rsrc_two32_t;
enum amd_compute_pgm_rsrc_two_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_PRIVATE_SEGMENT_WAVE_BYTE_OFFSET, 0, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_USER_SGPR_COUNT, 1, 5),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_TRAP_HANDLER, 6, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_X, 7, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Y, 8, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_ID_Z, 9, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_SGPR_WORKGROUP_INFO, 10, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_VGPR_WORKITEM_ID, 11, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_ADDRESS_WATCH, 13, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_MEMORY_VIOLATION, 14, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_GRANULATED_LDS_SIZE, 15, 9),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION, 24, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE, 25, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO, 26, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW, 27, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW, 28, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT, 29, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_ENABLE_EXCEPTION_INT_DIVISION_BY_ZERO, 30, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_COMPUTE_PGM_RSRC_TWO_RESERVED1, 31, 1)
};

enum amd_element_byte_size_t {
	AMD_ELEMENT_BYTE_SIZE_2 = 0,
	AMD_ELEMENT_BYTE_SIZE_4 = 1,
	AMD_ELEMENT_BYTE_SIZE_8 = 2,
	AMD_ELEMENT_BYTE_SIZE_16 = 3
};

/* User-SGPR enables and flags of a v2 kernel. */
typedef uint32_t amd_kernel_code_properties32_t;
enum amd_kernel_code_properties_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, 0, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_PTR, 1, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_QUEUE_PTR, 2, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_KERNARG_SEGMENT_PTR, 3, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_DISPATCH_ID, 4, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_FLAT_SCRATCH_INIT, 5, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, 6, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_X, 7, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Y, 8, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_SGPR_GRID_WORKGROUP_COUNT_Z, 9, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_RESERVED1, 10, 6),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_ENABLE_ORDERED_APPEND_GDS, 16, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_PRIVATE_ELEMENT_SIZE, 17, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_IS_PTR64, 19, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_IS_DYNAMIC_CALLSTACK, 20, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_IS_DEBUG_ENABLED, 21, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_IS_XNACK_ENABLED, 22, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_KERNEL_CODE_PROPERTIES_RESERVED2, 23, 9)
};

/* log2 of an alignment or size in bytes. */
typedef uint8_t amd_powertwo8_t;
enum amd_powertwo_t {
	AMD_POWERTWO_1 = 0,
	AMD_POWERTWO_2 = 1,
	AMD_POWERTWO_4 = 2,
	AMD_POWERTWO_8 = 3,
	AMD_POWERTWO_16 = 4,
	AMD_POWERTWO_32 = 5,
	AMD_POWERTWO_64 = 6,
	AMD_POWERTWO_128 = 7,
	AMD_POWERTWO_256 = 8
};

/* Bits of amd_control_directives_t.enabled_control_directives. */
typedef uint64_t amd_enabled_control_directive64_t;
enum amd_enabled_control_directive_t {
	AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_BREAK_EXCEPTIONS = 1,
	AMD_ENABLED_CONTROL_DIRECTIVE_ENABLE_DETECT_EXCEPTIONS = 2,
	AMD_ENABLED_CONTROL_DIRECTIVE_MAX_DYNAMIC_GROUP_SIZE = 4,
	AMD_ENABLED_CONTROL_DIRECTIVE_MAX_FLAT_GRID_SIZE = 8,
	AMD_ENABLED_CONTROL_DIRECTIVE_MAX_FLAT_WORKGROUP_SIZE = 16,
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_DIM = 32,
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_GRID_SIZE = 64,
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRED_WORKGROUP_SIZE = 128,
	AMD_ENABLED_CONTROL_DIRECTIVE_REQUIRE_NO_PARTIAL_WORKGROUPS = 256
};

typedef uint16_t amd_exception_kind16_t;
enum amd_exception_kind_t {
	AMD_EXCEPTION_KIND_INVALID_OPERATION = 1,
	AMD_EXCEPTION_KIND_DIVISION_BY_ZERO = 2,
	AMD_EXCEPTION_KIND_OVERFLOW = 4,
	AMD_EXCEPTION_KIND_UNDERFLOW = 8,
	AMD_EXCEPTION_KIND_INEXACT = 16
};

/*
 * The alignment attribute sits before "struct" on purpose: as in ROCr, it
 * aligns the typedef (and so amd_kernel_code_t's member) to 64 while the
 * bare struct tag keeps its natural alignment.
 */
#define AMD_CONTROL_DIRECTIVES_ALIGN_BYTES 64
#define AMD_CONTROL_DIRECTIVES_ALIGN __ALIGNED__(AMD_CONTROL_DIRECTIVES_ALIGN_BYTES)

typedef AMD_CONTROL_DIRECTIVES_ALIGN struct amd_control_directives_s {
	amd_enabled_control_directive64_t enabled_control_directives;
	uint16_t enable_break_exceptions;  /* amd_exception_kind_t bits */
	uint16_t enable_detect_exceptions;
	uint32_t max_dynamic_group_size;
	uint64_t max_flat_grid_size;
	uint32_t max_flat_workgroup_size;
	uint8_t required_dim;
	uint8_t reserved1[3];
	uint64_t required_grid_size[3];
	uint32_t required_workgroup_size[3];
	uint8_t reserved2[60];
} amd_control_directives_t;

#define AMD_ISA_ALIGN_BYTES 256
#define AMD_KERNEL_CODE_ALIGN_BYTES 64
#define AMD_KERNEL_CODE_ALIGN __ALIGNED__(AMD_KERNEL_CODE_ALIGN_BYTES)

/* The v2 kernel header; the machine code follows at kernel_code_entry_byte_offset. */
typedef AMD_KERNEL_CODE_ALIGN struct amd_kernel_code_s {
	amd_kernel_code_version32_t amd_kernel_code_version_major;
	amd_kernel_code_version32_t amd_kernel_code_version_minor;
	amd_machine_kind16_t amd_machine_kind;
	amd_machine_version16_t amd_machine_version_major;
	amd_machine_version16_t amd_machine_version_minor;
	amd_machine_version16_t amd_machine_version_stepping;
	int64_t kernel_code_entry_byte_offset; /* from the start of this struct */
	int64_t kernel_code_prefetch_byte_offset;
	uint64_t kernel_code_prefetch_byte_size;
	uint64_t max_scratch_backing_memory_byte_size;
	amd_compute_pgm_rsrc_one32_t compute_pgm_rsrc1;
	amd_compute_pgm_rsrc_two32_t compute_pgm_rsrc2;
	amd_kernel_code_properties32_t kernel_code_properties;
	uint32_t workitem_private_segment_byte_size;
	uint32_t workgroup_group_segment_byte_size;
	uint32_t gds_segment_byte_size;
	uint64_t kernarg_segment_byte_size;
	uint32_t workgroup_fbarrier_count;
	uint16_t wavefront_sgpr_count;
	uint16_t workitem_vgpr_count;
	uint16_t reserved_vgpr_first;
	uint16_t reserved_vgpr_count;
	uint16_t reserved_sgpr_first;
	uint16_t reserved_sgpr_count;
	uint16_t debug_wavefront_private_segment_offset_sgpr;
	uint16_t debug_private_segment_buffer_sgpr;
	amd_powertwo8_t kernarg_segment_alignment;
	amd_powertwo8_t group_segment_alignment;
	amd_powertwo8_t private_segment_alignment;
	amd_powertwo8_t wavefront_size;
	int32_t call_convention;
	uint8_t reserved1[12];
	uint64_t runtime_loader_kernel_symbol;
	amd_control_directives_t control_directives;
} amd_kernel_code_t;

/* Handed to debuggers by the v2 loader. */
typedef struct amd_runtime_loader_debug_info_s {
	const void *elf_raw;
	size_t elf_size;
	const char *kernel_name;
	const void *owning_segment;
} amd_runtime_loader_debug_info_t;

/* ==== code object v3+: the AMDHSA kernel descriptor ====================== */

/*
 * COMPUTE_PGM_RSRC1 register image (all gfx9+ targets we model).  The
 * _GFX10 fields are reserved (zero) on gfx9.
 */
enum amdhsa_compute_pgm_rsrc1_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT, 0, 6),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT, 6, 4),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_PRIORITY, 10, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_FLOAT_ROUND_MODE_32, 12, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_FLOAT_ROUND_MODE_16_64, 14, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_FLOAT_DENORM_MODE_32, 16, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_FLOAT_DENORM_MODE_16_64, 18, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_PRIV, 20, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_ENABLE_DX10_CLAMP, 21, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_DEBUG_MODE, 22, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_ENABLE_IEEE_MODE, 23, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_BULKY, 24, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_CDBG_USER, 25, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_FP16_OVFL, 26, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_GFX10_WGP_MODE, 29, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_GFX10_MEM_ORDERED, 30, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC1_GFX10_FWD_PROGRESS, 31, 1)
};

/*
 * COMPUTE_PGM_RSRC2 register image.  The CP loads USER_SGPR_COUNT user
 * SGPRs, then the enabled system SGPRs (workgroup ids X, Y, Z, info,
 * private segment wave offset), and initialises VGPR_WORKITEM_ID+1 VGPRs.
 */
enum amdhsa_compute_pgm_rsrc2_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_PRIVATE_SEGMENT, 0, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_USER_SGPR_COUNT, 1, 5),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_TRAP_HANDLER, 6, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X, 7, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y, 8, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z, 9, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_SGPR_WORKGROUP_INFO, 10, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_VGPR_WORKITEM_ID, 11, 2),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_ADDRESS_WATCH, 13, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_MEMORY, 14, 1),
	/* static LDS size in target-specific granules (see AMDGPUUsage) */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_GRANULATED_LDS_SIZE, 15, 9),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION, 24, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_FP_DENORMAL_SOURCE, 25, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO, 26, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW, 27, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW, 28, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_IEEE_754_FP_INEXACT, 29, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC2_ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO, 30, 1)
};

/* COMPUTE_PGM_RSRC3: its meaning depends on the target. */
enum amdhsa_compute_pgm_rsrc3_t {
	/* gfx90a, gfx94x: first AccVGPR = 4 * (ACCUM_OFFSET + 1); TG_SPLIT mode */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX90A_ACCUM_OFFSET, 0, 6),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX90A_TG_SPLIT, 16, 1),
	/* gfx10, gfx11 */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX10_SHARED_VGPR_COUNT, 0, 4),
	/* gfx11 */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX11_INST_PREF_SIZE, 4, 6),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX11_TRAP_ON_START, 10, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX11_TRAP_ON_END, 11, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_RSRC3_GFX11_IMAGE_OP, 31, 1)
};

/*
 * kernel_code_properties: which user SGPRs the CP initialises, in this
 * order (private segment buffer takes 4 SGPRs, the pointers 2 each,
 * dispatch id 2, flat scratch init 2, private segment size 1).
 */
enum amdhsa_kernel_code_properties_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, 0, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_DISPATCH_PTR, 1, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_QUEUE_PTR, 2, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_KERNARG_SEGMENT_PTR, 3, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_DISPATCH_ID, 4, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_FLAT_SCRATCH_INIT, 5, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, 6, 1),
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_ENABLE_WAVEFRONT_SIZE32, 10, 1), /* gfx10+ */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KCP_USES_DYNAMIC_STACK, 11, 1)
};

/* kernarg_preload: kernel arguments preloaded into SGPRs (gfx940+). */
enum amdhsa_kernarg_preload_t {
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KERNARG_PRELOAD_LENGTH, 0, 7),  /* dwords */
	AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMDHSA_KERNARG_PRELOAD_OFFSET, 7, 9)   /* dwords */
};

#define AMDHSA_KERNEL_DESCRIPTOR_BYTES 64
#define AMDHSA_KERNEL_DESCRIPTOR_ALIGN_BYTES 64

typedef struct amdhsa_kernel_descriptor_s {
	uint32_t group_segment_fixed_size;   /* static LDS bytes */
	uint32_t private_segment_fixed_size; /* static scratch bytes per work-item */
	uint32_t kernarg_size;               /* bytes of kernel arguments */
	uint8_t reserved0[4];
	int64_t kernel_code_entry_byte_offset; /* entry = descriptor address + this; may be < 0 */
	uint8_t reserved1[20];
	uint32_t compute_pgm_rsrc3;
	uint32_t compute_pgm_rsrc1;
	uint32_t compute_pgm_rsrc2;
	uint16_t kernel_code_properties;
	uint16_t kernarg_preload;
	uint8_t reserved3[4];
} amdhsa_kernel_descriptor_t;

#ifdef HSA_LARGE_MODEL
HSA_LAYOUT_ASSERT_(sizeof(amd_kernel_code_t) == 256, "amd_kernel_code_t is 256 bytes");
HSA_LAYOUT_ASSERT_(offsetof(amd_kernel_code_t, kernel_code_entry_byte_offset) == 16,
		   "amd_kernel_code_t.kernel_code_entry_byte_offset");
HSA_LAYOUT_ASSERT_(offsetof(amd_kernel_code_t, compute_pgm_rsrc1) == 48,
		   "amd_kernel_code_t.compute_pgm_rsrc1");
HSA_LAYOUT_ASSERT_(offsetof(amd_kernel_code_t, kernel_code_properties) == 56,
		   "amd_kernel_code_t.kernel_code_properties");
HSA_LAYOUT_ASSERT_(offsetof(amd_kernel_code_t, kernarg_segment_byte_size) == 72,
		   "amd_kernel_code_t.kernarg_segment_byte_size");
HSA_LAYOUT_ASSERT_(offsetof(amd_kernel_code_t, runtime_loader_kernel_symbol) == 120,
		   "amd_kernel_code_t.runtime_loader_kernel_symbol");
HSA_LAYOUT_ASSERT_(offsetof(amd_kernel_code_t, control_directives) == 128,
		   "amd_kernel_code_t.control_directives");
HSA_LAYOUT_ASSERT_(sizeof(amdhsa_kernel_descriptor_t) == AMDHSA_KERNEL_DESCRIPTOR_BYTES,
		   "amdhsa_kernel_descriptor_t is 64 bytes");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, group_segment_fixed_size) == 0,
		   "kd.group_segment_fixed_size");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, private_segment_fixed_size) == 4,
		   "kd.private_segment_fixed_size");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, kernarg_size) == 8, "kd.kernarg_size");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, kernel_code_entry_byte_offset) == 16,
		   "kd.kernel_code_entry_byte_offset");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, compute_pgm_rsrc3) == 44,
		   "kd.compute_pgm_rsrc3");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, compute_pgm_rsrc1) == 48,
		   "kd.compute_pgm_rsrc1");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, compute_pgm_rsrc2) == 52,
		   "kd.compute_pgm_rsrc2");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, kernel_code_properties) == 56,
		   "kd.kernel_code_properties");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, kernarg_preload) == 58,
		   "kd.kernarg_preload");
HSA_LAYOUT_ASSERT_(offsetof(amdhsa_kernel_descriptor_t, reserved3) == 60, "kd.reserved3");
#endif

#endif /* AMD_HSA_KERNEL_CODE_H */
