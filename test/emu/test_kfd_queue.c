/*
 * CREATE_QUEUE and friends on the kfdemu driver model: one test per
 * validation rule of the kernel (kfd_chardev.c set_queue_properties_from_user,
 * kfd_queue.c kfd_queue_acquire_buffers, the process queue manager), each
 * starting from a queue that the kernel accepts and breaking one field.
 */
#include "emu_fixture.h"

/* Buffers of a valid AQL queue, shared by every test. */
struct qbufs {
	uint64_t ring, rwptr, eop, cwsr;
	uint64_t ring_h, rwptr_h, eop_h, cwsr_h;
	uint32_t cwsr_size;
};
static struct qbufs Q;

static void q_setup_preset(const char *preset)
{
	emu_setup_preset(preset, 1, true);
	Q.ring = emu_buffer(0x10000, KFD_ALLOC_GTT, &Q.ring_h);
	Q.rwptr = emu_buffer(0x1000, KFD_ALLOC_GTT, &Q.rwptr_h);
	Q.eop = emu_buffer(E.gpu->eop_buffer_size, KFD_ALLOC_VRAM, &Q.eop_h);
	Q.cwsr_size = E.gpu->cwsr_size;
	uint64_t total = ((uint64_t)Q.cwsr_size + E.gpu->debug_memory_size) * E.gpu->num_xcc;
	total = (total + 0xFFF) & ~0xFFFull;
	Q.cwsr = emu_buffer(total, KFD_ALLOC_GTT, &Q.cwsr_h);
}

static void q_setup(void)
{
	q_setup_preset("mi210");
}

static void q_setup_mi300x(void)
{
	q_setup_preset("mi300x");
}

static void q_args(struct kfd_args_create_queue *a)
{
	memset(a, 0, sizeof(*a));
	a->ring_base_address = Q.ring;
	a->ring_size = 0x10000;
	a->write_pointer_address = Q.rwptr + 0x38; /* amd_queue_t write_dispatch_id */
	a->read_pointer_address = Q.rwptr + 0x80;  /* read_dispatch_id */
	a->gpu_id = E.gpu_id;
	a->queue_type = KFD_QUEUE_TYPE_COMPUTE_AQL;
	a->queue_percentage = 100;
	a->queue_priority = 7;
	a->eop_buffer_address = Q.eop;
	a->eop_buffer_size = E.gpu->eop_buffer_size;
	a->ctx_save_restore_address = Q.cwsr;
	a->ctx_save_restore_size = Q.cwsr_size;
	a->ctl_stack_size = E.gpu->ctl_stack_size;
}

static long create(struct kfd_args_create_queue *a)
{
	return kio(KFD_IOCTL_CREATE_QUEUE, a);
}

#define EXPECT_CREATE(expr_mutation, err)                                      \
	do {                                                                   \
		struct kfd_args_create_queue a;                                \
		q_args(&a);                                                    \
		expr_mutation;                                                 \
		long r = create(&a);                                           \
		ck_assert_msg(r == (err), "CREATE_QUEUE returned %ld, expected %d", r, (err)); \
	} while (0)

START_TEST(valid_queue_is_created)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	ck_assert_uint_eq(a.queue_id, 0);
}
END_TEST

START_TEST(doorbell_offset_encodes_type_gpu_and_slot)
{
	struct kfd_args_create_queue a, b;
	q_args(&a);
	q_args(&b);
	ck_assert_int_eq(create(&a), 0);
	ck_assert_int_eq(create(&b), 0);
	uint64_t base = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(E.gpu_id);
	ck_assert_msg(a.doorbell_offset == base, "first doorbell 0x%llx, expected 0x%llx",
		      (unsigned long long)a.doorbell_offset, (unsigned long long)base);
	ck_assert_msg(b.doorbell_offset == base + 8, "second doorbell 0x%llx, expected 0x%llx",
		      (unsigned long long)b.doorbell_offset, (unsigned long long)base + 8);
	ck_assert_uint_eq(b.queue_id, 1);
	struct kemu_queue_info info;
	ck_assert_int_eq(kemu_queue_info(E.p, b.queue_id, &info), 0);
	ck_assert_uint_eq(info.doorbell_index, 1);
	ck_assert_ptr_nonnull(kemu_doorbell_slice(E.p, E.gpu_id));
}
END_TEST

