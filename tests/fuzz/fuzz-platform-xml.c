/* libFuzzer target: the platform XML host reader (--platform FILE) must accept or reject any
 * input cleanly; an accepted file names every host it counts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpivet/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct mv_platform_hosts h;
  char name[1100];
  if (mv_platform_xml_hosts_parse((const char *)data, size, "fuzz.xml", &h, NULL) != 0)
    return 0;
  for (long i = 0; i < h.count && i < 4096; i++)
    if (mv_platform_hosts_name(&h, i, name, sizeof name) == 0 && !mv_platform_hosts_has(&h, name))
      abort();   /* a host it named must be one of its hosts */
  mv_platform_hosts_release(&h);
  return 0;
}
