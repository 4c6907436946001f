// cairo's headers (the image and PDF surfaces), reached through one shim so
// the module map does not depend on where the distribution puts them
// (pkg-config cairo).
#include <cairo.h>
#include <cairo-pdf.h>