START_TEST(percentage_over_100_is_einval)
{
	EXPECT_CREATE(a.queue_percentage = 101, -EINVAL);
}
END_TEST

START_TEST(priority_over_15_is_einval)
{
	EXPECT_CREATE(a.queue_priority = 16, -EINVAL);
}
END_TEST

START_TEST(ring_address_outside_user_space_is_efault)
{
	EXPECT_CREATE(a.ring_base_address = 0xFFFF800000000000ull, -EFAULT);
}
END_TEST

START_TEST(ring_size_not_power_of_two_is_einval)
{
	EXPECT_CREATE(a.ring_size = 0x3000, -EINVAL);
}
END_TEST

START_TEST(small_ring_size_is_clamped_and_written_back)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	a.ring_size = 512;
	ck_assert_int_eq(create(&a), 0);
	ck_assert_uint_eq(a.ring_size, KFD_QUEUE_RING_SIZE_MIN);
}
END_TEST

START_TEST(rptr_outside_user_space_is_efault)
{
	EXPECT_CREATE(a.read_pointer_address = 0xFFFFFFFFFFFFF000ull, -EFAULT);
}
END_TEST

START_TEST(wptr_outside_user_space_is_efault)
{
	EXPECT_CREATE(a.write_pointer_address = 0x800000000000ull, -EFAULT);
}
END_TEST

START_TEST(eop_outside_user_space_is_efault)
{
	EXPECT_CREATE(a.eop_buffer_address = 0x800000000000ull, -EFAULT);
}
END_TEST

START_TEST(ctx_save_outside_user_space_is_efault)
{
	EXPECT_CREATE(a.ctx_save_restore_address = 0x800000000000ull, -EFAULT);
}
END_TEST

START_TEST(unknown_queue_type_is_enotsupp)
{
	EXPECT_CREATE(a.queue_type = 5, -KFD_ENOTSUPP);
}
END_TEST

/* kfdemu difference: the kernel accepts a PM4 compute queue, but kfdemu's
 * CP runs AQL rings only, so it refuses one instead of never running it */
START_TEST(pm4_compute_queue_is_refused)
{
	EXPECT_CREATE(a.queue_type = KFD_QUEUE_TYPE_COMPUTE, -EOPNOTSUPP);
	EXPECT_CREATE((a.queue_type = KFD_QUEUE_TYPE_COMPUTE, a.queue_priority = 16), -EINVAL);
}
END_TEST

START_TEST(unknown_gpu_id_is_einval)
{
	EXPECT_CREATE(a.gpu_id = E.gpu_id ^ 0x8000, -EINVAL);
}
END_TEST

START_TEST(before_acquire_vm_is_esrch)
{
	emu_teardown();
	emu_setup_no_vm();
	struct kfd_args_create_queue a;
	memset(&a, 0, sizeof(a));
	a.gpu_id = E.gpu_id;
	a.ring_size = 0x1000;
	a.queue_percentage = 100;
	a.queue_type = KFD_QUEUE_TYPE_COMPUTE_AQL;
	long r = create(&a);
	ck_assert_msg(r == -ESRCH, "CREATE_QUEUE before ACQUIRE_VM returned %ld, expected %d", r,
		      -ESRCH);
	emu_teardown();
	q_setup(); /* the checked teardown expects a full fixture */
}
END_TEST

START_TEST(sdma_engine_id_out_of_range_is_einval)
{
	uint32_t n = E.gpu->num_sdma_engines + E.gpu->num_sdma_xgmi_engines;
	EXPECT_CREATE((a.queue_type = KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, a.sdma_engine_id = n), -EINVAL);
}
END_TEST

/* The kernel compares the u32 id with n - 1: the largest id is refused
 * too, not wrapped into range. */
START_TEST(sdma_engine_id_max_is_einval)
{
	EXPECT_CREATE((a.queue_type = KFD_QUEUE_TYPE_SDMA_BY_ENG_ID, a.sdma_engine_id = UINT32_MAX),
		      -EINVAL);
}
END_TEST

START_TEST(wptr_in_a_two_page_mapping_is_einval)
{
	uint64_t two = emu_buffer(0x2000, KFD_ALLOC_GTT, NULL);
	EXPECT_CREATE(a.write_pointer_address = two + 0x38, -EINVAL);
}
END_TEST

START_TEST(rptr_not_mapped_is_einval)
{
	EXPECT_CREATE(a.read_pointer_address = emu_va(0x1000), -EINVAL);
}
END_TEST

