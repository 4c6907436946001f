// libdbus-1's headers, reached through one shim so the module map does not
// depend on where the distribution puts them (pkg-config dbus-1).
#include <dbus/dbus.h>
