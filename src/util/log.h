/* Logging to stderr, which every web server captures, with levels and the
 * file and line where an error starts. Registered secrets (API keys) are
 * masked in every line, whatever the caller passed. */
#ifndef AV_LOG_H
#define AV_LOG_H

enum log_level { LOG_LV_ERROR, LOG_LV_WARN, LOG_LV_INFO, LOG_LV_DEBUG };

void log_set_level(enum log_level lv);
/* -1 for an unknown name. */
int log_level_parse(const char *name);
/* Masks this string wherever it appears in later lines. The string is copied. */
void log_add_secret(const char *secret);
void log_write(enum log_level lv, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define log_error(...) log_write(LOG_LV_ERROR, __FILE__, __LINE__, __VA_ARGS__)
#define log_warn(...) log_write(LOG_LV_WARN, __FILE__, __LINE__, __VA_ARGS__)
#define log_info(...) log_write(LOG_LV_INFO, __FILE__, __LINE__, __VA_ARGS__)
#define log_debug(...) log_write(LOG_LV_DEBUG, __FILE__, __LINE__, __VA_ARGS__)

#endif
