/* MPI-IO hooks, OTF2's I/O model with MPI-IO as the I/O paradigm: IoCreateHandle at
 * MPI_File_open (one I/O handle per rank and open, on the file named by the hash of its path),
 * IoDestroyHandle at MPI_File_close, IoDeleteFile, IoSeek, and IoOperationBegin/Complete around
 * reads, writes (collective for the _all forms) and MPI_File_sync (a flush); the non-blocking
 * forms record Begin and Issued at the call and Complete when Wait or Test completes them. */
#include <otf2/OTF2_Definitions.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "hooks.h"
#include "state.h"
#include "tables.h"

/* 32-bit FNV-1a of the path: the file's id in every rank's records (archive.h) */
static uint32_t file_hash(const char *path)
{
  uint32_t h = 2166136261u;
  for (const unsigned char *p = (const unsigned char *)path; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

/* Defines the file (its path on the rest of the line, newlines replaced) and returns its id. */
static uint32_t define_file(const char *path)
{
  char name[1024];
  snprintf(name, sizeof name, "%s", path ? path : "");
  for (char *p = name; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = '?';
  uint32_t id = file_hash(name);
  mv__def("iofile %u %s", id, name);
  return id;
}

static struct mv__file_ent *file_find(MPI_File fh)
{
  for (size_t i = G.nfiles; i-- > 0;)
    if (G.files[i].fh == fh)
      return &G.files[i];
  return NULL;
}

uint32_t mv__io_handle(MPI_File fh)
{
  const struct mv__file_ent *e = file_find(fh);
  return e ? e->id : MV__NONE;
}

static uint32_t access_flags(int amode, uint32_t *creation, uint32_t *status)
{
  *creation = (amode & MPI_MODE_CREATE ? OTF2_IO_CREATION_FLAG_CREATE : 0) |
              (amode & MPI_MODE_EXCL ? OTF2_IO_CREATION_FLAG_EXCLUSIVE : 0) |
              (amode & MPI_MODE_SEQUENTIAL ? OTF2_IO_CREATION_FLAG_NO_SEEK : 0);
  *status = (amode & MPI_MODE_APPEND ? OTF2_IO_STATUS_FLAG_APPEND : 0) |
            (amode & MPI_MODE_DELETE_ON_CLOSE ? OTF2_IO_STATUS_FLAG_DELETE_ON_CLOSE : 0);
  return amode & MPI_MODE_RDWR ? OTF2_IO_ACCESS_MODE_READ_WRITE
       : amode & MPI_MODE_WRONLY ? OTF2_IO_ACCESS_MODE_WRITE_ONLY
                                 : OTF2_IO_ACCESS_MODE_READ_ONLY;
}

void mv__post_file_open(struct mv__call *c, int ret, MPI_Comm comm, const char *filename, int amode,
                        MPI_File fh)
{
  if (ret != MPI_SUCCESS)
    return;
  if (G.nfiles == G.capfiles) {
    void *p = mv__grow(G.files, &G.capfiles, sizeof *G.files);
    if (!p)
      return;
    G.files = p;
  }
  uint32_t id = G.next_file++ * (uint32_t)G.size + (uint32_t)G.rank;
  G.files[G.nfiles++] = (struct mv__file_ent){fh, id};
  uint32_t file = define_file(filename), creation, status;
  mv__def("iohandle %u %u %u", id, mv__comm_id(comm), file);
  uint32_t mode = access_flags(amode, &creation, &status);
  if (c->on)
    mv__emit(MV__K_IO_CREATE, (int)mode, id, creation, status, 0, 0);
}

/* The handle's id while it is still valid (MPI_File_close sets it to MPI_FILE_NULL). */
void mv__pre_file_close(struct mv__call *c, MPI_File fh)
{
  struct mv__file_ent *e = file_find(fh);
  c->win = e ? e->id : MV__NONE;
  if (e)
    *e = G.files[--G.nfiles];
}

void mv__post_file_closed(struct mv__call *c, int ret)
{
  if (c->on && ret == MPI_SUCCESS && c->win != MV__NONE)
    mv__emit(MV__K_IO_DESTROY, 0, c->win, 0, 0, 0, 0);
}

void mv__post_file_delete(struct mv__call *c, int ret, const char *filename)
{
  if (ret == MPI_SUCCESS && c->on)
    mv__emit(MV__K_IO_DELETE, 0, define_file(filename), 0, 0, 0, 0);
}

void mv__post_file_seek(struct mv__call *c, int ret, MPI_File fh, MPI_Offset offset, int whence)
{
  uint32_t id = mv__io_handle(fh);
  MPI_Offset now = 0;
  if (!c->on || ret != MPI_SUCCESS || id == MV__NONE || PMPI_File_get_position(fh, &now) != MPI_SUCCESS)
    return;
  int otf2 = whence == MPI_SEEK_CUR ? OTF2_IO_SEEK_FROM_CURRENT
           : whence == MPI_SEEK_END ? OTF2_IO_SEEK_FROM_END : OTF2_IO_SEEK_FROM_START;
  mv__emit(MV__K_IO_SEEK, otf2, id, 0, 0, (uint64_t)offset, (uint64_t)now);
}

/* A blocking operation: Begin stamped at the call's Enter, its matching id kept in c->match. */
void mv__pre_io_begin(struct mv__call *c, MPI_File fh, int mode, int flags, int count,
                      MPI_Datatype type)
{
  c->win = mv__io_handle(fh);
  if (!c->on || c->win == MV__NONE)
    return;
  c->match = ++G.next_match;
  mv__emit(MV__K_IO_BEGIN, mode, c->win, (uint32_t)flags, 0, mv__bytes(count, type), c->match);
}

/* Bytes done, from the status (0 when the status was ignored). */
static uint64_t io_bytes(const MPI_Status *status)
{
  return status == MPI_STATUS_IGNORE ? 0 : mv__status_bytes(status);
}

void mv__post_io_end(struct mv__call *c, int ret, MPI_Status *status)
{
  if (c->on && c->win != MV__NONE && c->match)
    mv__emit(MV__K_IO_COMPLETE, 0, c->win, 0, 0, ret == MPI_SUCCESS ? io_bytes(status) : 0, c->match);
}

void mv__post_io_issue(struct mv__call *c, int ret, MPI_File fh, int mode, int count,
                       MPI_Datatype type, MPI_Request *request)
{
  uint32_t id = mv__io_handle(fh);
  if (!c->on || ret != MPI_SUCCESS || id == MV__NONE)
    return;
  uint64_t match = ++G.next_match;
  mv__emit_at(c->t, MV__K_IO_BEGIN, mode, id, OTF2_IO_OPERATION_FLAG_NON_BLOCKING, 0,
              mv__bytes(count, type), match);
  mv__emit(MV__K_IO_ISSUED, 0, id, 0, 0, 0, match);
  struct mv__req_ent *e = mv__req_new(c, ret, 0, MV__REQ_IO, request);  /* no peer to check */
  if (e)
    e->win = id, e->id = match;
}

void mv__io_request_done(const struct mv__req_ent *e, const MPI_Status *status)
{
  mv__emit(MV__K_IO_COMPLETE, 0, e->win, 0, 0, io_bytes(status), e->id);
}
