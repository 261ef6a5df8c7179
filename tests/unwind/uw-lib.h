/* SPDX-License-Identifier: MIT */
/* The shared library of the unwinding workload. */
unsigned long uw_lib_work(unsigned long x, int n);
