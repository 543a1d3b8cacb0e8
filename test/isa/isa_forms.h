/*
 * The host-model suites' common end (test_isa_vop1.c, vop2.c, vopc.c):
 * each has a table of instruction forms (a struct with an `enc` member: 0
 * e32, 1 e64, 2 SDWA, 3 DPP) and a check() that runs one form on the
 * interpreter and counts the lanes whose result differs from its host
 * model, printing the first few.  One Check test per encoding runs every
 * form of it.  Include after hl_check.h.
 */
#ifndef ISA_FORMS_H
#define ISA_FORMS_H

#include <stddef.h>

/* Fails the running test when forms[] has no form of the encoding, or when
 * any of them differs from the model. */
#define HX_FORMS_MATCH_MODEL(forms, check_fn, encoding)                                   \
	do {                                                                              \
		unsigned bad_ = 0, n_ = 0;                                                \
		for (size_t i_ = 0; i_ < sizeof(forms) / sizeof((forms)[0]); i_++) {      \
			if ((forms)[i_].enc != (encoding))                                \
				continue;                                                 \
			bad_ += check_fn(&(forms)[i_]);                                   \
			n_++;                                                             \
		}                                                                         \
		ck_assert_msg(n_ > 0, "no forms of encoding %d", (int)(encoding));        \
		ck_assert_msg(bad_ == 0, "%u results differ from the model (first ones above)", \
			      bad_);                                                      \
	} while (0)

/* A Check test named name that runs every form of the encoding. */
#define HX_FORMS_TEST(name, forms, check_fn, encoding)                                    \
	START_TEST(name) { HX_FORMS_MATCH_MODEL(forms, check_fn, encoding); }             \
	END_TEST

#endif
