/* SPDX-License-Identifier: MIT */
/* The descriptors `tinyperf recv` polls: TCP (listening or connecting out, IPv4 or IPv6) and
 * serial lines made raw (cfmakeraw and the baud rate). Non-blocking; -errno on error. */
#ifndef TINYPERF_HOST_TOOLS_LIB_RECV_IO_H
#define TINYPERF_HOST_TOOLS_LIB_RECV_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <termios.h>

/* "HOST:PORT", "[IPV6]:PORT", or "HOST" with def_port; numeric: no name lookup */
int tp_recv_resolve(const char *spec, const char *def_port, bool numeric,
		    struct sockaddr_storage *out, socklen_t *len);
/* "192.0.2.1:40312" or "[::1]:40312" */
void tp_recv_format_addr(char *buf, size_t cap, const struct sockaddr_storage *a);
/* a listening socket: its fd */
int tp_recv_listen(const struct sockaddr_storage *a, socklen_t len);
/* TCP keepalive on a connection: a peer that vanished (unplugged, rebooted) is found in
 * about two minutes (60 s quiet, then 6 probes 10 s apart) while a live but quiet one stays */
void tp_recv_keepalive(int fd);
/* before closing a connection that recv refuses or drops: one line to the recorder,
 * TP_BYE_MAGIC and why (perfdata/framing.h), without blocking */
void tp_recv_bye(int fd, const char *why);
/* a connection under way (poll for POLLOUT, then tp_recv_connect_result): its fd */
int tp_recv_connect_start(const struct sockaddr_storage *a, socklen_t len);
/* 0 when connected, else -errno */
int tp_recv_connect_result(int fd);

struct tp_recv_tty {
	int fd;
	bool restore;
	struct termios saved;
};

/* "DEV[,BAUD]": opened raw (a file or FIFO is read as it is); its fd; dev gets the path */
int tp_recv_serial_open(const char *spec, struct tp_recv_tty *tty, char *dev, size_t devcap);
/* the settings back, closed */
void tp_recv_serial_close(struct tp_recv_tty *tty);

#endif
