// sharedport: TCP sockets that share one local port (Linux).
//
// The STUN module keeps a NAT mapping open from local port P with outgoing TCP connections
// (STUN servers, an HTTP keep-alive server) while a listener on the same P receives what comes
// in through the mapping. Linux allows that only when every one of those sockets has
// SO_REUSEADDR and SO_REUSEPORT set before bind(); Node can set SO_REUSEPORT on listeners
// (`reusePort`) but on no outgoing socket. This addon makes the socket, sets the options,
// binds (and for a listener listens) and hands the fd to JavaScript, which wraps it in a
// net.Socket / net.Server (packages/server/src/core/net/sharedPort.ts).
//
// Exports (every fd is non-blocking and close-on-exec; on any failure nothing stays open):
//   bindSocket(address, port, device|null) -> fd            bound, not connected
//   bindListen(address, port, device|null, backlog) -> fd   bound and listening
// Errors are thrown like Node's own: `code` is the errno name (EADDRINUSE, EPERM, ENODEV, ...),
// plus `errno` (negative, as Node has it), `syscall`, `address`, `port`.
//
// Plain C against Node-API only (ABI-stable: one build serves Node 22 and 24), compiled by
// scripts/build-native.mjs with the system C compiler and the node-api-headers package.

#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <node_api.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define ADDR_MAX 64

// The errno names these calls can produce (socket, setsockopt, bind, listen); anything else
// is reported as "UNKNOWN", as libuv does for errors it cannot name.
static const char *errno_name(int err) {
  switch (err) {
#define NAME(e) \
  case e:       \
    return #e;
    NAME(EACCES)
    NAME(EADDRINUSE)
    NAME(EADDRNOTAVAIL)
    NAME(EAFNOSUPPORT)
    NAME(EBADF)
    NAME(EFAULT)
    NAME(EINVAL)
    NAME(EMFILE)
    NAME(ENFILE)
    NAME(ENOBUFS)
    NAME(ENODEV)
    NAME(ENOMEM)
    NAME(ENOPROTOOPT)
    NAME(ENOTSOCK)
    NAME(EOPNOTSUPP)
    NAME(EPERM)
    NAME(EPROTONOSUPPORT)
#undef NAME
    default:
      return "UNKNOWN";
  }
}

// Throws an Error shaped like Node's system errors: "bind EADDRINUSE 0.0.0.0:4000".
static void throw_errno(napi_env env, int err, const char *syscall, const char *address, int port,
                        const char *detail) {
  const char *name = errno_name(err);
  char text[256];
  if (detail != NULL)
    snprintf(text, sizeof text, "%s %s %s (%s)", syscall, name, detail, strerror(err));
  else if (strchr(address, ':') != NULL)
    snprintf(text, sizeof text, "%s %s [%s]:%d", syscall, name, address, port);
  else
    snprintf(text, sizeof text, "%s %s %s:%d", syscall, name, address, port);

  napi_value code, message, error, value;
  if (napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &code) != napi_ok ||
      napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &message) != napi_ok ||
      napi_create_error(env, code, message, &error) != napi_ok) {
    napi_throw_error(env, name, text);
    return;
  }
  if (napi_create_int32(env, -err, &value) == napi_ok) napi_set_named_property(env, error, "errno", value);
  if (napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &value) == napi_ok)
    napi_set_named_property(env, error, "syscall", value);
  if (napi_create_string_utf8(env, address, NAPI_AUTO_LENGTH, &value) == napi_ok)
    napi_set_named_property(env, error, "address", value);
  if (napi_create_int32(env, port, &value) == napi_ok) napi_set_named_property(env, error, "port", value);
  napi_throw(env, error);
}

static void throw_arg(napi_env env, const char *text) { napi_throw_type_error(env, "ERR_INVALID_ARG_VALUE", text); }

