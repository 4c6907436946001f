// libxlsxwriter's header, reached through one shim so the module map does
// not depend on where the distribution puts it (pkg-config xlsxwriter).
#include <xlsxwriter.h>
