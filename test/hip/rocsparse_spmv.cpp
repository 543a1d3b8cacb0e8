/*
 * A real ROCm library on the emulated GPU: Debian's rocSPARSE computes
 * y = alpha * A * x + beta * y (rocsparse_dcsrmv, CSR, double) for a random
 * 1000 x 900 sparse matrix, without and with the analysis step (its
 * adaptive kernel); the host computes the same product.  Small-integer
 * values make both exact, so the comparison is bit for bit.
 */
#include "hip_test.h"

#include <rocsparse/rocsparse.h>

#define RS_CHECK(call)                                                             \
	do {                                                                       \
		rocsparse_status rs = (call);                                      \
		if (rs != rocsparse_status_success) {                              \
			fprintf(stderr, "%s:%d: %s: rocsparse status %d\n", __FILE__, \
				__LINE__, #call, (int)rs);                         \
			exit(1);                                                   \
		}                                                                  \
	} while (0)

static uint32_t rng = 12345;
static uint32_t next(void)
{
	rng = rng * 1664525u + 1013904223u;
	return rng >> 8;
}

int main(void)
{
	const int m = 1000, n = 900;
	int *row = (int *)malloc((m + 1) * sizeof(int));
	int cap = m * 16, nnz = 0;
	int *col = (int *)malloc(cap * sizeof(int));
	double *val = (double *)malloc(cap * sizeof(double));
	row[0] = 0;
	for (int r = 0; r < m; r++) {
		int per = (int)(next() % 16); /* 0..15 entries, some rows empty */
		int c = (int)(next() % 8);
		for (int k = 0; k < per && c < n; k++) {
			col[nnz] = c;
			val[nnz] = (double)((int)(next() % 19) - 9);
			nnz++;
			c += 1 + (int)(next() % 100);
		}
		row[r + 1] = nnz;
	}
	double *x = (double *)malloc(n * sizeof(double)), *y = (double *)malloc(m * sizeof(double));
	double *ref = (double *)malloc(m * sizeof(double));
	for (int i = 0; i < n; i++)
		x[i] = (double)((int)(next() % 11) - 5);
	for (int i = 0; i < m; i++)
		y[i] = (double)(i % 7);
	const double alpha = 3.0, beta = -2.0;
	for (int r = 0; r < m; r++) {
		double s = 0;
		for (int k = row[r]; k < row[r + 1]; k++)
			s += val[k] * x[col[k]];
		ref[r] = alpha * s + beta * y[r];
	}

	int *d_row, *d_col;
	double *d_val, *d_x, *d_y;
	HT_CHECK(hipMalloc(&d_row, (m + 1) * sizeof(int)));
	HT_CHECK(hipMalloc(&d_col, nnz * sizeof(int)));
	HT_CHECK(hipMalloc(&d_val, nnz * sizeof(double)));
	HT_CHECK(hipMalloc(&d_x, n * sizeof(double)));
	HT_CHECK(hipMalloc(&d_y, m * sizeof(double)));
	HT_CHECK(hipMemcpy(d_row, row, (m + 1) * sizeof(int), hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(d_col, col, nnz * sizeof(int), hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(d_val, val, nnz * sizeof(double), hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(d_x, x, n * sizeof(double), hipMemcpyHostToDevice));
	HT_CHECK(hipMemcpy(d_y, y, m * sizeof(double), hipMemcpyHostToDevice));

	rocsparse_handle handle;
	rocsparse_mat_descr descr;
	RS_CHECK(rocsparse_create_handle(&handle));
	RS_CHECK(rocsparse_create_mat_descr(&descr));
	int ver = 0;
	RS_CHECK(rocsparse_get_version(handle, &ver));
	printf("rocSPARSE %d.%d.%d: %d x %d, %d nonzeros\n", ver / 100000, ver / 100 % 1000,
	       ver % 100, m, n, nnz);
	RS_CHECK(rocsparse_dcsrmv(handle, rocsparse_operation_none, m, n, nnz, &alpha, descr,
				  d_val, d_row, d_col, NULL, d_x, &beta, d_y));
	HT_CHECK(hipDeviceSynchronize());
	HT_CHECK(hipMemcpy(y, d_y, m * sizeof(double), hipMemcpyDeviceToHost));
	for (int r = 0; r < m; r++)
		HT_EXPECT(y[r] == ref[r], "y[%d] = %g, expected %g", r, y[r], ref[r]);

	/* the same with the analysis step (the adaptive kernel) */
	rocsparse_mat_info info;
	RS_CHECK(rocsparse_create_mat_info(&info));
	RS_CHECK(rocsparse_dcsrmv_analysis(handle, rocsparse_operation_none, m, n, nnz, descr,
					   d_val, d_row, d_col, info));
	for (int i = 0; i < m; i++)
		y[i] = (double)(i % 7);
	HT_CHECK(hipMemcpy(d_y, y, m * sizeof(double), hipMemcpyHostToDevice));
	RS_CHECK(rocsparse_dcsrmv(handle, rocsparse_operation_none, m, n, nnz, &alpha, descr,
				  d_val, d_row, d_col, info, d_x, &beta, d_y));
	HT_CHECK(hipMemcpy(y, d_y, m * sizeof(double), hipMemcpyDeviceToHost));
	for (int r = 0; r < m; r++)
		HT_EXPECT(y[r] == ref[r], "adaptive: y[%d] = %g, expected %g", r, y[r], ref[r]);

	RS_CHECK(rocsparse_destroy_mat_info(info));
	RS_CHECK(rocsparse_destroy_mat_descr(descr));
	RS_CHECK(rocsparse_destroy_handle(handle));
	HT_CHECK(hipFree(d_row));
	HT_CHECK(hipFree(d_col));
	HT_CHECK(hipFree(d_val));
	HT_CHECK(hipFree(d_x));
	HT_CHECK(hipFree(d_y));
	free(row);
	free(col);
	free(val);
	free(x);
	free(y);
	free(ref);
	printf("rocsparse: PASS\n");
	return 0;
}
