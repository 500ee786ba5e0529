/* Built-in SimGrid platforms by name: cluster:N, fattree:N (or a SimGrid FAT_TREE parameter string),
 * torus:AxBxC, dragonfly:G,C,R,N. Written as SimGrid 3.32 platform XML (version 4.1) plus a
 * hostfile for smpirun; host names are node-0 .. node-(N-1). */
#ifndef MPIVET_PLATFORM_H
#define MPIVET_PLATFORM_H

#include <stddef.h>
#include <stdio.h>

#include "mpivet/error.h"

enum mv_platform_kind { MV_PLATFORM_CLUSTER, MV_PLATFORM_FATTREE, MV_PLATFORM_TORUS,
                        MV_PLATFORM_DRAGONFLY };

struct mv_platform {
  enum mv_platform_kind kind;
  int hosts;              /* number of hosts (nodes) */
  int cores;              /* cores per host (ranks per node that run in parallel) */
  char topo[128];         /* SimGrid topo_parameters ("" for a flat cluster) */
  char speed[32];         /* host speed, e.g. "1Gf" */
  char bw[32];            /* link bandwidth, e.g. "10GBps" */
  char lat[32];           /* link latency, e.g. "1us" */
  char loopback_bw[32];   /* intra-node */
  char loopback_lat[32];
};

/* Largest host count a spec may describe. */
#define MV_PLATFORM_MAX_HOSTS 1048576

/* Parse a spec such as "cluster:64", "fattree:256", "fattree:2;4,4;1,2;1,2", "torus:4x4x4",
 * "dragonfly:3,4,5,2" (groups, chassis per group, routers per chassis, nodes per router).
 * Optional suffixes ",bw=10GBps", ",lat=1us", ",speed=1Gf", ",cores=K" override the defaults.
 * MV_EPARSE with a message in e ("platform: expected ..., got ...") on a bad spec. */
int mv_platform_parse(const char *spec, struct mv_platform *p, struct mv_error *e);

/* Write the SimGrid 3.32 platform XML. MV_EIO on a stream error. */
int mv_platform_write_xml(const struct mv_platform *p, FILE *fp);

/* Name of host i ("node-<i>"). */
int mv_platform_host_name(int i, char *buf, size_t size);

/* Write a smpirun hostfile placing np ranks, ppn per host (ppn 0: one per host, wrapping around
 * when np > hosts). MV_ERANGE when np > hosts * ppn with ppn > 0. */
int mv_platform_write_hostfile(const struct mv_platform *p, int np, int ppn, FILE *fp);

/* Ranks that share a host when the hostfile above places np ranks on `hosts` hosts: ppn, or
 * with ppn 0 (wrapping around) ceil(np / hosts). One rule for the hostfile, warnings and
 * meta.json's ranks_per_host. */
int mv_platform_ranks_per_host(long hosts, int np, int ppn);

/* Hosts of a user SimGrid XML platform, in file order: group g names prefix<N>suffix for N in
 * first .. first + count - 1 (a <cluster> radical range), or the one host `prefix` when
 * numbered is 0 (<host>, <peer>). count is the total. */
struct mv_platform_host_group {
  char *prefix, *suffix;
  long first, count;
  int numbered;
};
struct mv_platform_hosts {
  struct mv_platform_host_group *group;
  size_t ngroups;
  long count;
  char speed[32];   /* the first host's speed (its first pstate, "1Gf"; "" when longer) */
};

/* Read the hosts of a SimGrid 3.32 platform file (platform-xml.c): the file must be well-formed
 * XML with a <platform version="4.1"> root, every <host>/<peer> needs id and speed, every
 * <cluster>/<cabinet> id, prefix, suffix, radical, speed, bw and lat, and at least one host.
 * MV_EPARSE with where "PATH:LINE:COLUMN" in e, MV_ENOENT/MV_EIO/MV_ERANGE (larger than 64 MiB)
 * as mv_read_file says them. On success release h with mv_platform_hosts_release. _parse reads
 * text[0..len) named name. */
int mv_platform_xml_hosts(const char *path, struct mv_platform_hosts *h, struct mv_error *e);
int mv_platform_xml_hosts_parse(const char *text, size_t len, const char *name,
                                struct mv_platform_hosts *h, struct mv_error *e);
/* Name of host i (0 <= i < count) into buf; MV_ERANGE when out of range or too long. */
int mv_platform_hosts_name(const struct mv_platform_hosts *h, long i, char *buf, size_t size);
/* 1 when name is one of the hosts. */
int mv_platform_hosts_has(const struct mv_platform_hosts *h, const char *name);
void mv_platform_hosts_release(struct mv_platform_hosts *h);
/* Write a smpirun hostfile placing np ranks by mv_platform_rank_host on the hosts of h, or on
 * those of list ("a,b,c", names of h checked by the caller) when list is not NULL. MV_ERANGE when
 * ppn > 0 places fewer than np ranks or a name does not fit; MV_EIO on a stream error. */
int mv_platform_hosts_write_hostfile(const struct mv_platform_hosts *h, const char *list, int np,
                                     int ppn, FILE *fp);

/* Host index (0-based, among `hosts`) of rank r when ppn ranks share a host (ppn 0: one per host,
 * wrapping around): the one placement rule of every hostfile. */
long mv_platform_rank_host(long hosts, int ppn, int r);

#endif