START_TEST(rptr_past_the_first_page_of_its_mapping_is_einval)
{
	/* the mapping holding the rptr must start at the rptr's page */
	EXPECT_CREATE(a.read_pointer_address = Q.ring + 0x1000, -EINVAL);
}
END_TEST

START_TEST(ring_mapping_larger_than_ring_is_einval)
{
	EXPECT_CREATE(a.ring_size = 0x8000, -EINVAL);
}
END_TEST

START_TEST(ring_not_at_mapping_start_is_einval)
{
	EXPECT_CREATE((a.ring_base_address = Q.ring + 0x8000, a.ring_size = 0x8000), -EINVAL);
}
END_TEST

START_TEST(eop_size_not_the_nodes_is_einval)
{
	EXPECT_CREATE(a.eop_buffer_size = 2 * E.gpu->eop_buffer_size, -EINVAL);
}
END_TEST

START_TEST(eop_not_mapped_is_einval)
{
	EXPECT_CREATE(a.eop_buffer_address = emu_va(0x1000), -EINVAL);
}
END_TEST

START_TEST(no_eop_buffer_is_accepted)
{
	EXPECT_CREATE((a.eop_buffer_address = 0, a.eop_buffer_size = 0), 0);
}
END_TEST

START_TEST(ctl_stack_size_not_the_nodes_is_einval)
{
	EXPECT_CREATE(a.ctl_stack_size = E.gpu->ctl_stack_size + 0x1000, -EINVAL);
}
END_TEST

START_TEST(ctx_save_size_below_cwsr_size_is_einval)
{
	EXPECT_CREATE(a.ctx_save_restore_size = E.gpu->cwsr_size - 0x1000, -EINVAL);
}
END_TEST

START_TEST(ctx_save_size_above_cwsr_size_needs_a_matching_mapping)
{
	/* 6.18 relaxation: a larger area is fine, but the mapping must match it */
	EXPECT_CREATE(a.ctx_save_restore_size = E.gpu->cwsr_size + 0x1000, -EINVAL);
}
END_TEST

START_TEST(cwsr_not_mapped_is_einval)
{
	EXPECT_CREATE(a.ctx_save_restore_address = 0, -EINVAL);
}
END_TEST

static long svm_cwsr(void *area, uint64_t size, uint32_t flags)
{
	struct {
		struct kfd_args_svm a;
		struct kfd_svm_attribute attrs[2];
	} s = { .a = { .start_addr = (uintptr_t)area, .size = size, .op = KFD_SVM_OP_SET_ATTR,
		       .nattr = 2 },
		.attrs = { { 2 /* ACCESS */, E.gpu_id }, { 5 /* SET_FLAGS */, flags } } };
	return kio(KFD_IOCTL_SVM(2), &s);
}

START_TEST(cwsr_in_an_always_mapped_svm_range_is_accepted)
{
	uint64_t total = ((uint64_t)Q.cwsr_size + E.gpu->debug_memory_size) * E.gpu->num_xcc;
	total = (total + 0xFFF) & ~0xFFFull;
	void *area = mmap(NULL, total, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(area, MAP_FAILED);
	ck_assert_int_eq(svm_cwsr(area, total, KFD_SVM_FLAG_GPU_ALWAYS_MAPPED), 0);
	EXPECT_CREATE(a.ctx_save_restore_address = (uintptr_t)area, 0);
	munmap(area, total);
}
END_TEST

START_TEST(cwsr_in_an_svm_range_without_always_mapped_is_einval)
{
	uint64_t total = ((uint64_t)Q.cwsr_size + E.gpu->debug_memory_size) * E.gpu->num_xcc;
	total = (total + 0xFFF) & ~0xFFFull;
	void *area = mmap(NULL, total, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ck_assert_ptr_ne(area, MAP_FAILED);
	ck_assert_int_eq(svm_cwsr(area, total, KFD_SVM_FLAG_GPU_EXEC), 0);
	EXPECT_CREATE(a.ctx_save_restore_address = (uintptr_t)area, -EINVAL);
	munmap(area, total);
}
END_TEST

START_TEST(sdma_queue_needs_no_eop_or_cwsr)
{
	EXPECT_CREATE((a.queue_type = KFD_QUEUE_TYPE_SDMA, a.ctl_stack_size = 0,
		       a.ctx_save_restore_address = 0, a.eop_buffer_size = 1), 0);
}
END_TEST

START_TEST(queue_limit_is_enospc)
{
	for (uint32_t i = 0; i < E.gpu->max_queues; i++) {
		struct kfd_args_create_queue q;
		q_args(&q);
		long r = create(&q);
		ck_assert_msg(r == 0, "queue %u: CREATE_QUEUE returned %ld", i, r);
	}
	EXPECT_CREATE((void)0, -ENOSPC);
}
END_TEST

START_TEST(pre_1_17_88_byte_struct_is_accepted)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	unsigned long cmd = _IOC(_IOC_READ | _IOC_WRITE, KFD_IOCTL_TYPE, 0x02,
				 KFD_ARGS_CREATE_QUEUE_SIZE_V1);
	a.sdma_engine_id = 0xDEAD; /* beyond the 88 bytes: never read */
	ck_assert_int_eq(kio(cmd, &a), 0);
	ck_assert_uint_eq(a.sdma_engine_id, 0xDEAD);
}
END_TEST

START_TEST(unmap_of_a_queue_buffer_is_ebusy)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	long r = emu_unmap(Q.ring_h);
	ck_assert_msg(r == -EBUSY, "UNMAP of the ring returned %ld, expected %d", r, -EBUSY);
	struct kfd_args_destroy_queue d = { .queue_id = a.queue_id };
	ck_assert_int_eq(kio(KFD_IOCTL_DESTROY_QUEUE, &d), 0);
	ck_assert_int_eq(emu_unmap(Q.ring_h), 0);
}
END_TEST