// Reads a string argument into buf; false (with an exception pending) when it is not a string
// or does not fit.
static int read_string(napi_env env, napi_value v, char *buf, size_t size, const char *what) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) {
    char text[96];
    snprintf(text, sizeof text, "%s must be a string", what);
    throw_arg(env, text);
    return 0;
  }
  if (len >= size) {
    char text[96];
    snprintf(text, sizeof text, "%s is too long (at most %zu bytes)", what, size - 1);
    throw_arg(env, text);
    return 0;
  }
  napi_get_value_string_utf8(env, v, buf, size, &len);
  return 1;
}

// (address, port, device|null, [backlog]) -> fd; backlog < 0: do not listen.
static napi_value open_socket(napi_env env, napi_callback_info info, int want_listen) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < (want_listen ? 4u : 3u)) {
    throw_arg(env, want_listen ? "expected (address, port, device, backlog)" : "expected (address, port, device)");
    return NULL;
  }

  char address[ADDR_MAX];
  if (!read_string(env, argv[0], address, sizeof address, "address")) return NULL;

  int32_t port = -1;
  if (napi_get_value_int32(env, argv[1], &port) != napi_ok || port < 0 || port > 65535) {
    throw_arg(env, "port must be an integer from 0 to 65535");
    return NULL;
  }

  char device[IFNAMSIZ] = "";
  napi_valuetype type;
  napi_typeof(env, argv[2], &type);
  if (type != napi_null && type != napi_undefined) {
    if (!read_string(env, argv[2], device, sizeof device, "device")) return NULL;
  }

  int32_t backlog = -1;
  if (want_listen && (napi_get_value_int32(env, argv[3], &backlog) != napi_ok || backlog < 1)) {
    throw_arg(env, "backlog must be a positive integer");
    return NULL;
  }

  struct sockaddr_storage ss;
  socklen_t sslen;
  memset(&ss, 0, sizeof ss);
  struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
  struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
  if (inet_pton(AF_INET, address, &sin->sin_addr) == 1) {
    sin->sin_family = AF_INET;
    sin->sin_port = htons((uint16_t)port);
    sslen = sizeof *sin;
  } else if (inet_pton(AF_INET6, address, &sin6->sin6_addr) == 1) {
    sin6->sin6_family = AF_INET6;
    sin6->sin6_port = htons((uint16_t)port);
    sslen = sizeof *sin6;
  } else {
    throw_arg(env, "address must be a numeric IPv4 or IPv6 address (no scope id)");
    return NULL;
  }

  // Non-blocking and close-on-exec from the start: no window in which a forked child
  // (a rule's script) could inherit the socket.
  int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    throw_errno(env, errno, "socket", address, port, NULL);
    return NULL;
  }

  const int on = 1;
  const char *failed = NULL;
  const char *detail = NULL;
  if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) {
    failed = "setsockopt";
    detail = "SO_REUSEADDR";
  } else if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) {
    failed = "setsockopt";
    detail = "SO_REUSEPORT";
  } else if (device[0] != '\0' &&
             setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, device, (socklen_t)strlen(device)) != 0) {
    // EPERM without CAP_NET_RAW (kernels before 5.7), ENODEV for a name no interface has.
    failed = "setsockopt";
    detail = device;
  } else if (bind(fd, (struct sockaddr *)&ss, sslen) != 0) {
    failed = "bind";
  } else if (want_listen && listen(fd, backlog) != 0) {
    failed = "listen";
  }
  if (failed != NULL) {
    int err = errno;
    close(fd);
    char what[IFNAMSIZ + 32];
    if (detail == device) {
      snprintf(what, sizeof what, "SO_BINDTODEVICE %s", device);
      detail = what;
    }
    throw_errno(env, err, failed, address, port, detail);
    return NULL;
  }

  napi_value result;
  if (napi_create_int32(env, fd, &result) != napi_ok) {
    close(fd);
    return NULL;
  }
  return result;
}

static napi_value bind_socket(napi_env env, napi_callback_info info) { return open_socket(env, info, 0); }

static napi_value bind_listen(napi_env env, napi_callback_info info) { return open_socket(env, info, 1); }

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"bindSocket", NULL, bind_socket, NULL, NULL, NULL, napi_enumerable, NULL},
      {"bindListen", NULL, bind_listen, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok) return NULL;
  return exports;
}
