// libical's headers, reached through one shim so the module map does not
// depend on where the distribution puts them (pkg-config libical).
#include <libical/ical.h>
