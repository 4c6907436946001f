// Stand-ins for the GSSAPI and LDAP functions libpq.a refers to; see
// libpq_stubs.c. Nothing to declare for callers.
