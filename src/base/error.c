/* error.c — error codes (one X-macro list in rubble.h) and messages with context. */
#include "base_internal.h"

#include <stdio.h>

const char *rbl_strerror(int code)
{
    switch (code) {
    case RBL_OK:
        return "success";
#define RBL_XX_(name, value, text)                                                             \
    case RBL_##name:                                                                           \
        return text;
        RBL_ERRNO_MAP(RBL_XX_)
#undef RBL_XX_
    default:
        return "unknown error";
    }
}

int rbl_error_set(rbl_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

int rbl_error_prefix(rbl_error *err, int code, const char *fmt, ...)
{
    if (err) {
        char prefix[RBL_ERROR_MESSAGE_MAX], msg[RBL_ERROR_MESSAGE_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(prefix, sizeof prefix, fmt, ap);
        va_end(ap);
        snprintf(msg, sizeof msg, "%s", err->message);
        rbl_error_set(err, code, "%s: %s", prefix, msg);
    }
    return code;
}
