/* The node knowledge base (see graph_nodes.h): its fields for retrieval,
 * the check of every definition, and the parameter rule the check and the
 * workflow validator share. Names and keywords weigh three times the
 * descriptions: they say what a node is for, in the words people use. */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/shelf.h"
#include "wf/graph_edit/graph_nodes.h"

#define GRAPH_NAME_MAX 64

static const struct kb_field graph_nodes_fields[] = {
	{ "name_zh", 3, KB_SHOW | KB_REQUIRED },
	{ "name_en", 3, KB_SHOW | KB_REQUIRED },
	{ "keywords", 3, KB_REQUIRED },
	{ "type", 2, KB_REQUIRED },
	{ "description_zh", 1, KB_REQUIRED },
	{ "description_en", 1, KB_REQUIRED },
	{ "category", 1, KB_SHOW | KB_REQUIRED },
	{ NULL, 0, 0 },
};

static const char *const graph_data_types[] = {
	"STRING", "INTEGER", "FLOAT", "BOOLEAN", "OBJECT", "ARRAY", "BINARY", "WILDCARD",
	"CONVERTIBLE_ANY", NULL,
};
static const char *const graph_param_types[] = {
	"STRING", "INTEGER", "FLOAT", "BOOLEAN", "ENUM", NULL,
};
static const char *const graph_def_keys[] = {
	"id", "type", "name_zh", "name_en", "description_zh", "description_en", "category",
	"keywords", "inputs", "outputs", "configValues", NULL,
};
static const char *const graph_input_keys[] = {
	"type", "required", "multi", "name_zh", "name_en", NULL,
};
static const char *const graph_output_keys[] = { "type", "name_zh", "name_en", NULL };
static const char *const graph_param_keys[] = {
	"type", "default", "min", "max", "options", "name_zh", "name_en", NULL,
};

static int graph_in_list(const char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

int graph_data_type_known(const char *t)
{
	return graph_in_list(graph_data_types, t);
}

int graph_type_name_ok(const char *type)
{
	const char *p = type;

	if (p == NULL || !(*p >= 'a' && *p <= 'z'))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	if (*p++ != ':')
		return 0;
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	return graph_slot_name_ok(p);
}

int graph_slot_name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0 || n > GRAPH_NAME_MAX || (name[0] >= '0' && name[0] <= '9'))
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return 0;
	}
	return 1;
}

/* -- parameters ----------------------------------------------------------- */

static const char *graph_param_number(const json_t *decl, const json_t *v, int integer,
				      char *why, size_t whylen)
{
	const json_t *min = json_object_get(decl, "min"), *max = json_object_get(decl, "max");
	double x = json_number_value(v);

	if (!json_is_number(v) || (integer && !json_is_integer(v)) || !isfinite(x)) {
		snprintf(why, whylen, "must be %s", integer ? "a whole number" : "a number");
		return "bad_type";
	}
	if (min && x < json_number_value(min)) {
		snprintf(why, whylen, "%.15g below min %.15g", x, json_number_value(min));
		return "out_of_range";
	}
	if (max && x > json_number_value(max)) {
		snprintf(why, whylen, "%.15g above max %.15g", x, json_number_value(max));
		return "out_of_range";
	}
	return NULL;
}

static const char *graph_param_enum(const json_t *decl, const json_t *v, char *why,
				    size_t whylen)
{
	size_t i;
	json_t *o;

	if (!json_is_string(v)) {
		snprintf(why, whylen, "must be one of the options, as a string");
		return "bad_type";
	}
	json_array_foreach(json_object_get(decl, "options"), i, o)
		if (json_equal(o, v))
			return NULL;
	snprintf(why, whylen, "\"%.60s\" is not one of the options", json_string_value(v));
	return "not_allowed";
}

const char *graph_param_check(const json_t *decl, const json_t *value, char *why,
			      size_t whylen)
{
	const char *t = json_string_value(json_object_get(decl, "type")) ?: "";

	if (strcmp(t, "INTEGER") == 0 || strcmp(t, "FLOAT") == 0)
		return graph_param_number(decl, value, t[0] == 'I', why, whylen);
	if (strcmp(t, "ENUM") == 0)
		return graph_param_enum(decl, value, why, whylen);
	if (strcmp(t, "BOOLEAN") == 0 && !json_is_boolean(value))
		return snprintf(why, whylen, "must be true or false"), "bad_type";
	if (strcmp(t, "STRING") == 0 && !json_is_string(value))
		return snprintf(why, whylen, "must be a string"), "bad_type";
	return NULL;
}

