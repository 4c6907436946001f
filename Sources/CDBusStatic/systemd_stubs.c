// libdbus-1.a refers to two libsystemd functions, and Debian ships no
// static libsystemd. Both serve only a bus daemon started by systemd
// socket activation (dbus-sysdeps-unix.c, _dbus_listen_systemd_sockets);
// a client such as trackee never reaches them. These stand-ins say "no
// sockets passed" so the fully static link resolves without libsystemd.
// They are weak: a build linked against libsystemd keeps the real ones.
#include "cdbus_static.h"

__attribute__((weak)) int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    return 0;
}

__attribute__((weak)) int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd;
    (void)family;
    (void)type;
    (void)listening;
    return 0;
}
