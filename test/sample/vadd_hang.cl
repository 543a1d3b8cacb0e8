/* A vadd that never finishes: it spins until the host writes 12345.0f into
 * c[0], which vector_add never does.  vector_add -t must give up with a
 * message, tear the queue down with the wave still running and exit 1:
 * destroying a queue with packets in flight is allowed (HSA spec: their
 * state becomes undefined) and on hardware KFD preempts the waves. */
__kernel void vadd(__global const float *a, __global const float *b,
		   __global float *c, uint n)
{
	volatile __global float *p = c;
	while (p[0] != 12345.0f)
		;
}