/* -- the check of a definition --------------------------------------------- */

/* Each returns 0, or -1 with why (what is wrong, after the entry's name). */

static int graph_keys_known(const json_t *obj, const char *const *keys, const char *where,
			    char *why, size_t whylen)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v)
		if (!graph_in_list(keys, k))
			return snprintf(why, whylen, "%s%sunknown member \"%.64s\"", where,
					*where ? ": " : "", k), -1;
	return 0;
}

static int graph_opt_bool(const json_t *slot, const char *key, const char *where, char *why,
			  size_t whylen)
{
	const json_t *v = json_object_get(slot, key);

	if (v && !json_is_boolean(v))
		return snprintf(why, whylen, "%s: \"%s\" must be true or false", where, key), -1;
	return 0;
}

static int graph_opt_string(const json_t *obj, const char *key, const char *where, char *why,
			    size_t whylen)
{
	const json_t *v = json_object_get(obj, key);

	if (v && !json_is_string(v))
		return snprintf(why, whylen, "%s: \"%s\" must be a string", where, key), -1;
	return 0;
}

static int graph_check_slot(const char *side, const char *name, const json_t *slot, char *why,
			    size_t whylen)
{
	int in = strcmp(side, "inputs") == 0;
	char where[128];

	snprintf(where, sizeof where, "%s.%.64s", side, name);
	if (!graph_slot_name_ok(name))
		return snprintf(why, whylen, "%s: not a valid slot name", where), -1;
	if (!json_is_object(slot))
		return snprintf(why, whylen, "%s: must be an object", where), -1;
	if (!graph_data_type_known(json_string_value(json_object_get(slot, "type"))))
		return snprintf(why, whylen, "%s: \"type\" must be one of STRING, INTEGER, FLOAT, "
				"BOOLEAN, OBJECT, ARRAY, BINARY, WILDCARD, CONVERTIBLE_ANY", where), -1;
	if (graph_keys_known(slot, in ? graph_input_keys : graph_output_keys, where, why,
			     whylen) < 0)
		return -1;
	if (graph_opt_bool(slot, "required", where, why, whylen) < 0 ||
	    graph_opt_bool(slot, "multi", where, why, whylen) < 0 ||
	    graph_opt_string(slot, "name_zh", where, why, whylen) < 0 ||
	    graph_opt_string(slot, "name_en", where, why, whylen) < 0)
		return -1;
	return 0;
}

static int graph_check_slots(const json_t *def, const char *side, char *why, size_t whylen)
{
	const json_t *slots = json_object_get(def, side);
	const char *k;
	json_t *v;

	if (!json_is_object(slots))
		return snprintf(why, whylen, "\"%s\" must be an object of slots", side), -1;
	json_object_foreach((json_t *)slots, k, v)
		if (graph_check_slot(side, k, v, why, whylen) < 0)
			return -1;
	return 0;
}

/* options: a non-empty array of distinct strings, for ENUM only. */
static int graph_check_options(const json_t *p, int is_enum, const char *where, char *why,
			       size_t whylen)
{
	const json_t *opts = json_object_get(p, "options");
	size_t i, j;
	json_t *o;

	if (!is_enum)
		return opts ? (snprintf(why, whylen, "%s: \"options\" only for ENUM", where), -1) : 0;
	if (!json_is_array(opts) || json_array_size(opts) == 0)
		return snprintf(why, whylen, "%s: ENUM needs \"options\", a list of strings", where),
		       -1;
	json_array_foreach(opts, i, o) {
		if (!json_is_string(o))
			return snprintf(why, whylen, "%s: options must be strings", where), -1;
		for (j = 0; j < i; j++)
			if (json_equal(o, json_array_get(opts, j)))
				return snprintf(why, whylen, "%s: option \"%.60s\" twice", where,
						json_string_value(o)), -1;
	}
	return 0;
}

/* min and max: numbers of the parameter's type, min <= max; numbers only. */
static int graph_check_bounds(const json_t *p, const char *t, const char *where, char *why,
			      size_t whylen)
{
	int numeric = strcmp(t, "INTEGER") == 0 || strcmp(t, "FLOAT") == 0;
	const json_t *min = json_object_get(p, "min"), *max = json_object_get(p, "max");
	const json_t *b[2] = { min, max };

	for (int i = 0; i < 2; i++) {
		if (b[i] == NULL)
			continue;
		if (!numeric)
			return snprintf(why, whylen, "%s: \"%s\" only for INTEGER and FLOAT", where,
					i ? "max" : "min"), -1;
		if (!json_is_number(b[i]) || (t[0] == 'I' && !json_is_integer(b[i])))
			return snprintf(why, whylen, "%s: \"%s\" must be %s", where, i ? "max" : "min",
					t[0] == 'I' ? "a whole number" : "a number"), -1;
	}
	if (min && max && json_number_value(min) > json_number_value(max))
		return snprintf(why, whylen, "%s: min %.15g above max %.15g", where,
				json_number_value(min), json_number_value(max)), -1;
	return 0;
}

