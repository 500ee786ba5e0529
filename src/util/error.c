/* Text for the error values of include/mpivet/error.h, produced from the same X-macro list. */
#include "mpivet/error.h"

const char *mv_strerror(int err)
{
  switch (err) {
  case MV_OK: return "success";
#define XX(code, text) case MV_E##code: return text;
  MV_ERRNO_MAP(XX)
#undef XX
  default: return "unknown error";
  }
}
