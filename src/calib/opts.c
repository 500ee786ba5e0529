/* Command-line options of mpivet-calib; every rank parses the same argv, rank 0 prints errors. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

static const char usage[] =
  "usage: mpivet-calib [options]\n"
  "Measures what an SMPI platform needs (SimGrid's calibration procedure) between rank 0 and a\n"
  "rank on the same host (and one on another host when there is one), in random recorded order.\n"
  "  --max-size BYTES    largest message, sizes log-spaced from 0 [1073741824]; windows\n"
  "                      (MPI_Win_allocate/create/free, every rank) up to 16 MiB of them\n"
  "  --per-octave N      message sizes per factor of two [2]\n"
  "  --reps N            repetitions of every operation and size (at least 1), 3 x N for\n"
  "                      messages up to 8 MiB; Isend 6 x that, 12 x N above 8 MiB [10]\n"
  "  --kernels LIST      also time these BLAS kernels on every rank: dgemm, dtrsm (none: no kernel)\n"
  "  --kernel-samples N  random shapes per kernel [60]\n"
  "  --kernel-max N      largest m, n or k of a kernel shape [1024]\n"
  "  --no-net            skip the network measurements\n"
  "  --load N            N busy threads per rank while measuring (background compute load) [0]\n"
  "  --seed N            order of the measurements (0: from the clock; recorded) [0]\n"
  "  --out FILE          CSV written by rank 0: order,op,rank,host,pair,bytes,m,n,k,rep,seconds\n";

static int fail(int rank, const char *what, const char *arg)
{
  if (rank == 0)
    fprintf(stderr, "mpivet-calib: %s, got \"%s\"\n%s", what, arg, usage);
  return 2;
}

static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (errno || end == s || *end || x < lo || x > hi)
    return -1;
  *v = x;
  return 0;
}

static int kernels(struct calib_opts *o, char *arg, int rank)
{
  for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
    if (strcmp(tok, "dgemm") == 0)
      o->dgemm = 1;
    else if (strcmp(tok, "dtrsm") == 0)
      o->dtrsm = 1;
    else if (strcmp(tok, "none") != 0)
      return fail(rank, "--kernels: expected dgemm, dtrsm or none", tok);
  }
  return 0;
}

static int option(struct calib_opts *o, int c, char *arg, int rank)
{
  int64_t v = 0;
  switch (c) {
  case 'm':
    if (parse_i64(arg, 1, 1LL << 31, &v))
      return fail(rank, "--max-size: expected bytes from 1 to 2147483648", arg);
    o->max_size = v == 1LL << 31 ? v - 1 : v;
    return 0;
  case 'p': case 'r': case 's': case 'x': case 'l':
    if (parse_i64(arg, c == 'l' ? 0 : 1, 100000, &v))
      return fail(rank, "expected a count from 1 (0 for --load) to 100000", arg);
    *(c == 'p' ? &o->per_octave : c == 'r' ? &o->reps : c == 's' ? &o->kernel_samples
      : c == 'x' ? &o->kernel_max : &o->load) = (int)v;
    return 0;
  case 'S':
    if (parse_i64(arg, 0, INT64_MAX, &v))
      return fail(rank, "--seed: expected a non-negative integer", arg);
    o->seed = (uint64_t)v;
    return 0;
  case 'k': return kernels(o, arg, rank);
  case 'n': o->net = 0; return 0;
  case 'o': o->out = arg; return 0;
  default: return fail(rank, "unknown option or missing argument", arg ? arg : "?");
  }
}

int calib_opts_parse(struct calib_opts *o, int argc, char **argv, int rank)
{
  static const struct option longopts[] = {
    {"max-size", required_argument, 0, 'm'}, {"per-octave", required_argument, 0, 'p'},
    {"reps", required_argument, 0, 'r'}, {"kernels", required_argument, 0, 'k'},
    {"kernel-samples", required_argument, 0, 's'}, {"kernel-max", required_argument, 0, 'x'},
    {"no-net", no_argument, 0, 'n'}, {"load", required_argument, 0, 'l'},
    {"seed", required_argument, 0, 'S'}, {"out", required_argument, 0, 'o'},
    {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
  *o = (struct calib_opts){.max_size = 1 << 30, .per_octave = 2, .reps = 10, .kernel_samples = 60,
                           .kernel_max = 1024, .net = 1, .out = NULL};
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    if (c == 'h') {
      if (rank == 0)
        fputs(usage, stdout);
      return 1;
    }
    int rc = option(o, c, c == '?' ? argv[optind - 1] : optarg, rank);
    if (rc)
      return rc;
  }
  if (optind < argc)
    return fail(rank, "unexpected argument", argv[optind]);
  if (!o->out)
    return fail(rank, "--out FILE is required", "");
  return 0;
}
