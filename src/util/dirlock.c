/* Folder locks and the empty-folder test (include/mpivet/dirlock.h): flock on DIR/.mpivet.lock,
 * never released by hand, so it lasts exactly as long as the process. */
#include "mpivet/dirlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpivet/error.h"

/* Folders this process holds (flock conflicts between two opens in one process, too). */
#define MAX_HELD 16
static struct { dev_t dev; ino_t ino; int fd; } held[MAX_HELD];
static int nheld;

int mv_dir_lock(const char *dir)
{
  char path[4200];
  struct stat st;
  if (snprintf(path, sizeof path, "%s/" MV_DIR_LOCK_NAME, dir) >= (int)sizeof path)
    return MV_ERANGE;
  if (stat(dir, &st) != 0)
    return MV_EIO;
  for (int i = 0; i < nheld; i++)
    if (held[i].dev == st.st_dev && held[i].ino == st.st_ino)
      return 0;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    return MV_EIO;
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int busy = errno == EWOULDBLOCK;
    close(fd);
    return busy ? MV_EBUSY : MV_EIO;
  }
  if (nheld < MAX_HELD) {
    held[nheld].dev = st.st_dev;
    held[nheld].ino = st.st_ino;
    held[nheld++].fd = fd;
  }
  return 0;   /* fd stays open: the lock lasts until the process ends */
}

void mv_dir_locks_close_in_child(void)
{
  for (int i = 0; i < nheld; i++)
    close(held[i].fd);
  nheld = 0;
}

int mv_dir_is_empty(const char *dir, char *first, size_t size)
{
  DIR *d = opendir(dir);
  if (!d)
    return 1;
  struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, MV_DIR_LOCK_NAME)) {
      empty = 0;
      snprintf(first, size, "%s", e->d_name);
    }
  closedir(d);
  return empty;
}
