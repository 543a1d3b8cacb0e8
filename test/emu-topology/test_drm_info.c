/*
 * emu/topology: the render node's DRM answers (kemu_drm_info_ioctl), checked
 * against struct kemu_gpu and the kernel's rules: drm_version's length
 * handling, AMDGPU_INFO's truncation to return_size and -EINVAL for unknown
 * queries, -EACCES for core ioctls a render node refuses, -ENOSYS for the
 * buffer-object ioctls that belong to the driver model.
 */
#define _GNU_SOURCE
#include "hl_check.h"
#include "topology.h"

#include <errno.h>
#include <string.h>

#include <libdrm/drm.h>
#include <libdrm/amdgpu_drm.h>

static struct kemu_topology topo;
static const struct kemu_gpu *gpu;

static void setup(void)
{
	ck_assert_int_eq(kemu_topology_create("mi210", 1, false, &topo), 0);
	gpu = &topo.gpus[0];
}

static void teardown(void)
{
	kemu_topology_destroy(&topo);
}

static int info(uint32_t query, void *out, uint32_t size)
{
	struct drm_amdgpu_info req;
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)out;
	req.return_size = size;
	req.query = query;
	return kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req);
}

START_TEST(test_version_reports_amdgpu_3)
{
	char name[32] = { 0 }, date[32] = { 0 }, desc[32] = { 0 };
	struct drm_version v = { .name = name, .name_len = sizeof(name) - 1,
				 .date = date, .date_len = sizeof(date) - 1,
				 .desc = desc, .desc_len = sizeof(desc) - 1 };
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_VERSION, &v), 0);
	ck_assert_int_eq(v.version_major, 3);
	ck_assert_int_ge(v.version_minor, 40);
	ck_assert_str_eq(name, "amdgpu");
	ck_assert_uint_eq(v.name_len, 6);
	ck_assert_uint_eq(v.date_len, strlen(date));
	ck_assert_uint_eq(v.desc_len, strlen(desc));
}
END_TEST

START_TEST(test_version_honours_short_buffers)
{
	char name[8];
	memset(name, 'x', sizeof(name));
	struct drm_version v = { .name = name, .name_len = 3 };
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_VERSION, &v), 0);
	ck_assert_int_eq(memcmp(name, "amdx", 4), 0); /* 3 bytes, no NUL */
	ck_assert_uint_eq(v.name_len, 6);              /* the full length */
	ck_assert_uint_ne(v.date_len, 0);              /* NULL buffer: length only */
}
END_TEST

START_TEST(test_accel_working)
{
	uint32_t v = 0;
	ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, &v, sizeof(v)), 0);
	ck_assert_uint_eq(v, 1);
}
END_TEST

START_TEST(test_dev_info_matches_gpu)
{
	struct drm_amdgpu_info_device d;
	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(info(AMDGPU_INFO_DEV_INFO, &d, sizeof(d)), 0);
	ck_assert_uint_eq(d.device_id, 0x740F);
	ck_assert_uint_eq(d.pci_rev, gpu->revision_id);
	ck_assert_uint_eq(d.family, AMDGPU_FAMILY_AI);
	ck_assert_uint_eq(d.external_rev, 0x3C);
	ck_assert_uint_eq(d.cu_active_number, gpu->cu_count);
	ck_assert_uint_eq(d.num_shader_engines, 8);
	ck_assert_uint_eq(d.num_shader_arrays_per_engine, 1);
	ck_assert_uint_eq(d.vram_type, AMDGPU_VRAM_TYPE_HBM);
	ck_assert_uint_eq(d.vram_bit_width, gpu->vram_width);
	ck_assert_uint_eq(d.gpu_counter_freq, 100000);
	ck_assert_uint_eq(d.max_engine_clock, gpu->max_engine_clk_fcompute * 1000ull);
	unsigned cus = 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			cus += (unsigned)__builtin_popcount(d.cu_bitmap[i][j]);
	ck_assert_uint_eq(cus, gpu->cu_count);
}
END_TEST

START_TEST(test_dev_info_truncated_to_return_size)
{
	uint8_t buf[sizeof(struct drm_amdgpu_info_device)];
	memset(buf, 0xAB, sizeof(buf));
	ck_assert_int_eq(info(AMDGPU_INFO_DEV_INFO, buf, 4), 0);
	uint32_t id;
	memcpy(&id, buf, 4);
	ck_assert_uint_eq(id, 0x740F);
	ck_assert_uint_eq(buf[4], 0xAB);
	ck_assert_uint_eq(buf[sizeof(buf) - 1], 0xAB);
}
END_TEST

