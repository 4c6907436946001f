// PostgreSQL's client library, for the hub (TrackeeHubClient).
#include <libpq-fe.h>
