/*
 * Passing a file descriptor to another process over a Unix socket
 * (SCM_RIGHTS), with a few bytes of payload so the message is never empty:
 * the two-process suites (dma-buf, interop) hand a dma-buf fd this way.
 */
#ifndef HL_FDPASS_H
#define HL_FDPASS_H

#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

/* Sends fd and len bytes of data; 0, or -1 with errno. */
static inline int hl_send_fd(int sock, int fd, const void *data, size_t len)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	memset(ctl, 0, sizeof(ctl));
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &mh, 0) == (ssize_t)len ? 0 : -1;
}

/* Receives an fd (close-on-exec) and exactly len bytes into data; the fd,
 * or -1. */
static inline int hl_recv_fd(int sock, void *data, size_t len)
{
	char ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			     .msg_controllen = sizeof(ctl) };
	if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) != (ssize_t)len)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	int fd;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

#endif