START_TEST(test_unknown_query_is_einval)
{
	uint64_t v;
	ck_assert_int_eq(info(0x7F, &v, sizeof(v)), -EINVAL);
}
END_TEST

START_TEST(test_zero_return_size_is_einval)
{
	uint32_t v;
	ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, &v, 0), -EINVAL);
	ck_assert_int_eq(info(AMDGPU_INFO_ACCEL_WORKING, NULL, 4), -EINVAL);
}
END_TEST

START_TEST(test_read_gb_addr_config)
{
	struct drm_amdgpu_info req;
	uint32_t v = 0;
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)&v;
	req.return_size = 4;
	req.query = AMDGPU_INFO_READ_MMR_REG;
	req.read_mmr_reg.dword_offset = 0x263e;
	req.read_mmr_reg.count = 1;
	req.read_mmr_reg.instance = 0xffffffff;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), 0);
	ck_assert_uint_eq(v, gpu->gb_addr_config);
	req.read_mmr_reg.dword_offset = 0x1234; /* not on the allowed list */
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), -EFAULT);
	req.read_mmr_reg.dword_offset = 0x263e;
	req.read_mmr_reg.count = 129;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), -EINVAL);
}
END_TEST

START_TEST(test_vram_gtt_and_memory)
{
	struct drm_amdgpu_info_vram_gtt vg;
	struct drm_amdgpu_memory_info mem;
	ck_assert_int_eq(info(AMDGPU_INFO_VRAM_GTT, &vg, sizeof(vg)), 0);
	/* less AMDGPU_VM_RESERVED_VRAM (8 MiB) for page tables */
	ck_assert_uint_eq(vg.vram_size, gpu->vram_size - (8ull << 20));
	ck_assert_uint_eq(vg.vram_cpu_accessible_size, vg.vram_size);
	ck_assert_uint_gt(vg.gtt_size, 0);
	ck_assert_int_eq(info(AMDGPU_INFO_MEMORY, &mem, sizeof(mem)), 0);
	ck_assert_uint_eq(mem.vram.total_heap_size, gpu->vram_size);
	ck_assert_uint_eq(mem.vram.usable_heap_size, vg.vram_size);
}
END_TEST

START_TEST(test_fw_version_mec)
{
	struct drm_amdgpu_info req;
	struct drm_amdgpu_info_firmware fw;
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)&fw;
	req.return_size = sizeof(fw);
	req.query = AMDGPU_INFO_FW_VERSION;
	req.query_fw.fw_type = AMDGPU_INFO_FW_GFX_MEC;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), 0);
	ck_assert_uint_eq(fw.ver, gpu->fw_version);
	req.query_fw.fw_type = 0x7F;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), -EINVAL);
}
END_TEST

START_TEST(test_hw_ip_count_and_info)
{
	struct drm_amdgpu_info req;
	uint32_t count = 0;
	struct drm_amdgpu_info_hw_ip ip;
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)&count;
	req.return_size = sizeof(count);
	req.query = AMDGPU_INFO_HW_IP_COUNT;
	req.query_hw_ip.type = AMDGPU_HW_IP_DMA;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), 0);
	ck_assert_uint_eq(count, gpu->num_sdma_engines + gpu->num_sdma_xgmi_engines);
	req.return_pointer = (uintptr_t)&ip;
	req.return_size = sizeof(ip);
	req.query = AMDGPU_INFO_HW_IP_INFO;
	req.query_hw_ip.type = AMDGPU_HW_IP_COMPUTE;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), 0);
	ck_assert_uint_eq(ip.hw_ip_version_major, 9);
	ck_assert_uint_ne(ip.available_rings, 0);
	req.query_hw_ip.type = AMDGPU_HW_IP_NUM;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, &req), -EINVAL);
}
END_TEST

START_TEST(test_bo_ioctls_are_enosys)
{
	union drm_amdgpu_gem_create create;
	union drm_amdgpu_gem_mmap mmap_args;
	struct drm_gem_close close_args;
	memset(&create, 0, sizeof(create));
	memset(&mmap_args, 0, sizeof(mmap_args));
	memset(&close_args, 0, sizeof(close_args));
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_GEM_CREATE, &create), -ENOSYS);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_GEM_MMAP, &mmap_args), -ENOSYS);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_GEM_CLOSE, &close_args), -ENOSYS);
}
END_TEST

