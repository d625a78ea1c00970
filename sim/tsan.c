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

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

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

/*
 * The C library's other functions that read or write memory through the caller's pointers (the grader's
 * --wrap, harness/runner.mk's SIM_WRAPS, sends the student's calls here). The library is not
 * instrumented: wmemcpy(v, &tile[i][j], 1) in a kernel read a float no check and no figure saw. The math
 * functions that are device functions too (sincosf, modff, frexpf, remquof and their double forms) store
 * through their pointers as a kernel's stores, checked and counted; the rest are host functions, which
 * nvcc refuses in a kernel: called from one (behind #ifdef __CUDASIM__, out of nvcc's sight), the launch
 * fails, as a host function called through a pointer does. From host code each is the library's own.
 */
static void
host_only(const char *name)
{
	if (!sim_cur.active || sim_blk.cur < 0)
		return;
	sim_error(cudaErrorIllegalAddress,
		  "%s called the C library's '%s', a host function: a kernel runs on the GPU, where the host's "
		  "functions do not exist (nvcc refuses the call), and on the simulator its reads and writes would "
		  "pass unseen by the checks and the figures; a kernel may call only __device__ functions",
		  sim_where(), name);
	sim_abandon(cudaErrorIllegalAddress);
}

#define DEVICE_OUT(p) \
	do { if (sim_checking()) sim_check_access((p), sizeof(*(p)), true, (uintptr_t)__builtin_return_address(0)); } \
	while (0)

void __wrap_sincosf(float x, float *s, float *c);
void __wrap_sincos(double x, double *s, double *c);
float __wrap_modff(float x, float *ip);
double __wrap_modf(double x, double *ip);
float __wrap_frexpf(float x, int *e);
double __wrap_frexp(double x, int *e);
float __wrap_remquof(float x, float y, int *q);
double __wrap_remquo(double x, double y, int *q);

void __wrap_sincosf(float x, float *s, float *c) { DEVICE_OUT(s); DEVICE_OUT(c); *s = sinf(x); *c = cosf(x); }
void __wrap_sincos(double x, double *s, double *c) { DEVICE_OUT(s); DEVICE_OUT(c); *s = sin(x); *c = cos(x); }
float __wrap_modff(float x, float *ip) { DEVICE_OUT(ip); return modff(x, ip); }
double __wrap_modf(double x, double *ip) { DEVICE_OUT(ip); return modf(x, ip); }
float __wrap_frexpf(float x, int *e) { DEVICE_OUT(e); return frexpf(x, e); }
double __wrap_frexp(double x, int *e) { DEVICE_OUT(e); return frexp(x, e); }
float __wrap_remquof(float x, float y, int *q) { DEVICE_OUT(q); return remquof(x, y, q); }
double __wrap_remquo(double x, double y, int *q) { DEVICE_OUT(q); return remquo(x, y, q); }

#define HOST_ONLY(ret, name, params, args) \
	ret __wrap_##name params; \
	ret __wrap_##name params { host_only(#name); return name args; }
#define HOST_ONLY_VOID(name, params, args) \
	void __wrap_##name params; \
	void __wrap_##name params { host_only(#name); name args; }

