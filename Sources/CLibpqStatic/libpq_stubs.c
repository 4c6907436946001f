// libpq.a refers to GSSAPI (Kerberos) and OpenLDAP functions, and Debian
// ships neither as a static library. trackee reaches the hub with a
// password or a Unix socket's peer authentication, never Kerberos, and
// never looks connection parameters up in LDAP (pg_service.conf's ldap://
// lines), so these stand-ins answer "not available": libpq then finds no
// Kerberos credentials and makes no GSSAPI-encrypted connection, and an
// LDAP lookup fails with "could not create LDAP structure". They are
// weak: a build linked against the real libraries keeps the real ones.
#include <stddef.h>
#include "clibpq_static.h"

#define GSS_FAILURE (13u << 16) /* GSS_S_FAILURE */

__attribute__((weak)) void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

#define GSS_STUB(name)                                              \
    __attribute__((weak)) unsigned int name(unsigned int *minor) { \
        if (minor) *minor = 0;                                      \
        return GSS_FAILURE;                                         \
    }

GSS_STUB(gss_acquire_cred)
GSS_STUB(gss_delete_sec_context)
GSS_STUB(gss_display_status)
GSS_STUB(gss_import_name)
GSS_STUB(gss_init_sec_context)
GSS_STUB(gss_release_buffer)
GSS_STUB(gss_release_cred)
GSS_STUB(gss_release_name)
GSS_STUB(gss_unwrap)
GSS_STUB(gss_wrap)
GSS_STUB(gss_wrap_size_limit)

__attribute__((weak)) void *ldap_init(const char *host, int port) {
    (void)host;
    (void)port;
    return NULL;
}

#define LDAP_STUB(name) \
    __attribute__((weak)) int name(void) { return -1; }
#define LDAP_NULL_STUB(name) \
    __attribute__((weak)) void *name(void) { return NULL; }

LDAP_NULL_STUB(ldap_first_entry)
LDAP_NULL_STUB(ldap_get_values_len)
LDAP_STUB(ldap_count_entries)
LDAP_STUB(ldap_msgfree)
LDAP_STUB(ldap_result)
LDAP_STUB(ldap_search_st)
LDAP_STUB(ldap_set_option)
LDAP_STUB(ldap_simple_bind)
LDAP_STUB(ldap_unbind)
LDAP_STUB(ldap_value_free_len)

__attribute__((weak)) const char *ldap_err2string(int error) {
    (void)error;
    return "LDAP is not available in this build";
}
