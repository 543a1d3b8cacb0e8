/*
 * hsa_ven_amd_loader.h - AMD's loader extension (HSA_EXTENSION_AMD_LOADER):
 * queries that map device addresses back to host copies, executables and
 * loaded code objects.  Debuggers, profilers and HIP use it to find the
 * code object behind a kernel.
 *
 * As with ROCr 5.2, clients either call the functions directly or fetch a
 * versioned function table through hsa_system_get_major_extension_table
 * (HSA_EXTENSION_AMD_LOADER, major 1); each later table appends entries to
 * the previous one, so the member order is ABI.
 */
#ifndef HSA_VEN_AMD_LOADER_H
#define HSA_VEN_AMD_LOADER_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Host-accessible address of a loaded segment's byte at device_address. */
hsa_status_t HSA_API hsa_ven_amd_loader_query_host_address(const void *device_address,
							   const void **host_address);

typedef enum {
	HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE = 0,
	HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE = 1,
	HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY = 2
} hsa_ven_amd_loader_code_object_storage_type_t;

/* One loaded segment and where its code object came from. */
typedef struct hsa_ven_amd_loader_segment_descriptor_s {
	hsa_agent_t agent;
	hsa_executable_t executable;
	hsa_ven_amd_loader_code_object_storage_type_t code_object_storage_type;
	const void *code_object_storage_base;
	size_t code_object_storage_size;
	size_t code_object_storage_offset;
	const void *segment_base;
	size_t segment_size;
} hsa_ven_amd_loader_segment_descriptor_t;

/*
 * Two calls: with segment_descriptors NULL and *num_segment_descriptors 0
 * the count is returned; then with a buffer of exactly that many entries
 * (another count gives HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS).
 */
hsa_status_t HSA_API hsa_ven_amd_loader_query_segment_descriptors(
	hsa_ven_amd_loader_segment_descriptor_t *segment_descriptors,
	size_t *num_segment_descriptors);

hsa_status_t HSA_API hsa_ven_amd_loader_query_executable(const void *device_address,
							 hsa_executable_t *executable);

hsa_status_t HSA_API hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
	hsa_executable_t executable,
	hsa_status_t (*callback)(hsa_executable_t executable,
				 hsa_loaded_code_object_t loaded_code_object, void *data),
	void *data);

typedef enum {
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM = 1,
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT = 2
} hsa_ven_amd_loader_loaded_code_object_kind_t;

typedef enum hsa_ven_amd_loader_loaded_code_object_info_e {
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE = 1,  /* hsa_executable_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND = 2,        /* uint32_t kind_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT = 3,       /* hsa_agent_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE = 4,
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE = 5,
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE = 6,
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE = 7, /* int fd */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA = 8,  /* int64_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE = 9,   /* uint64_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE = 10,  /* uint64_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH = 11, /* uint32_t */
	HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI = 12         /* char[URI_LENGTH] */
} hsa_ven_amd_loader_loaded_code_object_info_t;

hsa_status_t HSA_API hsa_ven_amd_loader_loaded_code_object_get_info(
	hsa_loaded_code_object_t loaded_code_object,
	hsa_ven_amd_loader_loaded_code_object_info_t attribute, void *value);

/* A reader over [offset, offset + size) of an open file (fat binaries). */
hsa_status_t HSA_API hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
	hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *code_object_reader);

hsa_status_t HSA_API hsa_ven_amd_loader_iterate_executables(
	hsa_status_t (*callback)(hsa_executable_t executable, void *data), void *data);

/* Presence macro; its value (as ROCr spells it) encodes 1.03. */
#define hsa_ven_amd_loader 001003

/* Function tables, one per minor version; each extends the previous. */
#define HSA_VEN_AMD_LOADER_PFN_1_00_                                              \
	hsa_status_t (*hsa_ven_amd_loader_query_host_address)(const void *, const void **); \
	hsa_status_t (*hsa_ven_amd_loader_query_segment_descriptors)(                   \
		hsa_ven_amd_loader_segment_descriptor_t *, size_t *);                   \
	hsa_status_t (*hsa_ven_amd_loader_query_executable)(const void *, hsa_executable_t *);
#define HSA_VEN_AMD_LOADER_PFN_1_01_                                              \
	HSA_VEN_AMD_LOADER_PFN_1_00_                                              \
	hsa_status_t (*hsa_ven_amd_loader_executable_iterate_loaded_code_objects)(      \
		hsa_executable_t,                                                       \
		hsa_status_t (*)(hsa_executable_t, hsa_loaded_code_object_t, void *),   \
		void *);                                                                \
	hsa_status_t (*hsa_ven_amd_loader_loaded_code_object_get_info)(                 \
		hsa_loaded_code_object_t, hsa_ven_amd_loader_loaded_code_object_info_t, \
		void *);
#define HSA_VEN_AMD_LOADER_PFN_1_02_                                              \
	HSA_VEN_AMD_LOADER_PFN_1_01_                                              \
	hsa_status_t (*hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size)( \
		hsa_file_t, size_t, size_t, hsa_code_object_reader_t *);
#define HSA_VEN_AMD_LOADER_PFN_1_03_                                              \
	HSA_VEN_AMD_LOADER_PFN_1_02_                                              \
	hsa_status_t (*hsa_ven_amd_loader_iterate_executables)(                         \
		hsa_status_t (*)(hsa_executable_t, void *), void *);

typedef struct hsa_ven_amd_loader_1_00_pfn_s {
	HSA_VEN_AMD_LOADER_PFN_1_00_
} hsa_ven_amd_loader_1_00_pfn_t;

typedef struct hsa_ven_amd_loader_1_01_pfn_s {
	HSA_VEN_AMD_LOADER_PFN_1_01_
} hsa_ven_amd_loader_1_01_pfn_t;

typedef struct hsa_ven_amd_loader_1_02_pfn_s {
	HSA_VEN_AMD_LOADER_PFN_1_02_
} hsa_ven_amd_loader_1_02_pfn_t;

typedef struct hsa_ven_amd_loader_1_03_pfn_s {
	HSA_VEN_AMD_LOADER_PFN_1_03_
} hsa_ven_amd_loader_1_03_pfn_t;

#undef HSA_VEN_AMD_LOADER_PFN_1_00_
#undef HSA_VEN_AMD_LOADER_PFN_1_01_
#undef HSA_VEN_AMD_LOADER_PFN_1_02_
#undef HSA_VEN_AMD_LOADER_PFN_1_03_

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HSA_VEN_AMD_LOADER_H */