START_TEST(destroy_of_unknown_queue_is_einval)
{
	struct kfd_args_destroy_queue d = { .queue_id = 3 };
	ck_assert_int_eq(kio(KFD_IOCTL_DESTROY_QUEUE, &d), -EINVAL);
}
END_TEST

START_TEST(destroyed_queue_id_is_reused)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	struct kfd_args_destroy_queue d = { .queue_id = a.queue_id };
	ck_assert_int_eq(kio(KFD_IOCTL_DESTROY_QUEUE, &d), 0);
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	ck_assert_uint_eq(a.queue_id, 0);
}
END_TEST

START_TEST(update_of_unknown_queue_is_efault)
{
	struct kfd_args_update_queue u = { .queue_id = 9, .ring_base_address = Q.ring,
					   .ring_size = 0x10000, .queue_percentage = 100 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), -EFAULT);
}
END_TEST

START_TEST(update_with_bad_percentage_is_einval)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	struct kfd_args_update_queue u = { .queue_id = a.queue_id, .ring_base_address = Q.ring,
					   .ring_size = 0x10000, .queue_percentage = 101 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), -EINVAL);
}
END_TEST

START_TEST(update_to_percentage_zero_deactivates)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	struct kfd_args_update_queue u = { .queue_id = a.queue_id, .ring_base_address = Q.ring,
					   .ring_size = 0x10000, .queue_percentage = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	struct kemu_queue_info info;
	ck_assert_int_eq(kemu_queue_info(E.p, a.queue_id, &info), 0);
	ck_assert(!info.active);
}
END_TEST

START_TEST(cu_mask_of_zero_bits_is_einval)
{
	uint32_t mask = 0xF;
	struct kfd_args_set_cu_mask c = { .queue_id = 0, .num_cu_mask = 0,
					  .cu_mask_ptr = (uintptr_t)&mask };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_CU_MASK, &c), -EINVAL);
}
END_TEST

START_TEST(cu_mask_not_multiple_of_32_is_einval)
{
	uint32_t mask[2] = { 0xF, 0xF };
	struct kfd_args_set_cu_mask c = { .queue_id = 0, .num_cu_mask = 33,
					  .cu_mask_ptr = (uintptr_t)mask };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_CU_MASK, &c), -EINVAL);
}
END_TEST

START_TEST(cu_mask_from_bad_pointer_is_efault)
{
	struct kfd_args_set_cu_mask c = { .queue_id = 0, .num_cu_mask = 64, .cu_mask_ptr = 16 };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_CU_MASK, &c), -EFAULT);
}
END_TEST

