/*
 * The worker pool of one CP: host threads that run the independent
 * workgroups of a dispatch beside the slot thread that submitted it (the
 * GPU's compute units, min(ncpus, 4) of them counting the submitter).
 *
 * A job is on pool->jobs while it runs.  Every participant (the submitter
 * first, then workers that find the job) takes a scratch slot number from
 * job->slots; participants beyond job->max_slots leave at once, so no two
 * running workgroups share a scratch slot.  Workgroups are claimed with an
 * atomic counter; the first failure sets job->failed and moves the counter
 * past the end so nobody claims more.  The submitter unlinks the job and
 * waits (pool->left) until no worker is inside before it returns, so the
 * job may live on its stack.
 *
 * Workers are created lazily, on the first job with more than one
 * workgroup, and park on pool->work (no CPU) while there is nothing to do;
 * kemu_cp_pool_fini joins them when the CP goes away, and forgets the
 * programs the CP's dispatches cached in emu/isa under the pool's address.
 * A participant keeps its slot number for the whole job, and a worker
 * joins a job at most once (it leaves only when no workgroup is left), so
 * slot numbers stay below 1 + max_threads: cp_dispatch.c keys a worker
 * TLB on them.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "cp_priv.h"

#ifdef KEMU_CP_HAVE_ISA
#include "isa.h"
#endif

static void job_participate(struct kemu_cp_job *job)
{
	/* relaxed: the slot number is all that is shared; the workgroups'
	 * memory effects are published by the pool lock when the participant
	 * leaves (pairs with the submitter's lock before it retires) */
	unsigned slot = atomic_fetch_add_explicit(&job->slots, 1, memory_order_relaxed);
	if (slot >= job->max_slots)
		return;
	if (job->participate) {
		job->participate(job, slot);
		return;
	}
	for (;;) {
		uint64_t wg = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
		if (wg >= job->total)
			return;
		int r = job->run(job, wg, slot);
		if (r > 0)
			return; /* preempted: the rest stays unclaimed */
		if (r) {
			atomic_store_explicit(&job->failed, true, memory_order_relaxed);
			atomic_store_explicit(&job->next, job->total, memory_order_relaxed);
			return;
		}
	}
}

/* A job with workgroups left and scratch slots free.  Caller holds lock. */
static struct kemu_cp_job *pool_find_job(struct kemu_cp_pool *pool)
{
	for (struct kemu_cp_job *j = pool->jobs; j; j = j->next_job) {
		if (atomic_load_explicit(&j->next, memory_order_relaxed) < j->total &&
		    atomic_load_explicit(&j->slots, memory_order_relaxed) < j->max_slots)
			return j;
	}
	return NULL;
}

static void *pool_worker(void *arg)
{
	struct kemu_cp_pool *pool = arg;
	kemu_gpu_thread_set_name("CP");
	pthread_mutex_lock(&pool->lock);
	while (!pool->stopping) {
		struct kemu_cp_job *job = pool_find_job(pool);
		if (!job) {
			pthread_cond_wait(&pool->work, &pool->lock);
			continue;
		}
		job->workers++;
		pthread_mutex_unlock(&pool->lock);
		kemu_gpu_section_begin(); /* the workgroups' translations */
		job_participate(job);
		kemu_gpu_section_end();
		pthread_mutex_lock(&pool->lock);
		job->workers--;
		pthread_cond_broadcast(&pool->left);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

void kemu_cp_pool_init(struct kemu_cp_pool *pool)
{
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->left, NULL);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	unsigned helpers = (unsigned)(ncpu < KEMU_CP_MAX_WORKERS ? ncpu : KEMU_CP_MAX_WORKERS) - 1;
	pool->max_threads = helpers;
}

/* Starts the workers once.  Caller holds pool->lock. */
static void pool_start(struct kemu_cp_pool *pool)
{
	while (pool->n_threads < pool->max_threads) {
		if (pthread_create(&pool->threads[pool->n_threads], NULL, pool_worker, pool))
			break; /* run with fewer workers */
		pool->n_threads++;
	}
}

void kemu_cp_pool_run(struct kemu_cp_pool *pool, struct kemu_cp_job *job)
{
	bool share = job->total > 1 && job->max_slots > 1 && pool->max_threads;
	if (share) {
		pthread_mutex_lock(&pool->lock);
		pool_start(pool);
		job->next_job = pool->jobs;
		pool->jobs = job;
		pthread_cond_broadcast(&pool->work);
		pthread_mutex_unlock(&pool->lock);
	}
	job_participate(job);
	if (!share)
		return;
	pthread_mutex_lock(&pool->lock);
	for (struct kemu_cp_job **pp = &pool->jobs; *pp; pp = &(*pp)->next_job) {
		if (*pp == job) {
			*pp = job->next_job;
			break;
		}
	}
	while (job->workers)
		pthread_cond_wait(&pool->left, &pool->lock);
	pthread_mutex_unlock(&pool->lock);
}

void kemu_cp_pool_fini(struct kemu_cp_pool *pool)
{
	pthread_mutex_lock(&pool->lock);
	pool->stopping = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	for (unsigned i = 0; i < pool->n_threads; i++)
		pthread_join(pool->threads[i], NULL);
	pool->n_threads = 0;
#ifdef KEMU_CP_HAVE_ISA
	/* the CP's decoded programs are cached under its pool (cp_dispatch.c)
	 * and go with it */
	kemu_isa_cache_flush(pool);
#endif
	pthread_cond_destroy(&pool->left);
	pthread_cond_destroy(&pool->work);
	pthread_mutex_destroy(&pool->lock);
}