START_TEST(test_render_node_refuses_auth_ioctls)
{
	drm_client_t client;
	drm_auth_t auth;
	memset(&client, 0, sizeof(client));
	memset(&auth, 0, sizeof(auth));
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_GET_CLIENT, &client), -EACCES);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_GET_MAGIC, &auth), -EACCES);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AUTH_MAGIC, &auth), -EACCES);
}
END_TEST

START_TEST(test_syncobj_is_enosys_not_eacces)
{
	struct drm_syncobj_create c;
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_SYNCOBJ_CREATE, &c), -ENOSYS);
}
END_TEST

START_TEST(test_driver_ioctl_hole_is_einval)
{
	uint64_t arg[4] = { 0 };
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOWR(DRM_COMMAND_BASE + 0x0A, uint64_t[4]), arg),
			 -EINVAL);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOWR(DRM_COMMAND_BASE + 0x30, uint64_t[4]), arg),
			 -EINVAL);
}
END_TEST

START_TEST(test_null_gpu_or_argument_is_rejected)
{
	struct drm_version v;
	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(kemu_drm_info_ioctl(NULL, DRM_IOCTL_VERSION, &v), -ENODEV);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_VERSION, NULL), -EFAULT);
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_AMDGPU_INFO, NULL), -EFAULT);
}
END_TEST

/* drm_ioctl copies _IOC_SIZE bytes: a shorter (older) drm_amdgpu_info is
 * zero-extended, so its missing union reads as zeros. */
START_TEST(test_short_info_struct_is_zero_extended)
{
	uint32_t v = 0;
	struct drm_amdgpu_info req;
	memset(&req, 0, sizeof(req));
	req.return_pointer = (uintptr_t)&v;
	req.return_size = sizeof(v);
	req.query = AMDGPU_INFO_HW_IP_COUNT;
	req.query_hw_ip.type = AMDGPU_HW_IP_DMA; /* beyond the 16 bytes passed */
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOW(DRM_COMMAND_BASE + DRM_AMDGPU_INFO, uint64_t[2]), &req), 0);
	ck_assert_uint_eq(v, 1); /* type 0 = GFX: one block */
}
END_TEST

START_TEST(test_get_cap_prime)
{
	struct drm_get_cap cap = { .capability = DRM_CAP_PRIME };
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_GET_CAP, &cap), 0);
	ck_assert_uint_eq(cap.value, DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT);
	cap.capability = 0xFFFF;
	ck_assert_int_eq(kemu_drm_info_ioctl(gpu, DRM_IOCTL_GET_CAP, &cap), -EINVAL);
}
END_TEST

static Suite *drm_info_suite(void)
{
	Suite *s = suite_create("emu_drm_info");
	TCase *tc = tcase_create("drm_info");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_version_reports_amdgpu_3);
	tcase_add_test(tc, test_version_honours_short_buffers);
	tcase_add_test(tc, test_accel_working);
	tcase_add_test(tc, test_dev_info_matches_gpu);
	tcase_add_test(tc, test_dev_info_truncated_to_return_size);
	tcase_add_test(tc, test_unknown_query_is_einval);
	tcase_add_test(tc, test_zero_return_size_is_einval);
	tcase_add_test(tc, test_read_gb_addr_config);
	tcase_add_test(tc, test_vram_gtt_and_memory);
	tcase_add_test(tc, test_fw_version_mec);
	tcase_add_test(tc, test_hw_ip_count_and_info);
	tcase_add_test(tc, test_bo_ioctls_are_enosys);
	tcase_add_test(tc, test_render_node_refuses_auth_ioctls);
	tcase_add_test(tc, test_syncobj_is_enosys_not_eacces);
	tcase_add_test(tc, test_driver_ioctl_hole_is_einval);
	tcase_add_test(tc, test_null_gpu_or_argument_is_rejected);
	tcase_add_test(tc, test_short_info_struct_is_zero_extended);
	tcase_add_test(tc, test_get_cap_prime);
	suite_add_tcase(s, tc);
	return s;
}

HL_CHECK_MAIN(drm_info_suite)