START_TEST(cu_mask_is_stored_on_the_queue)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	uint32_t mask[4] = { 0xFFFF, 0x1, 0, 0x80000000u };
	struct kfd_args_set_cu_mask c = { .queue_id = a.queue_id, .num_cu_mask = 128,
					  .cu_mask_ptr = (uintptr_t)mask };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_CU_MASK, &c), 0);
	struct kemu_queue_info info;
	ck_assert_int_eq(kemu_queue_info(E.p, a.queue_id, &info), 0);
	ck_assert_uint_eq(info.cu_mask_bits, 128);
	ck_assert_uint_eq(info.cu_mask[3], 0x80000000u);
}
END_TEST

START_TEST(runtime_enable_after_a_queue_is_eexist)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	struct kfd_args_runtime_enable r = { .mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE };
	ck_assert_int_eq(kio(KFD_IOCTL_RUNTIME_ENABLE, &r), -EEXIST);
}
END_TEST

START_TEST(xnack_change_with_queues_is_ebusy)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	struct kfd_args_set_xnack_mode x = { .xnack_enabled = 1 };
	ck_assert_int_eq(kio(KFD_IOCTL_SET_XNACK_MODE, &x), -EBUSY);
}
END_TEST

START_TEST(injected_create_queue_failure_is_enomem)
{
	ck_assert_int_eq(kemu_machine_set_fail(E.m, "ioctl:CREATE_QUEUE:2"), 0);
	EXPECT_CREATE((void)0, 0);
	EXPECT_CREATE((void)0, -ENOMEM);
	EXPECT_CREATE((void)0, 0);
}
END_TEST

static long gws(uint32_t queue_id, uint32_t num, struct kfd_args_alloc_queue_gws *out)
{
	struct kfd_args_alloc_queue_gws g = { .queue_id = queue_id, .num_gws = num,
					      .first_gws = 0xBAD };
	long r = kio(KFD_IOCTL_ALLOC_QUEUE_GWS, &g);
	if (out)
		*out = g;
	return r;
}

static uint32_t new_queue(void)
{
	struct kfd_args_create_queue a;
	q_args(&a);
	ck_assert_int_eq(create(&a), 0);
	return a.queue_id;
}

static bool queue_has_gws(uint32_t id)
{
	struct kemu_queue_info info;
	ck_assert_int_eq(kemu_queue_info(E.p, id, &info), 0);
	return info.gws;
}

START_TEST(gws_goes_to_one_queue_of_the_process)
{
	uint32_t q0 = new_queue(), q1 = new_queue();
	struct kfd_args_alloc_queue_gws g;
	ck_assert_int_eq(gws(q0, E.gpu->num_gws, &g), 0);
	ck_assert_uint_eq(g.first_gws, 0);
	ck_assert(queue_has_gws(q0));
	ck_assert_int_eq(gws(q1, E.gpu->num_gws, NULL), -EBUSY);
	ck_assert(!queue_has_gws(q1));
	ck_assert_int_eq(gws(q0, 0, NULL), 0); /* release */
	ck_assert(!queue_has_gws(q0));
	ck_assert_int_eq(gws(q1, 1, NULL), 0);
	ck_assert(queue_has_gws(q1));
}
END_TEST

START_TEST(gws_of_an_unknown_queue_is_einval)
{
	struct kfd_args_alloc_queue_gws g;
	ck_assert_int_eq(gws(5, 64, &g), -EINVAL);
	ck_assert_uint_eq(g.first_gws, 0xBAD); /* left as passed */
}
END_TEST

START_TEST(gws_release_without_gws_is_einval)
{
	uint32_t q0 = new_queue();
	ck_assert_int_eq(gws(q0, 0, NULL), -EINVAL);
}
END_TEST

START_TEST(destroying_the_gws_queue_frees_the_gws)
{
	uint32_t q0 = new_queue(), q1 = new_queue();
	ck_assert_int_eq(gws(q0, 64, NULL), 0);
	struct kfd_args_destroy_queue d = { .queue_id = q0 };
	ck_assert_int_eq(kio(KFD_IOCTL_DESTROY_QUEUE, &d), 0);
	ck_assert_int_eq(gws(q1, 64, NULL), 0);
}
END_TEST

START_TEST(gws_on_a_device_without_gws_is_enodev)
{
	/* a part whose MEC firmware is too old for GWS: num_gws 0 in topology */
	((struct kemu_topology *)kemu_machine_topology(E.m))->gpus[0].num_gws = 0;
	uint32_t q0 = new_queue();
	ck_assert_int_eq(gws(q0, 64, NULL), -ENODEV);
}
END_TEST