HOST_ONLY(wchar_t *, wmemcpy, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
HOST_ONLY(wchar_t *, wmemmove, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
HOST_ONLY(wchar_t *, wmemset, (wchar_t *d, wchar_t c, size_t n), (d, c, n))
HOST_ONLY(int, wmemcmp, (const wchar_t *a, const wchar_t *b, size_t n), (a, b, n))
HOST_ONLY(void *, mempcpy, (void *d, const void *s, size_t n), (d, s, n))
HOST_ONLY(void *, memccpy, (void *d, const void *s, int c, size_t n), (d, s, c, n))
HOST_ONLY(void *, memchr, (const void *s, int c, size_t n), ((void *)s, c, n))
HOST_ONLY(void *, memrchr, (const void *s, int c, size_t n), ((void *)s, c, n))
HOST_ONLY(void *, rawmemchr, (const void *s, int c), ((void *)s, c))
HOST_ONLY(void *, memmem, (const void *h, size_t hn, const void *n, size_t nn), ((void *)h, hn, n, nn))
HOST_ONLY(int, memcmp, (const void *a, const void *b, size_t n), (a, b, n))
HOST_ONLY(int, bcmp, (const void *a, const void *b, size_t n), (a, b, n))
HOST_ONLY_VOID(swab, (const void *s, void *d, ssize_t n), (s, d, n))
HOST_ONLY_VOID(explicit_bzero, (void *d, size_t n), (d, n))
HOST_ONLY(char *, strcpy, (char *d, const char *s), (d, s))
HOST_ONLY(char *, strncpy, (char *d, const char *s, size_t n), (d, s, n))
HOST_ONLY(char *, stpcpy, (char *d, const char *s), (d, s))
HOST_ONLY(char *, stpncpy, (char *d, const char *s, size_t n), (d, s, n))
HOST_ONLY(char *, strcat, (char *d, const char *s), (d, s))
HOST_ONLY(char *, strncat, (char *d, const char *s, size_t n), (d, s, n))
HOST_ONLY(size_t, strlen, (const char *s), (s))
HOST_ONLY(size_t, strnlen, (const char *s, size_t n), (s, n))
HOST_ONLY(int, strcmp, (const char *a, const char *b), (a, b))
HOST_ONLY(int, strncmp, (const char *a, const char *b, size_t n), (a, b, n))
HOST_ONLY(wchar_t *, wcscpy, (wchar_t *d, const wchar_t *s), (d, s))
HOST_ONLY(wchar_t *, wcsncpy, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
HOST_ONLY(size_t, wcslen, (const wchar_t *s), (s))
HOST_ONLY_VOID(qsort, (void *b, size_t n, size_t sz, int (*cmp)(const void *, const void *)), (b, n, sz, cmp))
HOST_ONLY_VOID(bcopy, (const void *s, void *d, size_t n), (s, d, n))
HOST_ONLY_VOID(bzero, (void *d, size_t n), (d, n))
HOST_ONLY(void *, __mempcpy, (void *d, const void *s, size_t n), (d, s, n))
HOST_ONLY(char *, __stpcpy, (char *d, const char *s), (d, s))
HOST_ONLY(void *, memfrob, (void *d, size_t n), (d, n))
HOST_ONLY(size_t, strxfrm, (char *d, const char *s, size_t n), (d, s, n))
HOST_ONLY(size_t, wcsxfrm, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
HOST_ONLY(wchar_t *, wmempcpy, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
HOST_ONLY(wchar_t *, wcscat, (wchar_t *d, const wchar_t *s), (d, s))
HOST_ONLY(wchar_t *, wcsncat, (wchar_t *d, const wchar_t *s, size_t n), (d, s, n))
/* the fortified forms, which a file may declare itself */
void *__mempcpy_chk(void *d, const void *s, size_t n, size_t room);
char *__stpcpy_chk(char *d, const char *s, size_t room);
char *__strcpy_chk(char *d, const char *s, size_t room);
char *__strncpy_chk(char *d, const char *s, size_t n, size_t room);
char *__strcat_chk(char *d, const char *s, size_t room);
wchar_t *__wmemcpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t room);
wchar_t *__wmemmove_chk(wchar_t *d, const wchar_t *s, size_t n, size_t room);
wchar_t *__wmemset_chk(wchar_t *d, wchar_t c, size_t n, size_t room);
HOST_ONLY(void *, __mempcpy_chk, (void *d, const void *s, size_t n, size_t r), (d, s, n, r))
HOST_ONLY(char *, __stpcpy_chk, (char *d, const char *s, size_t r), (d, s, r))
HOST_ONLY(char *, __strcpy_chk, (char *d, const char *s, size_t r), (d, s, r))
HOST_ONLY(char *, __strncpy_chk, (char *d, const char *s, size_t n, size_t r), (d, s, n, r))
HOST_ONLY(char *, __strcat_chk, (char *d, const char *s, size_t r), (d, s, r))
HOST_ONLY(wchar_t *, __wmemcpy_chk, (wchar_t *d, const wchar_t *s, size_t n, size_t r), (d, s, n, r))
HOST_ONLY(wchar_t *, __wmemmove_chk, (wchar_t *d, const wchar_t *s, size_t n, size_t r), (d, s, n, r))
HOST_ONLY(wchar_t *, __wmemset_chk, (wchar_t *d, wchar_t c, size_t n, size_t r), (d, c, n, r))
HOST_ONLY(int, vsnprintf, (char *d, size_t n, const char *f, va_list ap), (d, n, f, ap))
HOST_ONLY(int, vsprintf, (char *d, const char *f, va_list ap), (d, f, ap))
HOST_ONLY(int, vsscanf, (const char *s, const char *f, va_list ap), (s, f, ap))

int __wrap_snprintf(char *d, size_t n, const char *f, ...) __attribute__((format(printf, 3, 4)));
int __wrap_sprintf(char *d, const char *f, ...) __attribute__((format(printf, 2, 3)));
int __wrap_sscanf(const char *s, const char *f, ...) __attribute__((format(scanf, 2, 3)));

int
__wrap_snprintf(char *d, size_t n, const char *f, ...)
{
	host_only("snprintf");
	va_list ap;
	va_start(ap, f);
	int r = vsnprintf(d, n, f, ap);
	va_end(ap);
	return r;
}

int
__wrap_sprintf(char *d, const char *f, ...)
{
	host_only("sprintf");
	va_list ap;
	va_start(ap, f);
	int r = vsprintf(d, f, ap);
	va_end(ap);
	return r;
}

int
__wrap_sscanf(const char *s, const char *f, ...)
{
	host_only("sscanf");
	va_list ap;
	va_start(ap, f);
	int r = vsscanf(s, f, ap);
	va_end(ap);
	return r;
}
