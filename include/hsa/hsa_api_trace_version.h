/*
 * hsa_api_trace_version.h - the versions of the HSA API table and of each
 * sub-table (hsa_api_trace.h), ROCr 1.18's numbers: a major changes when a
 * layout breaks (1.18 moved three AmdExtTable entries, hence 2 where ROCr
 * 5.2.3 had 1), a step counts additions.  AmdExtTable's step is that of
 * AMD's newer header: 1.18's 0x07 plus one for each of ais_file_* (0x08),
 * counted queues, batch copy (0x0A, as rocprofiler-sdk's gate reads it),
 * agent_preload, svm_discard_batch_async and signal_get_event_id (0x0D),
 * then the nine entries of the header of rocm-systems 41e1945c (external
 * semaphores, fabric handles, hsa_amd_queue_create, the queue semaphore
 * calls, image_create_v2, interop_map_buffer_with_size), whose
 * hsa_api_trace_version.h says 0x12 (rocprofiler-sdk gates
 * hsa_amd_queue_create_fn at 0x10).  The root's major is also the
 * runtime_version OnLoad receives.
 */
#ifndef HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H
#define HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H

#include <stdint.h> /* the versions fill uint32_t fields (ApiTableVersion) */

#define HSA_API_TABLE_MAJOR_VERSION             0x03
#define HSA_CORE_API_TABLE_MAJOR_VERSION        0x02
#define HSA_AMD_EXT_API_TABLE_MAJOR_VERSION     0x02
#define HSA_FINALIZER_API_TABLE_MAJOR_VERSION   0x02
#define HSA_IMAGE_API_TABLE_MAJOR_VERSION       0x02
#define HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION  0x01
#define HSA_TOOLS_API_TABLE_MAJOR_VERSION       0x01
#define HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION 0x01

#define HSA_API_TABLE_STEP_VERSION             0x01
#define HSA_CORE_API_TABLE_STEP_VERSION        0x00
#define HSA_AMD_EXT_API_TABLE_STEP_VERSION     0x12
#define HSA_FINALIZER_API_TABLE_STEP_VERSION   0x00
#define HSA_IMAGE_API_TABLE_STEP_VERSION       0x01
#define HSA_IMAGE_EXT_API_TABLE_STEP_VERSION   HSA_IMAGE_API_TABLE_STEP_VERSION
#define HSA_AQLPROFILE_API_TABLE_STEP_VERSION  0x00
#define HSA_TOOLS_API_TABLE_STEP_VERSION       0x00
#define HSA_PC_SAMPLING_API_TABLE_STEP_VERSION 0x00

#endif /* HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H */
