/*
 * tsan.c — the instrumentation's entry points: g++ -fsanitize=thread makes
 * every load and store of the student's file a call of a __tsan_* function
 * (and the grader's --wrap sends the C library's memory functions here):
 * each access goes to check.c's sim_check_access; the atomics do what they
 * say; the rest has nothing to check.
 *
 * Layer 6, one module with check.c.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/*
 * The instrumentation's entry points. ThreadSanitizer's, not
 * AddressSanitizer's: ASan checks an address once per basic block, so the
 * store of x[i] += y, after the load of x[i], would go unseen; TSan
 * reports both, as a read and a write.
 */
#define HOOKS(n) \
	void __tsan_read##n(void *p); \
	void __tsan_write##n(void *p); \
	void __tsan_unaligned_read##n(void *p); \
	void __tsan_unaligned_write##n(void *p); \
	void __tsan_volatile_read##n(void *p); \
	void __tsan_volatile_write##n(void *p); \
	void __tsan_read##n(void *p) \
	{ sim_check_access(p, n, false, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_write##n(void *p) \
	{ sim_check_access(p, n, true, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_unaligned_read##n(void *p) \
	{ sim_check_access(p, n, false, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_unaligned_write##n(void *p) \
	{ sim_check_access(p, n, true, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_volatile_read##n(void *p) \
	{ sim_check_access(p, n, false, (uintptr_t)__builtin_return_address(0)); } \
	void __tsan_volatile_write##n(void *p) \
	{ sim_check_access(p, n, true, (uintptr_t)__builtin_return_address(0)); }

HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

void __tsan_read_range(void *p, size_t n);
void __tsan_write_range(void *p, size_t n);
void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_vptr_update(void **p, void *value);
void __tsan_vptr_read(void **p);
void __tsan_atomic_thread_fence(int order);
void __tsan_atomic_signal_fence(int order);

void
__tsan_read_range(void *p, size_t n)
{
	sim_check_access(p, n, false, (uintptr_t)__builtin_return_address(0));
}

void
__tsan_write_range(void *p, size_t n)
{
	sim_check_access(p, n, true, (uintptr_t)__builtin_return_address(0));
}

/*
 * The C library's memory functions, which kernel code may call as device
 * code may: the grader links the student's object with --wrap for each, so
 * its calls come here and are checked as the accesses they make (the C
 * library itself is not instrumented).
 */
void *__wrap_memcpy(void *dst, const void *src, size_t n);
void *__wrap_memmove(void *dst, const void *src, size_t n);
void *__wrap_memset(void *dst, int c, size_t n);
void *__wrap___memcpy_chk(void *dst, const void *src, size_t n, size_t room);
void *__wrap___memmove_chk(void *dst, const void *src, size_t n, size_t room);
void *__wrap___memset_chk(void *dst, int c, size_t n, size_t room);

static void
range(const void *dst, const void *src, size_t n, uintptr_t pc)
{
	if (!n)
		return;
	if (src)
		sim_check_access(src, n, false, pc);
	sim_check_access(dst, n, true, pc);
}

void *
__wrap_memcpy(void *dst, const void *src, size_t n)
{
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memcpy(dst, src, n);
}

void *
__wrap_memmove(void *dst, const void *src, size_t n)
{
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memmove(dst, src, n);
}

void *
__wrap_memset(void *dst, int c, size_t n)
{
	range(dst, NULL, n, (uintptr_t)__builtin_return_address(0));
	return memset(dst, c, n);
}

void *
__wrap___memcpy_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (n > room)
		abort();
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memcpy(dst, src, n);
}

void *
__wrap___memmove_chk(void *dst, const void *src, size_t n, size_t room)
{
	if (n > room)
		abort();
	range(dst, src, n, (uintptr_t)__builtin_return_address(0));
	return memmove(dst, src, n);
}

void *
__wrap___memset_chk(void *dst, int c, size_t n, size_t room)
{
	if (n > room)
		abort();
	range(dst, NULL, n, (uintptr_t)__builtin_return_address(0));
	return memset(dst, c, n);
}

/*
 * Atomics in the instrumented file (a function-local static's guard, a
 * std::atomic in host code) come as __tsan_atomic* calls: they are atomics,
 * no plain access to check, so they do what they say, sequentially
 * consistent whatever order was asked for. In kernel code they are GNU's
 * __atomic builtins, which nvcc refuses there but g++ takes: a load, a
 * store or both, checked and counted as the plain accesses they stand for
 * (a relaxed __atomic_load_n of shared memory is a shared load, with its
 * bank conflicts), so that no kernel hides an access from the figures by
 * spelling it as an atomic.
 */
static void
tsan_atomic_seen(const volatile void *a, size_t size, bool read, bool write, void *ret)
{
	if (!sim_checking())
		return;
	if (read)
		sim_check_access((const void *)a, size, false, (uintptr_t)ret);
	if (write)
		sim_check_access((const void *)a, size, true, (uintptr_t)ret);
}
#define TSAN_SEEN_AS(a, r, w) tsan_atomic_seen((a), sizeof(*(a)), (r), (w), __builtin_return_address(0))
#define TSAN_SEEN(a) TSAN_SEEN_AS(a, true, true)
#define TSAN_ATOMIC(bits, T) \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo); \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo); \
	T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo); \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fail_mo); \
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fail_mo); \
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fail_mo); \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo) \
	{ (void)mo; TSAN_SEEN_AS(a, true, false); return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN_AS(a, false, true); __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); } \
	T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo) \
	{ (void)mo; TSAN_SEEN(a); return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); } \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fail_mo) \
	{ (void)mo, (void)fail_mo; TSAN_SEEN(a); return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, \
								       __ATOMIC_SEQ_CST); } \
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fail_mo) \
	{ return __tsan_atomic##bits##_compare_exchange_strong(a, c, v, mo, fail_mo); } \
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fail_mo) \
	{ (void)mo, (void)fail_mo; TSAN_SEEN(a); __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, \
							       __ATOMIC_SEQ_CST); return c; }

TSAN_ATOMIC(8, char)
TSAN_ATOMIC(16, short)
TSAN_ATOMIC(32, int)
TSAN_ATOMIC(64, long)

/* What else an instrumented file may call: nothing to check there. */
void __tsan_init(void) {}
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **p, void *value) { (void)p, (void)value; }
void __tsan_vptr_read(void **p) { (void)p; }
void __tsan_atomic_thread_fence(int order) { __atomic_thread_fence(__ATOMIC_SEQ_CST); (void)order; }
void __tsan_atomic_signal_fence(int order) { __atomic_signal_fence(__ATOMIC_SEQ_CST); (void)order; }