static long wave_state(uint32_t queue_id, void *stack, struct kfd_args_get_queue_wave_state *out)
{
	struct kfd_args_get_queue_wave_state w = { .queue_id = queue_id,
						   .ctl_stack_address = (uintptr_t)stack,
						   .ctl_stack_used_size = 7, .save_area_used_size = 7 };
	long r = kio(KFD_IOCTL_GET_QUEUE_WAVE_STATE, &w);
	*out = w;
	return r;
}

START_TEST(wave_state_of_an_inactive_queue_is_empty)
{
	uint32_t q0 = new_queue();
	struct kfd_args_update_queue u = { .queue_id = q0, .ring_base_address = Q.ring,
					   .ring_size = 0x10000, .queue_percentage = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	uint32_t hdr[4];
	memset(hdr, 0xFF, sizeof(hdr));
	struct kfd_args_get_queue_wave_state w;
	ck_assert_int_eq(wave_state(q0, hdr, &w), 0);
	ck_assert_uint_eq(w.ctl_stack_used_size, 0);
	ck_assert_uint_eq(w.save_area_used_size, 0);
	ck_assert_uint_eq(hdr[0], E.gpu->ctl_stack_size); /* control_stack_offset */
	ck_assert_uint_eq(hdr[1], 0);                     /* control_stack_size */
	ck_assert_uint_eq(hdr[2], E.gpu->ctl_stack_size); /* wave_state_offset */
	ck_assert_uint_eq(hdr[3], 0);                     /* wave_state_size */
	ck_assert_int_eq(wave_state(q0, (void *)8, &w), -EFAULT);
}
END_TEST

START_TEST(wave_state_of_an_active_or_unknown_queue_fails)
{
	uint32_t hdr[4];
	struct kfd_args_get_queue_wave_state w;
	uint32_t q0 = new_queue();
	ck_assert_int_eq(wave_state(q0, hdr, &w), -EINVAL);
	ck_assert_int_eq(wave_state(q0 + 1, hdr, &w), -EFAULT);
	struct kfd_args_create_queue a;
	q_args(&a);
	a.queue_type = KFD_QUEUE_TYPE_SDMA;
	a.ctl_stack_size = 0;
	a.ctx_save_restore_address = 0;
	ck_assert_int_eq(create(&a), 0);
	struct kfd_args_update_queue u = { .queue_id = a.queue_id, .ring_base_address = Q.ring,
					   .ring_size = 0x10000, .queue_percentage = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	ck_assert_int_eq(wave_state(a.queue_id, hdr, &w), -EINVAL); /* not compute */
}
END_TEST

/* GC 9.4.3: a header at the start of each XCC's context-save area. */
START_TEST(wave_state_has_a_header_per_xcc_on_mi300x)
{
	ck_assert_uint_gt(E.gpu->num_xcc, 1);
	uint32_t q0 = new_queue();
	struct kfd_args_update_queue u = { .queue_id = q0, .ring_base_address = Q.ring,
					   .ring_size = 0x10000, .queue_percentage = 0 };
	ck_assert_int_eq(kio(KFD_IOCTL_UPDATE_QUEUE, &u), 0);
	size_t len = (size_t)Q.cwsr_size * E.gpu->num_xcc;
	uint8_t *area = malloc(len);
	ck_assert_ptr_nonnull(area);
	memset(area, 0xFF, len);
	struct kfd_args_get_queue_wave_state w;
	ck_assert_int_eq(wave_state(q0, area, &w), 0);
	for (uint32_t x = 0; x < E.gpu->num_xcc; x++) {
		uint32_t hdr[4];
		memcpy(hdr, area + (size_t)Q.cwsr_size * x, sizeof(hdr));
		ck_assert_uint_eq(hdr[0], E.gpu->ctl_stack_size);
		ck_assert_uint_eq(hdr[1], 0);
		ck_assert_uint_eq(hdr[2], E.gpu->ctl_stack_size);
		ck_assert_uint_eq(hdr[3], 0);
	}
	ck_assert_uint_eq(area[16], 0xFF); /* only the 16-byte headers */
	free(area);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("kfdemu_queue");
	TCase *tc = tcase_create("create_queue");
	tcase_add_checked_fixture(tc, q_setup, emu_teardown);
	tcase_add_test(tc, valid_queue_is_created);
	tcase_add_test(tc, doorbell_offset_encodes_type_gpu_and_slot);
	tcase_add_test(tc, percentage_over_100_is_einval);
	tcase_add_test(tc, priority_over_15_is_einval);
	tcase_add_test(tc, ring_address_outside_user_space_is_efault);
	tcase_add_test(tc, ring_size_not_power_of_two_is_einval);
	tcase_add_test(tc, small_ring_size_is_clamped_and_written_back);
	tcase_add_test(tc, rptr_outside_user_space_is_efault);
	tcase_add_test(tc, wptr_outside_user_space_is_efault);
	tcase_add_test(tc, eop_outside_user_space_is_efault);
	tcase_add_test(tc, ctx_save_outside_user_space_is_efault);
	tcase_add_test(tc, unknown_queue_type_is_enotsupp);
	tcase_add_test(tc, pm4_compute_queue_is_refused);
	tcase_add_test(tc, unknown_gpu_id_is_einval);
	tcase_add_test(tc, before_acquire_vm_is_esrch);
	tcase_add_test(tc, sdma_engine_id_out_of_range_is_einval);
	tcase_add_test(tc, sdma_engine_id_max_is_einval);
	tcase_add_test(tc, wptr_in_a_two_page_mapping_is_einval);
	tcase_add_test(tc, rptr_not_mapped_is_einval);
	tcase_add_test(tc, rptr_past_the_first_page_of_its_mapping_is_einval);
	tcase_add_test(tc, ring_mapping_larger_than_ring_is_einval);
	tcase_add_test(tc, ring_not_at_mapping_start_is_einval);
	tcase_add_test(tc, eop_size_not_the_nodes_is_einval);
	tcase_add_test(tc, eop_not_mapped_is_einval);
	tcase_add_test(tc, no_eop_buffer_is_accepted);
	tcase_add_test(tc, ctl_stack_size_not_the_nodes_is_einval);
	tcase_add_test(tc, ctx_save_size_below_cwsr_size_is_einval);
	tcase_add_test(tc, ctx_save_size_above_cwsr_size_needs_a_matching_mapping);
	tcase_add_test(tc, cwsr_not_mapped_is_einval);
	tcase_add_test(tc, cwsr_in_an_always_mapped_svm_range_is_accepted);
	tcase_add_test(tc, cwsr_in_an_svm_range_without_always_mapped_is_einval);
	tcase_add_test(tc, sdma_queue_needs_no_eop_or_cwsr);
	tcase_add_test(tc, queue_limit_is_enospc);
	tcase_add_test(tc, pre_1_17_88_byte_struct_is_accepted);
	tcase_add_test(tc, unmap_of_a_queue_buffer_is_ebusy);
	tcase_add_test(tc, destroy_of_unknown_queue_is_einval);
	tcase_add_test(tc, destroyed_queue_id_is_reused);
	tcase_add_test(tc, update_of_unknown_queue_is_efault);
	tcase_add_test(tc, update_with_bad_percentage_is_einval);
	tcase_add_test(tc, update_to_percentage_zero_deactivates);
	tcase_add_test(tc, cu_mask_of_zero_bits_is_einval);
	tcase_add_test(tc, cu_mask_not_multiple_of_32_is_einval);
	tcase_add_test(tc, cu_mask_from_bad_pointer_is_efault);
	tcase_add_test(tc, cu_mask_is_stored_on_the_queue);
	tcase_add_test(tc, runtime_enable_after_a_queue_is_eexist);
	tcase_add_test(tc, xnack_change_with_queues_is_ebusy);
	tcase_add_test(tc, injected_create_queue_failure_is_enomem);
	tcase_add_test(tc, gws_goes_to_one_queue_of_the_process);
	tcase_add_test(tc, gws_of_an_unknown_queue_is_einval);
	tcase_add_test(tc, gws_release_without_gws_is_einval);
	tcase_add_test(tc, destroying_the_gws_queue_frees_the_gws);
	tcase_add_test(tc, gws_on_a_device_without_gws_is_enodev);
	tcase_add_test(tc, wave_state_of_an_inactive_queue_is_empty);
	tcase_add_test(tc, wave_state_of_an_active_or_unknown_queue_fails);
	suite_add_tcase(s, tc);
	TCase *x = tcase_create("mi300x");
	tcase_add_checked_fixture(x, q_setup_mi300x, emu_teardown);
	tcase_add_test(x, wave_state_has_a_header_per_xcc_on_mi300x);
	suite_add_tcase(s, x);
	return s;
}

HL_CHECK_MAIN(suite)
