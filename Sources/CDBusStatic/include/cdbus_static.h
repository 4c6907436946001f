// Stand-ins for the two libsystemd functions libdbus-1.a refers to; see
// systemd_stubs.c.
int sd_listen_fds(int unset_environment);
int sd_is_socket(int fd, int family, int type, int listening);