static int graph_check_param(const char *name, const json_t *p, char *why, size_t whylen)
{
	const char *t = json_string_value(json_object_get(p, "type"));
	const json_t *def = json_object_get(p, "default");
	char where[128], bad[96];

	snprintf(where, sizeof where, "configValues.%.64s", name);
	if (!graph_slot_name_ok(name))
		return snprintf(why, whylen, "%s: not a valid parameter name", where), -1;
	if (!json_is_object(p))
		return snprintf(why, whylen, "%s: must be an object", where), -1;
	if (!graph_in_list(graph_param_types, t))
		return snprintf(why, whylen, "%s: \"type\" must be one of STRING, INTEGER, FLOAT, "
				"BOOLEAN, ENUM", where), -1;
	if (graph_keys_known(p, graph_param_keys, where, why, whylen) < 0)
		return -1;
	if (graph_check_bounds(p, t, where, why, whylen) < 0 ||
	    graph_check_options(p, strcmp(t, "ENUM") == 0, where, why, whylen) < 0 ||
	    graph_opt_string(p, "name_zh", where, why, whylen) < 0 ||
	    graph_opt_string(p, "name_en", where, why, whylen) < 0)
		return -1;
	if (def == NULL)
		return snprintf(why, whylen, "%s: no \"default\"", where), -1;
	if (graph_param_check(p, def, bad, sizeof bad))
		return snprintf(why, whylen, "%s: default %s", where, bad), -1;
	return 0;
}

static int graph_check_params(const json_t *def, char *why, size_t whylen)
{
	const json_t *params = json_object_get(def, "configValues");
	const char *k;
	json_t *v;

	if (!json_is_object(params))
		return snprintf(why, whylen, "\"configValues\" must be an object of parameters"), -1;
	json_object_foreach((json_t *)params, k, v)
		if (graph_check_param(k, v, why, whylen) < 0)
			return -1;
	return 0;
}

static int graph_check_def(const json_t *def, char *why, size_t whylen)
{
	const char *type = json_string_value(json_object_get(def, "type"));
	const char *id = json_string_value(json_object_get(def, "id"));

	if (graph_keys_known(def, graph_def_keys, "", why, whylen) < 0)
		return -1;
	if (!graph_type_name_ok(type))
		return snprintf(why, whylen, "\"type\" must read namespace:Name"), -1;
	if (id == NULL || strcmp(id, type) != 0)
		return snprintf(why, whylen, "\"id\" must be the type, \"%s\"", type), -1;
	if (graph_check_slots(def, "inputs", why, whylen) < 0 ||
	    graph_check_slots(def, "outputs", why, whylen) < 0 ||
	    graph_check_params(def, why, whylen) < 0)
		return -1;
	if (json_object_size(json_object_get(def, "inputs")) +
	    json_object_size(json_object_get(def, "outputs")) == 0)
		return snprintf(why, whylen, "a node needs at least one input or output"), -1;
	return 0;
}

int graph_nodes_check(const json_t *docs, char *err, size_t errlen)
{
	size_t i;
	json_t *d;
	char why[256];

	json_array_foreach(docs, i, d) {
		const char *id = json_string_value(json_object_get(d, "id")) ?: "?";

		if (graph_check_def(d, why, sizeof why) < 0)
			return snprintf(err, errlen, "node %zu (%s): %s", i + 1, id, why), -1;
	}
	return 0;
}

/* -- the library on the shelf ---------------------------------------------- */

static const char *graph_nodes_path(const struct conf *c)
{
	return c->kb_nodes;
}

const struct kb_def graph_nodes_def = {
	.name = "node library",
	.file = "nodes.json",
	.path = graph_nodes_path,
	.fields = graph_nodes_fields,
	.check = graph_nodes_check,
};

struct kb *graph_nodes(struct app *app, char *err, size_t errlen)
{
	return kb_shelf_get(app, &graph_nodes_def, err, errlen);
}

json_t *graph_nodes_find(void *kb, const char *type)
{
	return type ? kb_find(kb, type) : NULL;
}
