// PostgreSQL's client library, for the hub (TrackeeReplication).
#include <libpq-fe.h>
