/*
 * test_enum_record.c - what a record keeps of a broken invariant and of
 * findings (enum/record.c): a violation's name, detail and trace, and one
 * finding per kind (a second of the same kind is not kept again).  On
 * clean code no state breaks an invariant, so only this test reaches it.
 */
#include "check.h"

#include <string.h>

#include "../../enum/enum.h"

int main(void)
{
	struct enum_record r;
	memset(&r, 0, sizeof r);
	enum_record_violation(&r, "capacity", "n1 over allocatable cpu",
			      "1. default/a bind n1");
	CHECK_EQ(r.n_viol, 1);
	CHECK_STR(r.viol_name[0], "capacity");
	CHECK_STR(r.viol_detail[0], "n1 over allocatable cpu");
	CHECK_STR(r.viol_trace[0], "1. default/a bind n1");
	enum_record_finding(&r, "worse-final", "first");
	enum_record_finding(&r, "worse-final", "second");
	enum_record_finding(&r, "greedy-gap", "gap");
	CHECK_EQ(r.n_find, 2);
	CHECK_STR(r.find_kind[0], "worse-final");
	CHECK_STR(r.find_detail[0], "first");
	CHECK_STR(r.find_kind[1], "greedy-gap");
	enum_record_release(&r);
	return check_done("test_enum_record");
}
