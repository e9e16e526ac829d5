/* What every offline agent of the orchestrate workflow reads from its
 * facts (orch_rules_int.h): a fact's string, the run's picture, a tool's
 * result, a file's text, the inputs. Below the agents' files and the
 * table that names them (orch_rules.c). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

const char *orch_fact_str(const json_t *facts, const char *key)
{
	const char *s = json_string_value(json_object_get(facts, key));

	return s ? s : "";
}

const json_t *orch_image_attachment(const json_t *facts)
{
	size_t i;
	json_t *a;

	json_array_foreach(json_object_get(facts, "attachments"), i, a) {
		const char *m = json_string_value(json_object_get(a, "mimeType"));

		if (m && strncmp(m, "image/", 6) == 0)
			return a;
	}
	return NULL;
}

unsigned char *orch_attachment_bytes(const json_t *att, size_t *len)
{
	const char *b64 = json_string_value(json_object_get(att, "data"));
	size_t n = b64 ? strlen(b64) : 0, max = n / 4 * 3 + 3;
	unsigned char *out;

	*len = 0;
	if (!b64)
		return NULL;
	out = xmalloc(max + 1);
	if (sodium_base642bin(out, max, b64, n, " \r\n\t", len, NULL,
			      sodium_base64_VARIANT_ORIGINAL) != 0) {
		free(out);
		*len = 0;
		return NULL;
	}
	out[*len] = '\0';
	return out;
}

const json_t *orch_tool_result(const json_t *facts, const char *name, int *count)
{
	const json_t *last = NULL;
	size_t i;
	json_t *t;

	if (count)
		*count = 0;
	json_array_foreach(json_object_get(facts, "toolResults"), i, t) {
		const char *n = json_string_value(json_object_get(t, "name"));

		if (!n || strcmp(n, name) != 0)
			continue;
		last = json_object_get(t, "result");
		if (count)
			(*count)++;
	}
	return last;
}

/* The text a read_file result carries for path, or NULL. */
static const char *orch_read_result(const json_t *facts, const char *path)
{
	const char *text = NULL;
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(facts, "toolResults"), i, t) {
		const char *n = json_string_value(json_object_get(t, "name"));
		const char *p = json_string_value(json_object_get(json_object_get(t, "arguments"), "path"));
		json_t *r = json_object_get(t, "result");
		const char *c = json_string_value(json_object_get(r, "content"));

		if (!c)
			c = json_string_value(json_object_get(r, "text"));
		if (n && p && c && strcmp(n, "read_file") == 0 && strcmp(p, path) == 0)
			text = c;
	}
	return text;
}

char *orch_file_text(const json_t *facts, const char *path)
{
	size_t i, len;
	json_t *a;
	const char *read;

	json_array_foreach(json_object_get(facts, "attachments"), i, a) {
		const char *p = json_string_value(json_object_get(a, "path"));
		unsigned char *bytes;

		if (!p || strcmp(p, path) != 0)
			continue;
		bytes = orch_attachment_bytes(a, &len);
		if (bytes && strlen((char *)bytes) == len)
			return (char *)bytes;
		free(bytes);
	}
	read = orch_read_result(facts, path);
	return read ? xstrdup(read) : NULL;
}

const char *orch_result_path(const json_t *result)
{
	static const char *const keys[] = { "path", "output", "file", "outputPath" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *s = json_string_value(json_object_get(result, keys[i]));

		if (s && *s)
			return s;
	}
	return NULL;
}

json_t *orch_inputs_array(const json_t *facts, const char *key)
{
	json_t *out = json_array(), *ctx;
	const char *id;

	json_object_foreach(json_object_get(facts, "inputs"), id, ctx) {
		json_t *arr = json_object_get(json_object_get(ctx, "structuredData"), key);

		if (json_is_array(arr))
			json_array_extend(out, arr);
	}
	return out;
}
