/* Memory metrics: malloc/free interposition in the benchmark process (net live bytes, so the
 * allocation overhead of Comm_create, Comm_dup, Win_create and Cart_create is the delta around
 * the call), and the proportional set size from /proc/self/smaps. Under SMPI all ranks share
 * one simulator process, so neither figure belongs to a rank: both report -1 (not measured). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef MV_SMPI
#include <malloc.h>  /* not under SMPI: smpicc turns malloc into a macro */

/* glibc's own allocator entry points, so the wrappers below can forward to them. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

/* One MPI process per rank here, so one counter per process is one counter per rank. */
static long long live_bytes;

static void *counted(void *p)
{
  if (p)
    __atomic_add_fetch(&live_bytes, (long long)malloc_usable_size(p), __ATOMIC_RELAXED);
  return p;
}

static void uncount(void *p)
{
  if (p)
    __atomic_sub_fetch(&live_bytes, (long long)malloc_usable_size(p), __ATOMIC_RELAXED);
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t n, size_t size) { return counted(__libc_calloc(n, size)); }
void *memalign(size_t align, size_t size) { return counted(__libc_memalign(align, size)); }
void *aligned_alloc(size_t align, size_t size) { return counted(__libc_memalign(align, size)); }
void *valloc(size_t size) { return counted(__libc_memalign(4096, size)); }

void free(void *p)
{
  uncount(p);
  __libc_free(p);
}

void *realloc(void *p, size_t size)
{
  uncount(p);
  void *q = __libc_realloc(p, size);
  if (!q && p && size)
    return counted(p);  /* failed: the old block is still live */
  return counted(q);
}

int posix_memalign(void **out, size_t align, size_t size)
{
  void *p = __libc_memalign(align, size);
  if (!p)
    return 12; /* ENOMEM */
  *out = counted(p);
  return 0;
}

int64_t bench_mem_live(void) { return __atomic_load_n(&live_bytes, __ATOMIC_RELAXED); }

/* Sum of the Pss: lines (kB) of a smaps-format file. */
static int64_t sum_pss(const char *path)
{
  FILE *fp = fopen(path, "r");
  if (!fp)
    return -1;
  char line[256];
  long long kb, total = 0;
  while (fgets(line, sizeof line, fp))
    if (sscanf(line, "Pss: %lld kB", &kb) == 1)
      total += kb;
  fclose(fp);
  return total * 1024;
}

int64_t bench_mem_pss(void)
{
  int64_t v = sum_pss("/proc/self/smaps_rollup");
  return v > 0 ? v : sum_pss("/proc/self/smaps");
}
#else
int64_t bench_mem_live(void) { return -1; }
int64_t bench_mem_pss(void) { return -1; }
#endif

void bench_create_comm_create(struct bench_buf *b, struct bench_handle *h)
{
  MPI_Group g;
  MPI_Comm_group(b->comm, &g);
  MPI_Comm_create(b->comm, g, &h->comm);
  MPI_Group_free(&g);
}
void bench_create_comm_dup(struct bench_buf *b, struct bench_handle *h)
{
  MPI_Comm_dup(b->comm, &h->comm);
}
void bench_create_win_create(struct bench_buf *b, struct bench_handle *h)
{
  MPI_Win_create(b->out, (MPI_Aint)b->msize, 1, MPI_INFO_NULL, b->comm, &h->win);
}
void bench_create_cart_create(struct bench_buf *b, struct bench_handle *h)
{
  int dims[2] = {0, 0}, periods[2] = {1, 1};
  MPI_Dims_create(b->size, 2, dims);
  MPI_Cart_create(b->comm, 2, dims, periods, 0, &h->comm);
}

void bench_memop_measure(const struct bench_op *op, struct bench_buf *b, double *seconds,
                         int64_t *bytes, int64_t *pss)
{
  struct bench_handle h = {MPI_COMM_NULL, MPI_WIN_NULL};
  int64_t before = bench_mem_live();
  double t0 = bench_now();
  op->create(b, &h);
  *seconds = bench_now() - t0;
  int64_t after = bench_mem_live();
  *bytes = before < 0 ? -1 : after - before;
  *pss = bench_mem_pss();
  if (h.comm != MPI_COMM_NULL)
    MPI_Comm_free(&h.comm);
  if (h.win != MPI_WIN_NULL)
    MPI_Win_free(&h.win);
}
