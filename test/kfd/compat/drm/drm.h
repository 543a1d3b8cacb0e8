/*
 * Debian's linux-libc-dev kfd_ioctl.h does #include <drm/drm.h>, which
 * Debian ships only as libdrm's <libdrm/drm.h>.  The UAPI layout test puts
 * this directory on the include path of its system-header TU only.
 */
#include <libdrm/drm.h>
