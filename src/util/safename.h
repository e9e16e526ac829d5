/* File names people give (an attachment's "name"), made safe to show and
 * to store: no control characters, and none of Unicode's invisible bidi
 * controls, with which "invoice\u202Egnp.exe" shows as "invoiceexe.png". */
#ifndef AV_SAFENAME_H
#define AV_SAFENAME_H
#include <stddef.h>
#include <jansson.h>

/* The length in bytes of the invisible control that starts at p (UTF-8:
 * a C1 control, U+061C, U+200E, U+200F, U+2028 to U+202E, U+2066 to
 * U+2069), or 0 when none does. */
size_t safename_invisible(const char *p);
/* Removes every invisible control from s, in place. */
void safename_strip(char *s);
/* True when s holds a control character (C0, DEL) or an invisible one. */
int safename_has_controls(const char *s);
/* name (UTF-8; NULL: "") with each C0 control and DEL made '_', the
 * invisible controls removed, and cut to at most max bytes on a character
 * boundary. New reference. */
json_t *safename_json(const char *name, size_t max);

#endif
