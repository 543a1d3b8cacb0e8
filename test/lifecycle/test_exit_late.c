/*
 * The program of lifecycle_exit's "late" case (test_exit.c): argv[1] is the
 * runtime library to dlopen.  Everything happens in exit_late.c, a
 * DT_NEEDED library of this program: main arms it and returns.
 */
#include <stdio.h>
#include <stdlib.h>

#include "exit_late.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		return EXIT_FAILURE;
	return lc_exit_late_arm(argv[1]);
}
